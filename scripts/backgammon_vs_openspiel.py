#!/usr/bin/env python3
"""plateau's backgammon players against OpenSpiel's MCTS bot (C++ pyspiel.MCTSBot, random rollouts): a short match.

    python3 scripts/backgammon_vs_openspiel.py --plateau target/release/plateau --player "engine(time=100ms)" \
        --simulations 100 --games 10 --seed 1

OpenSpiel holds the game (its rules, its dice). On plateau's turns the position goes to plateau in its own text
(`x=... o=... x31`, built from OpenSpiel's board and roll as in scripts/backgammon_openspiel.py):
`plateau search backgammon --position P --algo PLAYER --json` gives the decision; a double's second half is asked
from the position after the first (`--moves`); the board after plateau's whole turn is then matched with the
OpenSpiel action path that reaches it. Colours alternate (game i: plateau is X when i is even). Prints one JSON
line per game and a summary: plateau's wins, its score with the standard error, seconds per decision of each side.
Single games (no gammons), as plateau's default scoring. Needs pip's open-spiel; plateau's tests never run it.
"""
import argparse
import json
import math
import random
import subprocess
import sys
import time

import pyspiel

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from backgammon_openspiel import board_text, roll_of  # noqa: E402

UCT_C = 2.0


def plateau_decision(exe, player, position, moves):
    """plateau's next decision from `position` after `moves` (its notation), and the position after it."""
    cmd = [exe, "search", "backgammon", "--position", position, "--algo", player, "--json"]
    if moves:
        cmd += ["--moves", " ".join(moves)]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"plateau: {' '.join(cmd)}: {out.stderr.strip()}")
    return json.loads(out.stdout)["best_move"]


def position_after(exe, position, moves):
    """plateau's position text after `moves`, or None when they end the game."""
    cmd = [exe, "search", "backgammon", "--position", position, "--moves", " ".join(moves), "--algo", "random",
           "--json"]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        if "over" in out.stderr:
            return None
        raise RuntimeError(f"plateau: {' '.join(cmd)}: {out.stderr.strip()}")
    return json.loads(out.stdout)["position"]


def paths(state, player):
    """{board text after the turn: an action path reaching it} over every way of playing the turn."""
    found = {}

    def walk(s, path):
        for a in s.legal_actions():
            c = s.clone()
            c.apply_action(a)
            if not c.is_terminal() and not c.is_chance_node() and c.current_player() == player:
                walk(c, path + [a])
            else:
                found.setdefault("over" if c.is_terminal() else board_text(c), path + [a])

    walk(state, [])
    return found


def play_game(args, game, bot, plateau_side, rng):
    s = game.new_initial_state()
    roll = None
    times = {"plateau": [0.0, 0], "openspiel": [0.0, 0]}
    while not s.is_terminal():
        if s.is_chance_node():
            outcomes, probs = zip(*s.chance_outcomes())
            a = rng.choices(outcomes, probs)[0]
            _, hi, lo = roll_of(s, a)
            roll = (hi, lo)
            s.apply_action(a)
            continue
        player = s.current_player()
        t = time.time()
        if player == plateau_side:
            position = f"{board_text(s)} {'xo'[player]}{roll[0]}{roll[1]}"
            moves = []
            while True:
                moves.append(plateau_decision(args.plateau, args.player, position, moves))
                after = position_after(args.plateau, position, moves)
                if after is None or not after.split()[2].startswith("xo"[player]):
                    break
            target = "over" if after is None else " ".join(after.split()[:2])
            options = paths(s, player)
            if target not in options:
                raise RuntimeError(f"no OpenSpiel path reaches {target} from {position} ({moves})")
            for a in options[target]:
                s.apply_action(a)
            times["plateau"][0] += time.time() - t
            times["plateau"][1] += 1
        else:
            while not s.is_terminal() and not s.is_chance_node() and s.current_player() == player:
                s.apply_action(bot.step(s))
            times["openspiel"][0] += time.time() - t
            times["openspiel"][1] += 1
    returns = s.returns()
    return returns[plateau_side] > 0, times


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plateau", default="target/release/plateau")
    ap.add_argument("--player", default="engine(time=100ms)")
    ap.add_argument("--simulations", type=int, default=100)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    game = pyspiel.load_game("backgammon")
    evaluator = pyspiel.RandomRolloutEvaluator(1, args.seed)
    bot = pyspiel.MCTSBot(game, evaluator, UCT_C, args.simulations, 1000, False, args.seed, False)
    rng = random.Random(args.seed)
    wins, total = 0, {"plateau": [0.0, 0], "openspiel": [0.0, 0]}
    for i in range(args.games):
        side = i % 2
        won, times = play_game(args, game, bot, side, rng)
        wins += won
        for k in total:
            total[k][0] += times[k][0]
            total[k][1] += times[k][1]
        print(json.dumps({"game": i + 1, "plateau": "xo"[side], "plateau_won": won}), flush=True)
    score = wins / args.games
    err = math.sqrt(score * (1 - score) / args.games)
    per = {k: round(v[0] / max(v[1], 1), 4) for k, v in total.items()}
    print(json.dumps({"player": args.player, "simulations": args.simulations, "games": args.games, "plateau_wins": wins,
                      "score": round(score, 3), "stderr": round(err, 3), "seconds_per_turn": per}))


if __name__ == "__main__":
    main()
