#!/usr/bin/env python3
"""Reference data for plateau's Oware, generated with OpenSpiel's `oware` (an independent implementation).

Writes tests/data/oware_openspiel.json:
- perft: node counts from the start of several board sizes (OpenSpiel parameters num_houses_per_player and
  num_seeds_per_house, plateau's `houses` and `seeds`);
- games: random games played to the end. Each has its move list (OpenSpiel's notation, A-F / a-f, as plateau's), the
  legal moves and the stores at every ply, the final stores, and perft(3) at a few plies.

Usage: python3 scripts/openspiel_oware.py > tests/data/oware_openspiel.json   (deterministic: fixed seeds)
"""
import json
import random

import pyspiel


def perft(state, depth):
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    total = 0
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        total += perft(child, depth - 1)
    return total


def stores(state):
    # observation string: "player | score0 score1 | seeds..."
    parts = state.observation_string(0).split("|")
    return [int(x) for x in parts[1].split()]


def game_string(houses, seeds):
    return f"oware(num_houses_per_player={houses},num_seeds_per_house={seeds})"


def plateau_string(houses, seeds):
    params = []
    if houses != 6:
        params.append(f"houses={houses}")
    if seeds != 4:
        params.append(f"seeds={seeds}")
    return "oware" + (f"({','.join(params)})" if params else "")


def random_game(game, rng, perft_plies):
    state = game.new_initial_state()
    moves, legal, store_list, perfts = [], [], [], {}
    ply = 0
    while not state.is_terminal():
        player = state.current_player()
        acts = state.legal_actions()
        legal.append([state.action_to_string(player, a) for a in acts])
        store_list.append(stores(state))
        if ply in perft_plies:
            perfts[str(ply)] = perft(state, 3)
        a = rng.choice(acts)
        moves.append(state.action_to_string(player, a))
        state.apply_action(a)
        ply += 1
    return {
        "moves": " ".join(moves),
        "legal": legal,
        "stores": store_list,
        "final_stores": stores(state),
        "returns": state.returns(),
        "perft3": perfts,
    }


def main():
    out = {"source": "OpenSpiel " + getattr(pyspiel, "__version__", "?") + " oware, scripts/openspiel_oware.py",
           "perft": [], "games": []}
    for houses, seeds, depth in [(6, 4, 8), (3, 2, 12), (3, 3, 10), (2, 2, 14), (4, 3, 9), (1, 1, 6)]:
        game = pyspiel.load_game(game_string(houses, seeds))
        counts = [perft(game.new_initial_state(), d) for d in range(depth + 1)]
        out["perft"].append({"game": plateau_string(houses, seeds), "counts": counts})
    rng = random.Random(17)
    for houses, seeds, n in [(6, 4, 60), (3, 2, 40), (3, 3, 40), (2, 2, 30), (4, 3, 30)]:
        game = pyspiel.load_game(game_string(houses, seeds))
        for _ in range(n):
            g = random_game(game, rng, perft_plies={5, 20, 40})
            g["game"] = plateau_string(houses, seeds)
            out["games"].append(g)
    print(json.dumps(out, separators=(",", ":")))


if __name__ == "__main__":
    main()
