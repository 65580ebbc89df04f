#!/usr/bin/env bash
# Contract tests against the official Algolia Python client's models (algoliasearch from PyPI).
# Creates .venv on first use, builds the CLI, runs pytest.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -x .venv/bin/pytest ] || ! .venv/bin/python -c "import algoliasearch" 2>/dev/null; then
    python3 -m venv .venv
    .venv/bin/pip install --quiet --disable-pip-version-check "algoliasearch==4.48.0" "pytest>=8"
fi
swift build --product offline-search
OFFLINE_SEARCH_BIN="$(swift build --show-bin-path)/offline-search" .venv/bin/pytest -q Tests/Contract "$@"
