#!/usr/bin/env bash
# Fuzzes the parsers that read untrusted input, with libFuzzer.
#
#   Tests/Fuzz/run.sh [seconds-per-target] [target...]
#
# Builds each target (Tests/Fuzz/<target>/Entry.swift calling FuzzTarget in
# Tests/Fuzz/FuzzTargets) in release with -sanitize=fuzzer,address into .build-fuzz, then runs
# it for a fixed time from its seed corpus (Tests/Fuzz/<target>/corpus) and dictionary. New
# inputs go to a temporary folder, so the committed corpus only changes by hand. Fails on any
# crash, sanitizer report, broken invariant, input slower than 10 s or use of more than 2 GB;
# the input is kept in .build-fuzz/artifacts. To reproduce one:
#   SWIFT_BACKTRACE=enable=no .build-fuzz/release/fuzz-<target> .build-fuzz/artifacts/<file>
# and to keep it as a regression test, copy it into Tests/Fuzz/<target>/corpus (the test suite
# replays every corpus file, FuzzCorpusTests).
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds=${1:-30}
shift $(( $# > 0 ? 1 : 0 ))
all=(json-parser filters list-filters url-encoded-params record-import)
targets=("${@:-${all[@]}}")

export OFFLINE_SEARCH_FUZZ=1
flags=(-c release --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -g
       -Xswiftc -DOFFLINE_SEARCH_FUZZ -Xswiftc -enable-experimental-feature -Xswiftc Extern)
started=$(date +%s)
for target in "${targets[@]}"; do
    swift build "${flags[@]}" --product "fuzz-$target"
done
bin=$(swift build "${flags[@]}" --show-bin-path)
echo "fuzz: built ${#targets[@]} targets in $(( $(date +%s) - started )) s"

work=$(mktemp -d "${TMPDIR:-/tmp}/offline-search-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p .build-fuzz/artifacts
failed=()
for target in "${targets[@]}"; do
    mkdir -p "$work/$target/new" "$work/$target/tmp"
    options=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
             -artifact_prefix=".build-fuzz/artifacts/$target-")
    [ -f "Tests/Fuzz/$target/dictionary" ] && options+=(-dict="Tests/Fuzz/$target/dictionary")
    # The indices a target writes go to its own temporary folder; Swift's backtracer is off so
    # that libFuzzer sees the crash and keeps the input.
    if TMPDIR="$work/$target/tmp" SWIFT_BACKTRACE=enable=no \
        "$bin/fuzz-$target" "${options[@]}" "$work/$target/new" "Tests/Fuzz/$target/corpus" > "$work/$target.log" 2>&1; then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$target.log")
        echo "fuzz: $target: ${runs:-?} inputs in $seconds s, no crash"
    else
        failed+=("$target")
        echo "fuzz: $target FAILED; the end of its log:" >&2
        tail -n 60 "$work/$target.log" >&2
    fi
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: failed: ${failed[*]} (inputs in .build-fuzz/artifacts)" >&2
    exit 1
fi
echo "fuzz: all ${#targets[@]} targets passed in $(( $(date +%s) - started )) s"
