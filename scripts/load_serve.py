#!/usr/bin/env python3
"""Load test of `plateau serve`: N concurrent games driven over HTTP for a while, reporting errors and the server's
memory (RSS) over time.

Each worker loops: create a game (`--game`, Breakthrough 5x5 by default; a human against a fast engine), play random legal human moves
(after `--think` seconds, a student's pause) and let the engine answer through the streamed think endpoint until the
game ends, download the record, delete the game. Any HTTP status other than the expected ones, any malformed answer or
exception counts as an error. Reported: each engine move's latency (from the think request to its move: the wait for a
free core and the search), its nodes (the last iteration's), and how many moves waited their turn.

    ./target/release/plateau serve --port 8080 &
    python3 scripts/load_serve.py --url http://127.0.0.1:8080 --games 50 --minutes 5 --pid $!
    python3 scripts/load_serve.py --games 30 --engine "engine(time=100ms)" --think 1 --minutes 2   # a class

Standard library only (threads and http.client)."""

import argparse
import http.client
import json
import random
import threading
import time
import urllib.parse


def rss_mib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


class Client:
    def __init__(self, url):
        u = urllib.parse.urlparse(url)
        self.host, self.port = u.hostname, u.port or 80

    def call(self, method, path, body=None, expect=(200,)):
        conn = http.client.HTTPConnection(self.host, self.port, timeout=120)
        try:
            headers = {"content-type": "application/json"} if body is not None else {}
            conn.request(method, path, json.dumps(body) if body is not None else None, headers)
            res = conn.getresponse()
            data = res.read().decode()
            if res.status not in expect:
                raise RuntimeError(f"{method} {path}: {res.status} {data[:200]}")
            return data
        finally:
            conn.close()

    def state_after_think(self, gid, moves=None):
        t0 = time.time()
        text = self.call("GET", f"/api/games/{gid}/think")
        nodes, queued = 0, False
        for block in text.split("\n\n"):
            lines = block.strip().split("\n")
            if lines and lines[0] == "event: info":
                nodes = json.loads(lines[1][len("data: "):]).get("nodes", nodes)
            if lines and lines[0] == "event: queued":
                queued = True
            if lines and lines[0] == "event: done":
                if moves is not None:
                    moves.append((time.time() - t0, nodes, queued))
                return json.loads(lines[1][len("data: "):])
            if lines and lines[0] == "event: error":
                raise RuntimeError("think error: " + lines[1])
        raise RuntimeError("think: no done event")


def worker(url, deadline, stats, lock, seed, engine, think, game):
    rng = random.Random(seed)
    c = Client(url)
    while time.time() < deadline:
        try:
            st = json.loads(c.call("POST", "/api/games", {
                "game": game, "players": ["human", engine]}))
            gid = st["id"]
            plies = 0
            while st["result"] is None and time.time() < deadline + 60:
                if st["human_to_move"]:
                    time.sleep(rng.uniform(0.5, 1.5) * think)
                    mv = rng.choice(st["legal"])["move"]
                    st = json.loads(c.call("POST", f"/api/games/{gid}/move", {"move": mv}))
                else:
                    st = c.state_after_think(gid, stats["moves"])
                plies += 1
                # Now and then a bad request, which must be a clean 4xx.
                if rng.random() < 0.05:
                    c.call("POST", f"/api/games/{gid}/move", {"move": "z9z9"}, expect=(400, 409))
            rec = c.call("GET", f"/api/games/{gid}/record")
            if "[Game \"" not in rec:
                raise RuntimeError("record without its game tag")
            c.call("DELETE", f"/api/games/{gid}")
            with lock:
                stats["games"] += 1 if st["result"] is not None else 0
                stats["plies"] += plies
        except Exception as e:  # noqa: BLE001 - every failure is counted and shown
            with lock:
                stats["errors"] += 1
                if len(stats["examples"]) < 5:
                    stats["examples"].append(str(e)[:300])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--url", default="http://127.0.0.1:8080")
    ap.add_argument("--games", type=int, default=50, help="concurrent games")
    ap.add_argument("--minutes", type=float, default=1.0)
    ap.add_argument("--pid", type=int, help="the server's process id, to read its RSS")
    ap.add_argument("--engine", default="engine(time=20ms)")
    ap.add_argument("--game", default="breakthrough(rows=5,columns=5)")
    ap.add_argument("--think", type=float, default=0.0, help="the human's mean pause before each move, seconds")
    a = ap.parse_args()
    deadline = time.time() + a.minutes * 60
    stats = {"games": 0, "plies": 0, "errors": 0, "examples": [], "moves": []}
    lock = threading.Lock()
    threads = [threading.Thread(target=worker, args=(a.url, deadline, stats, lock, k, a.engine, a.think, a.game), daemon=True)
               for k in range(a.games)]
    t0 = time.time()
    for t in threads:
        t.start()
    peak = 0.0
    samples = []
    while any(t.is_alive() for t in threads):
        time.sleep(5)
        r = rss_mib(a.pid) if a.pid else None
        if r is not None:
            peak = max(peak, r)
            samples.append(r)
        with lock:
            print(f"{time.time() - t0:6.0f}s games {stats['games']} plies {stats['plies']} errors {stats['errors']}"
                  + (f" rss {r:.1f} MiB" if r is not None else ""), flush=True)
    moves = stats["moves"]
    lat = sorted(m[0] for m in moves)
    nodes = sorted(m[1] for m in moves)

    def pct(xs, q):
        return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else None

    print(json.dumps({
        "engine_moves": len(moves), "waited_their_turn": sum(1 for m in moves if m[2]),
        "latency_ms_p50": round(1000 * pct(lat, 0.5)) if lat else None,
        "latency_ms_p95": round(1000 * pct(lat, 0.95)) if lat else None,
        "latency_ms_max": round(1000 * lat[-1]) if lat else None,
        "nodes_p50": pct(nodes, 0.5), "nodes_p5": pct(nodes, 0.05),
        "concurrent": a.games, "minutes": a.minutes, "games_finished": stats["games"], "plies": stats["plies"],
        "errors": stats["errors"], "error_examples": stats["examples"],
        "rss_first_mib": round(samples[0], 1) if samples else None,
        "rss_last_mib": round(samples[-1], 1) if samples else None, "rss_peak_mib": round(peak, 1) if samples else None,
    }, indent=1))


if __name__ == "__main__":
    main()
