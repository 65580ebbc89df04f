#!/usr/bin/env python3
"""How soon `offline-search serve` answers a search of a large index whose derived index is lost.

Deletes the index's derived file (a cache of the search index; what an upgrade or a lost file
leaves), starts `serve` on the folder, and sends a search every 20 ms from the moment the server
listens: prints when the first answer came (and whether it was answered from the FTS5 table, as
its `message` says), then when the first answer of the search index came (the derivation done),
and the processing time of a few searches answered from the table meanwhile.

    python3 Benchmarks/fts-fallback/measure.py BIN DATA [INDEX] [RUNS]
"""
import json, os, socket, subprocess, sys, time, urllib.request

BIN, DATA = sys.argv[1], sys.argv[2]
INDEX = sys.argv[3] if len(sys.argv) > 3 else "products"
RUNS = int(sys.argv[4]) if len(sys.argv) > 4 else 2
QUERIES = ["sams", "samsung gal", "iphone", "lapt", "usb c cable", "head", "tv 55", "coffee"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def search(port, query):
    request = urllib.request.Request(f"http://127.0.0.1:{port}/1/indexes/{INDEX}/query",
                                     data=json.dumps({"query": query}).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as response:
        return json.load(response)


for run in range(RUNS):
    derived = os.path.join(DATA, INDEX + ".index.derived")
    if os.path.exists(derived):
        os.remove(derived)
    port = free_port()
    server = subprocess.Popen([BIN, "serve", "--data", DATA, "--port", str(port), "--no-dashboard"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    started = time.monotonic()
    try:
        while True:  # listening
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.01)
        listening = time.monotonic() - started
        first = None
        fallback_times = []
        while True:
            sent = time.monotonic()
            answer = search(port, QUERIES[len(fallback_times) % len(QUERIES)])
            now = time.monotonic() - started
            from_table = "message" in answer
            if first is None:
                first = (now, from_table, now - (sent - started))
            if not from_table:
                derived_at = now
                break
            fallback_times.append(answer.get("processingTimeMS", 0))
            time.sleep(0.02)
        print(json.dumps({"run": run + 1, "listening_s": round(listening, 2), "first_answer_s": round(first[0], 2),
                          "first_answer_from_fts5": first[1], "search_index_answers_s": round(derived_at, 2),
                          "fts5_answers": len(fallback_times),
                          "fts5_processing_ms_max": max(fallback_times) if fallback_times else None,
                          "fts5_processing_ms_median": sorted(fallback_times)[len(fallback_times) // 2] if fallback_times else None}))
    finally:
        server.terminate()
        server.wait()
