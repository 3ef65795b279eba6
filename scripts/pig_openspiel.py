#!/usr/bin/env python3
"""Reference data for plateau's Pig from OpenSpiel's `pig` (pip install open-spiel): tests/data/pig_openspiel.json.

For a few (target, die) pairs (OpenSpiel's winscore, diceoutcomes): perft from the start (chance outcomes count as
plies; the last ply is bulk-counted; a game that ends earlier adds nothing, plateau's convention), and random games
with, at every step, the legal moves in plateau's notation (roll, hold, faces 1..die), the move played, and the
final returns. Usage: python3 scripts/pig_openspiel.py > tests/data/pig_openspiel.json
"""
import json
import random

import pyspiel

CONFIGS = [(10, 6, 8), (20, 4, 8), (100, 6, 8), (5, 3, 9)]
GAMES = 10


def perft(state, depth):
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
    if depth == 1:
        return len(actions)
    total = 0
    for a in actions:
        child = state.clone()
        child.apply_action(a)
        total += perft(child, depth - 1)
    return total


def word(state, action):
    """An OpenSpiel action in plateau's notation: roll / hold / the face."""
    text = state.action_to_string(state.current_player(), action)
    if text == "roll":
        return "roll"
    if text == "stop":
        return "hold"
    assert text.startswith("Roll "), text
    return text.split()[1]


def main():
    rng = random.Random(16)
    out = {"source": "OpenSpiel pig (pyspiel %s)" % getattr(pyspiel, "__version__", "?"), "configs": []}
    for target, die, depth in CONFIGS:
        game = pyspiel.load_game("pig", {"winscore": target, "diceoutcomes": die})
        start = game.new_initial_state()
        cfg = {
            "game": "pig(target=%d,die=%d)" % (target, die),
            "perft": [perft(start, d) for d in range(1, depth + 1)],
            "games": [],
        }
        for _ in range(GAMES):
            s = game.new_initial_state()
            steps = []
            while not s.is_terminal():
                acts = [a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()
                a = rng.choice(acts)
                steps.append({"legal": sorted(word(s, x) for x in acts), "move": word(s, a)})
                s.apply_action(a)
            cfg["games"].append({"steps": steps, "returns": s.returns()})
        out["configs"].append(cfg)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
