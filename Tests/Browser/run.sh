#!/usr/bin/env bash
# Browser tests of the dashboard (pytest + Selenium, headless Chromium and chromedriver from
# Debian). Uses the built CLI, $OFFLINE_SEARCH_BIN (default .build/debug/offline-search): build it
# first (`swift build --product offline-search`). DASHBOARD_VIA_PROXY=1 serves the dashboard's
# files from Tests/Browser/dev_proxy.py instead of the server's own routes;
# DASHBOARD_SCREENSHOTS=DIR saves screenshots there; VENV names another virtualenv than .venv.
set -euo pipefail
cd "$(dirname "$0")/../.."
VENV="${VENV:-.venv}"
if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
    echo "Tests/Browser: chromium and chromedriver are missing: apt-get install -y chromium chromium-driver" >&2
    exit 1
fi
# local_server.py (Tests/Contract) imports the official client: the same pin as Tests/Contract/run.sh.
if [ ! -x "$VENV/bin/pytest" ] || ! "$VENV/bin/python" -c "import selenium, algoliasearch" 2>/dev/null; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "selenium>=4.20,<5" "algoliasearch==4.48.0" "pytest>=8"
fi
OFFLINE_SEARCH_BIN="$(realpath "${OFFLINE_SEARCH_BIN:-.build/debug/offline-search}")"
if [ ! -x "$OFFLINE_SEARCH_BIN" ]; then
    echo "Tests/Browser: $OFFLINE_SEARCH_BIN is not built (swift build --product offline-search)" >&2
    exit 1
fi
export OFFLINE_SEARCH_BIN
# Selenium Manager must not look for drivers online: the Debian chromedriver is named explicitly.
export SE_OFFLINE=true
"$VENV/bin/pytest" -q Tests/Browser "$@"
