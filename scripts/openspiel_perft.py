#!/usr/bin/env python3
"""perft with OpenSpiel (pip install open-spiel), for comparison with `plateau perft`.

Counts the positions exactly D plies ahead, bulk-counting the last ply (len(legal_actions())), a game that ends
earlier adds nothing: the same convention as plateau. Usage:
    python3 scripts/openspiel_perft.py breakthrough 6
    python3 scripts/openspiel_perft.py "breakthrough(rows=6,columns=5)" 5
Prints one JSON line: {"game", "depth", "nodes", "seconds", "nps"}.
"""
import json
import sys
import time

import pyspiel


def perft(state, depth):
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    actions = state.legal_actions()
    if depth == 1:
        return len(actions)
    total = 0
    for a in actions:
        child = state.clone()
        child.apply_action(a)
        total += perft(child, depth - 1)
    return total


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    game = pyspiel.load_game(sys.argv[1])
    depth = int(sys.argv[2])
    t0 = time.perf_counter()
    n = perft(game.new_initial_state(), depth)
    secs = time.perf_counter() - t0
    print(json.dumps({"game": sys.argv[1], "depth": depth, "nodes": n, "seconds": secs, "nps": n / secs}))


if __name__ == "__main__":
    main()
