"""`offline-search serve` started from the built binary on a free port, for the contract tests."""
import os
import re
import subprocess
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from algoliasearch.http.hosts import Host, HostsCollection
from algoliasearch.search.client import SearchClientSync
from algoliasearch.search.config import SearchConfig

REPO = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("OFFLINE_SEARCH_BIN", REPO / ".build" / "debug" / "offline-search"))
# The application ID and keys `keyed_server` starts the server with.
APP_ID, ADMIN_KEY, SEARCH_KEY = "LOCALAPP", "admin-secret", "search-secret"


class Served:
    """A running server: its port, and its request log (stderr) as read so far."""

    def __init__(self, process, port, log):
        self.process, self.port, self.log = process, port, log


@contextmanager
def serve(*arguments, env=None):
    """Starts `offline-search serve --port 0 ARGUMENTS`, waits for the port it took (60 s at most),
    keeps draining its log so the pipe never fills, and stops it (SIGTERM) at the end."""
    process = subprocess.Popen([str(BINARY), "serve", "--port", "0", *arguments],
                               stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env)
    port, log, deadline = None, [], time.time() + 60
    while port is None and time.time() < deadline:
        line = process.stderr.readline()
        if not line:
            break
        log.append(line)
        found = re.search(r"http://127\.0\.0\.1:(\d+)", line)
        if found:
            port = int(found.group(1))
    if port is None:
        process.kill()
        raise AssertionError("the server did not start: " + "".join(log))
    threading.Thread(target=lambda: [log.append(l) for l in process.stderr], daemon=True).start()
    try:
        yield Served(process, port, log)
    finally:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=30)


def client_for(port, api_key):
    """The official client with one custom host: the local server, over plain http."""
    config = SearchConfig(APP_ID, api_key)
    config.hosts = HostsCollection([Host("127.0.0.1", scheme="http", port=port)])
    return SearchClientSync.create_with_config(config=config)


@contextmanager
def keyed_server(logged):
    """`serve` on a fresh data folder with APP_ID and the two keys; yields its port. At the end it
    must stop cleanly on SIGTERM, and its log must hold a line matching `logged` (one line per
    request)."""
    with tempfile.TemporaryDirectory() as data:
        with serve("--data", data, "--app-id", APP_ID, "--admin-key", ADMIN_KEY, "--search-key", SEARCH_KEY) as served:
            yield served.port
            served.process.terminate()
            assert served.process.wait(timeout=30) == 0
        assert any(re.search(logged, line) for line in served.log), "one log line per request"
