#!/usr/bin/env bash
# Two builds side by side on one keystroke log through `offline-search query`, alternating, so
# that this noisy machine's drifts fall on both: the mean, p50 and p99 of each run's
# processingTimeNS (the first answer, which opens the index's caches, left out), then each
# build's median of the means.
#
#   Benchmarks/query-pairs.sh PAIRS BIN_A BIN_B DATA_DIR LOG
#
# BIN_A and BIN_B are `offline-search` binaries (release builds of two commits); DATA_DIR an
# index folder (`offline-search-benchmark keystrokes --keep`); LOG JSON lines of requests
# (`../shared/bench/make_queries.py` or `offline-search-benchmark write-log`).
set -euo pipefail
pairs=${1:?usage: query-pairs.sh PAIRS BIN_A BIN_B DATA_DIR LOG}
a=${2:?}; b=${3:?}; data=${4:?}; log=${5:?}
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for _ in $(seq "$pairs"); do
    for bin in "$a" "$b"; do
        "$bin" query --data "$data" --timing < "$log" > "$out"
        python3 - "$bin" "$out" <<'PY'
import json, sys
times = [json.loads(line)["processingTimeNS"] for line in open(sys.argv[2])][1:]
ordered = sorted(times)
print("%s mean %.0f us p50 %.0f p99 %.0f" % (sys.argv[1], sum(times) / len(times) / 1000,
      ordered[len(ordered) // 2] / 1000, ordered[int(len(ordered) * 0.99)] / 1000))
PY
    done
done | tee /dev/stderr | python3 -c '
import sys, statistics, collections
means = collections.defaultdict(list)
for line in sys.stdin:
    fields = line.split()
    means[fields[0]].append(float(fields[2]))
for bin, values in means.items():
    print("%s: median of means %.0f us over %d runs" % (bin, statistics.median(values), len(values)))
'
