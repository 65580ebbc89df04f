"""`offline-search serve` started from the built binary on a free port, for the contract tests."""
import os
import re
import subprocess
import threading
import time
from contextlib import contextmanager
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BINARY = Path(os.environ.get("OFFLINE_SEARCH_BIN", REPO / ".build" / "debug" / "offline-search"))


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
