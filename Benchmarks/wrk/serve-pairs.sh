#!/usr/bin/env bash
# Two builds' servers side by side under wrk, alternating, with the response cache off: each
# run's requests/s and the server's CPU time a request (user + system, from /proc), which a
# busy neighbour on this shared machine disturbs less than the rate.
#
#   Benchmarks/wrk/serve-pairs.sh PAIRS BIN_A BIN_B DATA_DIR search|get [seconds]
#
# BIN_A and BIN_B are folders with release builds of `offline-search`; DATA_DIR an index folder
# made by `offline-search-benchmark keystrokes --keep`. `search` sends the keystroke log
# (LOG=FILE, JSON lines as ../shared/bench/make_queries.py writes them; default the benchmark's
# own log) as single-index queries; `get` fetches one record (OBJECT_ID, default p42792).
set -euo pipefail
cd "$(dirname "$0")/../.."
pairs=${1:?usage: serve-pairs.sh PAIRS BIN_A BIN_B DATA_DIR search|get [seconds]}
a=${2:?}; b=${3:?}; data=${4:?}; kind=${5:?}; seconds=${6:-10}
port=${PORT:-18109}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ "$kind" = search ]; then
    if [ -n "${LOG:-}" ]; then cp "$LOG" "$work/log.jsonl"; else "$a/offline-search-benchmark" write-log --out "$work/log.jsonl" >/dev/null; fi
    python3 -c '
import json, sys
with open(sys.argv[1]) as source, open(sys.argv[2], "w") as out:
    for line in source:
        request = json.loads(line)
        request.pop("indexName", None)
        out.write(json.dumps(request) + "\n")
' "$work/log.jsonl" "$work/bodies.jsonl"
    load=(-s Benchmarks/wrk/keystrokes.lua "http://127.0.0.1:$port" -- "$work/bodies.jsonl" products)
else
    load=(-s Benchmarks/wrk/get-object.lua "http://127.0.0.1:$port/1/indexes/products/${OBJECT_ID:-p42792}")
fi
for _ in $(seq "$pairs"); do
    for bin in "$a" "$b"; do
        "$bin/offline-search" serve --data "$data" --port "$port" --response-cache 0 2>/dev/null &
        server=$!
        for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/1/indexes" && break; sleep 0.1; done
        wrk -t2 -c32 -d3s "${load[@]}" >/dev/null   # warm-up
        before=$(awk '{print $14 + $15}' "/proc/$server/stat")
        out=$(wrk -t2 -c32 -d"${seconds}s" "${load[@]}")
        after=$(awk '{print $14 + $15}' "/proc/$server/stat")
        requests=$(echo "$out" | awk '/requests in/ {print $1; exit} /^requests [0-9]/ {print $2; exit}')
        python3 -c 'import os, sys
bin, requests, ticks, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
cpu = ticks / os.sysconf("SC_CLK_TCK")
print("%s: %.0f requests/s, server CPU %.0f us a request" % (bin, requests / seconds, cpu / requests * 1e6))' \
            "$bin" "$requests" "$((after - before))" "$seconds"
        kill "$server"; wait "$server" 2>/dev/null || true
    done
done
