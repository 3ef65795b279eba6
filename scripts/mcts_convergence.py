#!/usr/bin/env python3
"""Convergence of plateau's mcts to solver-optimal moves, for docs/mcts.md.

  python3 scripts/mcts_convergence.py --plateau target/release/plateau --game tic_tac_toe --positions 40 \
      --playouts 10,30,100,300,1000,3000 [--algo "mcts(solver=false,seed=1)"]

Held positions: `--positions` random move lists of 2 to 5 plies (seeded, distinct, not over). For each, the exact value
of every move comes from `plateau solve GAME --analyze`; a move is optimal when its result (win, draw, loss) is the best one's. The
table gives, per playout count, the share of positions where mcts chose an optimal move.
"""
import argparse
import json
import random
import subprocess


def run(plateau, *args):
    return json.loads(subprocess.run([plateau, *args, "--json"], check=True, capture_output=True, text=True).stdout)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--plateau", default="target/release/plateau")
    p.add_argument("--game", default="tic_tac_toe")
    p.add_argument("--positions", type=int, default=40)
    p.add_argument("--playouts", default="10,30,100,300,1000,3000")
    p.add_argument("--algo", default="mcts(solver=false,seed=1)")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    rng = random.Random(a.seed)
    held, seen = [], set()
    while len(held) < a.positions:
        moves = []
        for _ in range(rng.randint(2, 5)):
            try:
                r = run(a.plateau, "solve", a.game, "--analyze", "--moves", " ".join(moves))
            except subprocess.CalledProcessError:
                break
            if not r.get("moves"):
                break
            moves.append(rng.choice(r["moves"])["move"])
        key = " ".join(moves)
        if key in seen or not moves:
            continue
        try:
            r = run(a.plateau, "solve", a.game, "--analyze", "--moves", key)
        except subprocess.CalledProcessError:
            continue
        if not r.get("moves"):
            continue
        seen.add(key)
        rank = {"win": 1, "draw": 0, "loss": -1}
        best = max(rank[m["result"]] for m in r["moves"])
        optimal = {m["move"] for m in r["moves"] if rank[m["result"]] == best}
        if len(optimal) < len(r["moves"]):  # positions where the choice matters
            held.append((key, optimal))
        else:
            seen.add(key)
    base = a.algo[:-1] + "," if a.algo.endswith(")") else a.algo + "("
    print("| playouts | optimal moves (of %d %s positions) |" % (len(held), a.game))
    print("|---:|---:|")
    for n in [int(x) for x in a.playouts.split(",")]:
        good = 0
        for key, optimal in held:
            r = run(a.plateau, "search", a.game, "--moves", key, "--algo", "%splayouts=%d)" % (base, n))
            good += r["best_move"] in optimal
        print("| %d | %d%% |" % (n, round(100 * good / len(held))))


if __name__ == "__main__":
    main()
