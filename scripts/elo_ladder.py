#!/usr/bin/env python3
"""The Elo at which a player scores 50% against a ladder of rated opponents (e.g. Stockfish's `UCI_Elo` levels).

    python3 scripts/elo_ladder.py 1500:13:7:0 1650:12:6:2 1800:2:18:0 2000:0:20:0

Each argument is LEVEL:WINS:LOSSES:DRAWS (the player's). Fits the one-parameter logistic model
score(L) = 1 / (1 + 10^((L - E) / 400)) by maximum likelihood over every game (a draw counts half a win) and prints E
with its 95% interval by the likelihood ratio (the levels where the log-likelihood is within 1.92 of its maximum).
"""

import math
import sys


def parse(arg):
    try:
        level, w, l, d = (float(x) for x in arg.split(":"))
    except ValueError:
        sys.exit(f"elo_ladder: '{arg}': expected LEVEL:WINS:LOSSES:DRAWS")
    return level, w, l, d


def log_likelihood(e, data):
    total = 0.0
    for level, w, l, d in data:
        p = 1 / (1 + 10 ** ((level - e) / 400))
        s, n = w + 0.5 * d, w + l + d
        total += s * math.log(p) + (n - s) * math.log(1 - p)
    return total


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    data = [parse(a) for a in sys.argv[1:]]
    lo, hi = min(d[0] for d in data) - 800, max(d[0] for d in data) + 800
    grid = [lo + i * 0.5 for i in range(int((hi - lo) * 2) + 1)]
    ll = [log_likelihood(e, data) for e in grid]
    best = max(range(len(grid)), key=lambda i: ll[i])
    inside = [grid[i] for i in range(len(grid)) if ll[i] > ll[best] - 1.92]
    games = int(sum(w + l + d for _, w, l, d in data))
    print(f"50% level {grid[best]:.0f} (95% interval {inside[0]:.0f} .. {inside[-1]:.0f}) over {games} games")


if __name__ == "__main__":
    main()
