"""Fixtures of the dashboard's browser tests: `offline-search serve` on fresh data folders (through
the development proxy when DASHBOARD_VIA_PROXY=1), and headless Chromium with its console log."""
import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "Tests" / "Contract"))  # local_server.serve
sys.path.insert(0, str(HERE))  # dev_proxy

from local_server import BINARY, serve  # noqa: E402
import dev_proxy  # noqa: E402

VIA_PROXY = os.environ.get("DASHBOARD_VIA_PROXY") == "1"
CHROMIUM = os.environ.get("CHROMIUM_BIN", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER_BIN", "/usr/bin/chromedriver")
APP_ID, ADMIN_KEY, SEARCH_KEY = "LOCALAPP", "ADMIN", "SEARCH"


class Site:
    """A running server: `url` is where the dashboard is (the proxy's or the server's own)."""

    def __init__(self, url, api_url, app_id, key):
        self.url, self.api_url, self.app_id, self.key = url, api_url, app_id, key

    def request(self, method, path, body=None, key=None):
        """One API request (urllib); returns (status, parsed JSON)."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.api_url + path, data=data, method=method, headers={
            "X-Algolia-Application-Id": self.app_id, "X-Algolia-API-Key": key or self.key,
            "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")


# Searches counted into instant_search's analytics before the server starts.
SEARCH_LOG = [{"query": "tv", "count": 30}, {"query": "iphone", "count": 12}, {"query": "zzzqqq", "count": 3}]


def prepared_data_folder(folder):
    """instant_search and instant_search_copy imported with the CLI (3,000 records each), and a
    few searches counted (`analytics --replay`)."""
    for name in ("instant_search", "instant_search_copy"):
        subprocess.run([str(BINARY), "import", "--data", folder, name, str(REPO / "Datasets" / "instant_search.json"),
                        "--settings", str(REPO / "Datasets" / "instant_search.settings.json")],
                       check=True, stdout=subprocess.DEVNULL, cwd=REPO)
    log = Path(folder) / "searches.json"
    log.write_text(json.dumps(SEARCH_LOG))
    subprocess.run([str(BINARY), "analytics", "--data", folder, "instant_search", "--replay", str(log)],
                   check=True, stdout=subprocess.DEVNULL, cwd=REPO)
    log.unlink()


@contextmanager
def running_site(*arguments, app_id="LOCAL", key="dashboard", keys_required=False):
    with tempfile.TemporaryDirectory(prefix="dashboard-") as data:
        prepared_data_folder(data)
        with serve("--data", data, *arguments) as served:
            api_url = "http://127.0.0.1:%d" % served.port
            if VIA_PROXY:
                proxy = dev_proxy.start(served.port, app_id=app_id, keys_required=keys_required)
                try:
                    url = "http://127.0.0.1:%d" % proxy.server_address[1]
                    yield Site(url, url, app_id, key)
                finally:
                    proxy.shutdown()
                    proxy.server_close()
            else:
                yield Site(api_url, api_url, app_id, key)


@pytest.fixture(scope="module")
def site():
    """A server without keys."""
    with running_site() as running:
        yield running


@pytest.fixture(scope="module")
def keyed_site():
    """A server with an admin and a search key (and an application ID)."""
    with running_site("--app-id", APP_ID, "--admin-key", ADMIN_KEY, "--search-key", SEARCH_KEY,
                      app_id=APP_ID, key=ADMIN_KEY, keys_required=True) as running:
        yield running


@pytest.fixture
def expected_network_errors():
    """Patterns of the browser log's network entries a test provokes on purpose (an API answer of
    403 or 400 it asked for: Chromium logs each as SEVERE "Failed to load resource"). Nothing
    else may be logged."""
    return []


@pytest.fixture
def browser(expected_network_errors):
    """Headless Chromium at 1280×800. At the end, the console must hold no error or warning."""
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,800"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    options.binary_location = CHROMIUM
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    driver.console = []  # the log entries read so far (get_log drains it)
    try:
        yield driver
        driver.console += driver.get_log("browser")
        problems = [entry for entry in driver.console if entry["level"] in ("SEVERE", "WARNING") and not (
            entry.get("source") == "network"
            and any(re.search(pattern, entry["message"]) for pattern in expected_network_errors))]
        assert not problems, "console errors or warnings:\n" + "\n".join(map(str, problems))
    finally:
        driver.quit()


@pytest.fixture
def screenshot():
    """Saves a PNG of the page into $DASHBOARD_SCREENSHOTS when it names a folder."""
    folder = os.environ.get("DASHBOARD_SCREENSHOTS")

    def save(driver, name):
        if folder:
            Path(folder).mkdir(parents=True, exist_ok=True)
            driver.save_screenshot(str(Path(folder) / name))
    return save
