#!/usr/bin/env bash
# Times `offline-search import` of a corpus into a fresh data folder and a rebuild of its
# derived file at open, each with its peak resident memory (GNU time's %M), alternating the
# binaries given, RUNS times each.
#
#   Benchmarks/imports.sh CORPUS.json SETTINGS.json BINARY...     # e.g. an old build and a new one
set -euo pipefail
corpus=${1:?usage: Benchmarks/imports.sh CORPUS.json SETTINGS.json BINARY...}
settings=${2:?usage: Benchmarks/imports.sh CORPUS.json SETTINGS.json BINARY...}
shift 2
runs=${RUNS:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for run in $(seq "$runs"); do
    for binary in "$@"; do
        rm -rf "$work/data"
        /usr/bin/time -f "import  run $run  $binary: %e s wall, %U s user, %S s sys, peak %M KB" \
            "$binary" import --data "$work/data" products "$corpus" --settings "$settings" >/dev/null
        rm -f "$work/data/products.index.derived"
        /usr/bin/time -f "rebuild run $run  $binary: %e s wall, peak %M KB" \
            "$binary" search --data "$work/data" products samsung --hits-per-page 1 >/dev/null
    done
done
