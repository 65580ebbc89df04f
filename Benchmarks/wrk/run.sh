#!/usr/bin/env bash
# Load test of `offline-search serve` on loopback with wrk (Debian's package): the keystroke log
# over an index built by `offline-search-benchmark keystrokes --keep`, as single-index queries.
#
#   Benchmarks/wrk/run.sh DATA_DIR [seconds] [connections]
#
# Needs release builds of offline-search and offline-search-benchmark (this script builds them).
# RESPONSE_CACHE_MIB=0 runs the server without its response cache (default: the server's, 64).
# LOG=FILE sends that keystroke log (JSON lines, as `write-log` or ../shared/bench/make_queries.py
# write them) instead of the benchmark's 2,999 requests. DELAY_MS=N paces each connection (N ms
# after each answer: about connections / (N ms + latency) requests/s; Benchmarks/wrk/paced.lua).
# BIN=FOLDER runs the binaries there (another commit's release build) instead of building these.
set -euo pipefail
cd "$(dirname "$0")/../.."
data=${1:?usage: Benchmarks/wrk/run.sh DATA_DIR [seconds] [connections]}
seconds=${2:-30}
connections=${3:-32}
port=${PORT:-18108}
if [ -n "${BIN:-}" ]; then
    bin=$BIN   # another build's folder (a side-by-side run), built already
else
    swift build -c release --product offline-search >/dev/null
    swift build -c release --product offline-search-benchmark >/dev/null
    bin=$(swift build -c release --show-bin-path)
fi
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
if [ -n "${LOG:-}" ]; then cp "$LOG" "$work/log.jsonl"; else "$bin/offline-search-benchmark" write-log --out "$work/log.jsonl" >/dev/null; fi
python3 -c '
import json, sys
with open(sys.argv[1]) as source, open(sys.argv[2], "w") as out:
    for line in source:
        request = json.loads(line)
        request.pop("indexName", None)
        out.write(json.dumps(request) + "\n")
' "$work/log.jsonl" "$work/bodies.jsonl"
"$bin/offline-search" serve --data "$data" --port "$port" --response-cache "${RESPONSE_CACHE_MIB:-64}" 2>"$work/server.log" &
server=$!
for _ in $(seq 100); do
    curl -s -o /dev/null "http://127.0.0.1:$port/1/indexes" && break
    sleep 0.1
done
# One pass to warm up, then the measured run.
wrk -t2 -c"$connections" -d5s -s Benchmarks/wrk/keystrokes.lua "http://127.0.0.1:$port" -- "$work/bodies.jsonl" products >/dev/null
if [ -n "${DELAY_MS:-}" ]; then
    wrk -t2 -c"$connections" -d"${seconds}s" --latency -s Benchmarks/wrk/paced.lua "http://127.0.0.1:$port" -- "$work/bodies.jsonl" products "$DELAY_MS"
else
    wrk -t2 -c"$connections" -d"${seconds}s" --latency -s Benchmarks/wrk/keystrokes.lua "http://127.0.0.1:$port" -- "$work/bodies.jsonl" products
fi
