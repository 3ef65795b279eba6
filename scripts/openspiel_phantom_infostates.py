#!/usr/bin/env python3
"""Information states of phantom tic-tac-toe per player, counted with OpenSpiel (an independent implementation).

For every depth d = 0..MAX_DEPTH: the number of distinct information states of each player over the non-terminal
positions where that player is to move, reached by histories of at most d actions. OpenSpiel's information state
string for a player (phantom_ttt, obstype reveal-nothing) is the board that player sees plus the sequence of its own
actions, so it holds the player's whole observation history.

Usage: python3 scripts/openspiel_phantom_infostates.py [MAX_DEPTH] > tests/data/phantom_infostates.json
(the committed file has MAX_DEPTH 7; the whole game, 17 plies, is far beyond a Python tree walk).
"""
import json
import sys

import pyspiel

max_depth = int(sys.argv[1]) if len(sys.argv) > 1 else 7
game = pyspiel.load_game("phantom_ttt")
seen = [[set() for _ in range(max_depth + 1)] for _ in range(2)]


def walk(state, depth):
    if state.is_terminal():
        return
    p = state.current_player()
    seen[p][depth].add(state.information_state_string(p))
    if depth == max_depth:
        return
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        walk(child, depth + 1)


walk(game.new_initial_state(), 0)
rows = []
for d in range(max_depth + 1):
    counts = [len(set().union(*seen[p][: d + 1])) for p in range(2)]
    rows.append({"max_plies": d, "first": counts[0], "second": counts[1]})
json.dump(
    {
        "game": "phantom_ttt (OpenSpiel, obstype reveal-nothing)",
        "what": "distinct information states of each player at its decision points, histories of at most max_plies actions",
        "counts": rows,
    },
    sys.stdout,
    indent=1,
)
print()
