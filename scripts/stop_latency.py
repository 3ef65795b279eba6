#!/usr/bin/env python3
"""Measure how fast a UCI engine answers `stop`: `go infinite`, wait, `stop`, time until `bestmove`.

    python3 scripts/stop_latency.py [--runs 20] [--wait 0.2] -- plateau uci --player engine

Prints the median, 90th and 99th percentiles, the maximum and how many answers took over 10 ms. The time includes
this script's own scheduling (it is measured from just before `stop` is written to just after `bestmove` is read).
"""

import argparse
import subprocess
import sys
import time


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=20)
    p.add_argument("--wait", type=float, default=0.2, help="seconds of search before stop")
    p.add_argument("cmd", nargs=argparse.REMAINDER)
    a = p.parse_args()
    cmd = [c for c in a.cmd if c != "--"]
    e = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        e.stdin.write(line + "\n")
        e.stdin.flush()

    def until(prefix):
        while True:
            line = e.stdout.readline()
            if not line:
                sys.exit("engine closed its output")
            if line.startswith(prefix):
                return line

    send("uci")
    until("uciok")
    send("isready")
    until("readyok")
    lat = []
    for i in range(a.runs):
        send("position startpos" + (" moves a2a3 h7h6" if i % 2 else ""))
        send("go infinite")
        time.sleep(a.wait)
        t = time.perf_counter()
        send("stop")
        until("bestmove")
        lat.append((time.perf_counter() - t) * 1000)
    send("quit")
    e.wait()
    lat.sort()
    n = len(lat)

    def pct(q):
        return lat[min(n - 1, int(q * n))]

    print(
        "stop -> bestmove over %d runs: median %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms, over 10 ms: %d"
        % (n, pct(0.5), pct(0.9), pct(0.99), lat[-1], sum(x > 10 for x in lat))
    )


if __name__ == "__main__":
    main()
