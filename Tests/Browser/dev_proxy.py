"""A development stand-in for the dashboard routes of `offline-search serve` (Python stdlib only).

It serves what the server will serve for the dashboard:
  /, /dashboard, /dashboard/...      index.html
  /dashboard/assets/NAME             the files of Sources/OfflineSearchServer/Dashboard/site/
  /dashboard/config.json             {"appID", "keysRequired", "version"}
with the dashboard's Content-Security-Policy, and forwards everything else (/1/..., /2/...: method,
headers, body) to an `offline-search serve` already running on another port.

    python3 Tests/Browser/dev_proxy.py --upstream 8108 [--port 8109] [--app-id LOCAL] [--keys-required]

The tests start it in-process with `start(...)` when DASHBOARD_VIA_PROXY=1.
"""
import argparse
import http.client
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

SITE = Path(__file__).resolve().parents[2] / "Sources" / "OfflineSearchServer" / "Dashboard" / "site"
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".js": "text/javascript; charset=utf-8", ".json": "application/json; charset=utf-8",
         ".svg": "image/svg+xml", ".png": "image/png"}
# Hop-by-hop headers are not forwarded, in either direction.
HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade",
       "proxy-authorization", "proxy-authenticate", "host", "content-length"}


def make_handler(upstream_port, config):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):  # quiet: the upstream server logs each request
            pass

        def send_body(self, status, body, content_type, extra=None):
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Content-Security-Policy", CSP)
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("Cache-Control", "no-cache")
            for name, value in (extra or {}).items():
                self.send_header(name, value)
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def dashboard(self):
            """The dashboard's own paths; False when the path is the API's."""
            path = self.path.split("?", 1)[0].split("#", 1)[0]
            if self.command not in ("GET", "HEAD"):
                return False
            if path == "/dashboard/config.json":
                self.send_body(200, json.dumps(config).encode(), TYPES[".json"])
            elif path.startswith("/dashboard/assets/"):
                name = path[len("/dashboard/assets/"):]
                file = SITE / name
                # Only a plain file name of the site folder: no folders, no `..`.
                if "/" in name or name.startswith(".") or not file.is_file():
                    self.send_body(404, b'{"message":"Not found","status":404}', TYPES[".json"])
                else:
                    self.send_body(200, file.read_bytes(), TYPES.get(file.suffix, "application/octet-stream"))
            elif path in ("/", "/dashboard") or path.startswith("/dashboard/"):
                self.send_body(200, (SITE / "index.html").read_bytes(), TYPES[".html"])
            else:
                return False
            return True

        def proxy(self):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP}
            connection = http.client.HTTPConnection("127.0.0.1", upstream_port, timeout=120)
            try:
                connection.request(self.command, self.path, body=body, headers=headers)
                answer = connection.getresponse()
                data = answer.read()
                self.send_response(answer.status, answer.reason)
                for name, value in answer.getheaders():
                    if name.lower() not in HOP:
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(data)
            except OSError as error:
                message = json.dumps({"message": "proxy: %s" % error, "status": 502}).encode()
                self.send_body(502, message, TYPES[".json"])
            finally:
                connection.close()

        def handle_any(self):
            if not self.dashboard():
                self.proxy()

        do_GET = do_HEAD = do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = handle_any

    return Handler


def start(upstream_port, app_id="LOCAL", keys_required=False, port=0, version="0.7.0"):
    """Starts the proxy on 127.0.0.1 in a daemon thread; returns the server (`server_address[1]`
    is its port; `shutdown()` stops it)."""
    config = {"appID": app_id, "keysRequired": keys_required, "version": version}
    server = ThreadingHTTPServer(("127.0.0.1", port), make_handler(upstream_port, config))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--upstream", type=int, required=True, help="the port of offline-search serve")
    parser.add_argument("--port", type=int, default=8109)
    parser.add_argument("--app-id", default="LOCAL")
    parser.add_argument("--keys-required", action="store_true")
    options = parser.parse_args()
    server = start(options.upstream, options.app_id, options.keys_required, options.port)
    print("Dashboard on http://127.0.0.1:%d/dashboard (API of 127.0.0.1:%d)" % (server.server_address[1], options.upstream))
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.shutdown()
