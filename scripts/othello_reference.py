#!/usr/bin/env python3
"""Reference data for plateau's Othello from OpenSpiel's `othello` (an independent implementation).

Plays seeded random games with OpenSpiel and records positions along them: the moves from the start (OpenSpiel's
action names: `d3`, `pass`), the position in plateau's text (rows from row 1 down, x black, o white, . empty, then the
side to move), the sorted legal moves, perft to a small depth counted with OpenSpiel's rules (a finished game adds
nothing; a pass is a move), and at the end of each game the result for black. Writes
tests/data/othello/openspiel.json. Usage: python3 scripts/othello_reference.py [games] [seed]
"""

import json
import random
import sys

import pyspiel


def position_text(state):
    lines = str(state).splitlines()
    rows = []
    for line in lines:
        parts = line.split()
        if parts and parts[0].isdigit() and len(parts) == 10:
            rows.append("".join({"x": "x", "o": "o", "-": "."}[c] for c in parts[1:9]))
    assert len(rows) == 8, lines
    side = "x" if state.current_player() == 0 else "o"
    return "/".join(rows) + " " + side


def perft(state, depth):
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    if depth == 1:
        return len(state.legal_actions())
    total = 0
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        total += perft(child, depth - 1)
    return total


def main():
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 12
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 17
    rng = random.Random(seed)
    game = pyspiel.load_game("othello")
    positions, finals = [], []
    for _ in range(games):
        state = game.new_initial_state()
        moves = []
        record_at = set(rng.sample(range(0, 58), 4))
        while not state.is_terminal():
            if len(moves) in record_at:
                depth = 4 if len(moves) < 40 else 5
                positions.append({
                    "moves": " ".join(moves),
                    "position": position_text(state),
                    "legal": sorted(state.action_to_string(a) for a in state.legal_actions()),
                    "perft": {str(d): perft(state, d) for d in range(1, depth + 1)},
                })
            a = rng.choice(state.legal_actions())
            moves.append(state.action_to_string(a))
            state.apply_action(a)
        finals.append({"moves": " ".join(moves), "black_return": state.returns()[0]})
    doc = {
        "source": f"OpenSpiel {getattr(pyspiel, '__version__', '?')} game 'othello', scripts/othello_reference.py "
                  f"{games} {seed}",
        "positions": positions,
        "games": finals,
    }
    with open("tests/data/othello/openspiel.json", "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(f"{len(positions)} positions, {len(finals)} games")


if __name__ == "__main__":
    main()
