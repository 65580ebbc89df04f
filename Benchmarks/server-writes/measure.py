#!/usr/bin/env python3
"""Writes through `offline-search serve` from several clients at once, each to an index of its own.

Starts `serve` on a fresh folder, then THREADS clients each save SAVES records one at a time
(`PUT /1/indexes/{client's index}/{objectID}`), and prints the wall time, the writes per second
and the p50/p99 latency of one save. With BULK, one more client sends batches of BULK records to
an index of its own the whole time (a large write beside the small ones).

    python3 Benchmarks/server-writes/measure.py BIN [THREADS] [SAVES] [BULK]
"""
import json, shutil, socket, subprocess, sys, tempfile, threading, time, urllib.request

BIN = sys.argv[1]
THREADS = int(sys.argv[2]) if len(sys.argv) > 2 else 4
SAVES = int(sys.argv[3]) if len(sys.argv) > 3 else 300
BULK = int(sys.argv[4]) if len(sys.argv) > 4 else 0

with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
folder = tempfile.mkdtemp()
server = subprocess.Popen([BIN, "serve", "--data", folder, "--port", str(port), "--no-dashboard"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def put(index, object_id):
    body = json.dumps({"name": f"record {object_id}", "brand": "Acme", "price": 10}).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}/1/indexes/{index}/{object_id}", data=body, method="PUT",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        response.read()


try:
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.01)
    for client in range(THREADS):
        put(f"writes-{client}", "warm")
    latencies = []
    lock = threading.Lock()

    def client(number):
        mine = []
        for i in range(SAVES):
            started = time.monotonic()
            put(f"writes-{number}", f"r{i}")
            mine.append(time.monotonic() - started)
        with lock:
            latencies.extend(mine)

    done = threading.Event()
    batches = [0]

    def bulk():
        records = [{"action": "updateObject", "body": {"objectID": f"b{i}", "name": f"bulk record {i}", "brand": "Zeta"}} for i in range(BULK)]
        body = json.dumps({"requests": records}).encode()
        while not done.is_set():
            request = urllib.request.Request(f"http://127.0.0.1:{port}/1/indexes/bulk/batch", data=body, method="POST",
                                             headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=120) as response:
                response.read()
            batches[0] += 1

    bulk_thread = threading.Thread(target=bulk) if BULK else None
    if bulk_thread:
        bulk_thread.start()
        time.sleep(0.5)
    started = time.monotonic()
    threads = [threading.Thread(target=client, args=(n,)) for n in range(THREADS)]
    for t in threads: t.start()
    for t in threads: t.join()
    elapsed = time.monotonic() - started
    done.set()
    if bulk_thread:
        bulk_thread.join()
    latencies.sort()
    print(json.dumps({"clients": THREADS, "saves": THREADS * SAVES, "seconds": round(elapsed, 2),
                      "saves_per_s": round(THREADS * SAVES / elapsed), "p50_ms": round(latencies[len(latencies) // 2] * 1000, 2),
                      "p99_ms": round(latencies[int(len(latencies) * 0.99)] * 1000, 2),
                      "bulk_batches": batches[0] if BULK else None}))
finally:
    server.terminate()
    server.wait()
    shutil.rmtree(folder, ignore_errors=True)
