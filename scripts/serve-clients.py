#!/usr/bin/env python3
"""The polite clients of scripts/serve-load.sh: CLIENTS threads for
SECONDS, each asking GET /api/rank or /api/analyze on a random history of
HISTORIES (lines "GAME MOVE,MOVE,..."), waiting the second a 503's
Retry-After asks. One line a request on stdout:
"STATUS SECONDS search;dur=MS ENDPOINT GAME HISTORY" (the server's own
Server-Timing header, "-" when none). Threads in one process rather than
a curl process a request: 200 clients of curl took most of the two cores
the server was measured on.

Usage: serve-clients.py ADDR HISTORIES CLIENTS SECONDS SEED
"""
import http.client
import random
import sys
import threading
import time
import urllib.parse


def client(host, port, histories, end, rng, out, lock):
    while time.monotonic() < end:
        game, history = rng.choice(histories)
        endpoint = rng.choice(["rank", "analyze"])
        query = urllib.parse.urlencode({"game": game, "history": history})
        start = time.monotonic()
        status, timing = "error", "-"
        try:
            conn = http.client.HTTPConnection(host, port, timeout=60)
            conn.request("GET", f"/api/{endpoint}?{query}")
            answer = conn.getresponse()
            answer.read()
            status = str(answer.status)
            timing = answer.getheader("Server-Timing", "-").replace(" ", "")
            conn.close()
        except OSError as e:
            status = f"error-{type(e).__name__}"
        took = time.monotonic() - start
        with lock:
            out.append(f"{status} {took:.6f} {timing} {endpoint} {game} {history}")
        if status == "503":
            time.sleep(1)


def main():
    addr, path, clients, seconds, seed = sys.argv[1:6]
    host, port = addr.removeprefix("http://").rsplit(":", 1)
    histories = []
    with open(path) as f:
        for line in f:
            game, _, history = line.strip().partition(" ")
            histories.append((game, history))
    end = time.monotonic() + float(seconds)
    out, lock = [], threading.Lock()
    threads = [
        threading.Thread(
            target=client,
            args=(host, int(port), histories, end, random.Random(int(seed) + i), out, lock),
        )
        for i in range(int(clients))
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print("\n".join(out))


if __name__ == "__main__":
    main()
