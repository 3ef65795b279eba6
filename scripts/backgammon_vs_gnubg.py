"""plateau's backgammon player against GNU Backgammon at a fixed level: a match, run inside gnubg's Python.

    PLATEAU=target/release/plateau PLAYER="engine(time=100ms)" GAMES=100 SEED=1 PLIES=0 NOISE=0.0 \
        gnubg -t -q -p scripts/backgammon_vs_gnubg.py

(`gnubg` is Debian's package, in /usr/games; `-p` runs this file with gnubg's own `gnubg` module, so the settings come
from the environment.) plateau holds the game: its position text, its rules, its end; this script rolls the dice
(Python's `random`, seeded; the opening roll is a non-double, either side starting). On plateau's turns
`plateau search backgammon --position P --algo PLAYER --json` gives the decision (a double's second half is asked from
the position after the first). On gnubg's turns the position goes to gnubg as a board (`set board <position id>`,
`set dice`), and `gnubg.findbestmove(board, cubeinfo, evalcontext)` gives its whole move at the fixed level
(`PLIES` lookahead plies of its neural network, `NOISE` its noise; 0 plies and no noise is gnubg's "advanced"
level, noise 0.06 its "beginner"); the move, written `from/to ...`, is played in plateau's notation. Single games
(no gammons, no cube), colours alternate. Prints one JSON line per game and a summary: plateau's wins, its score with
the standard error, seconds per turn of each side.
"""
import json
import math
import os
import random
import subprocess
import sys
import time

import gnubg

EXE = os.environ.get("PLATEAU", "target/release/plateau")
PLAYER = os.environ.get("PLAYER", "engine(time=100ms)")
GAMES = int(os.environ.get("GAMES", "10"))
SEED = int(os.environ.get("SEED", "1"))
PLIES = int(os.environ.get("PLIES", "0"))
NOISE = float(os.environ.get("NOISE", "0.0"))
START = "x=24:2,13:5,8:3,6:5 o=24:2,13:5,8:3,6:5"


def plateau(args):
    out = subprocess.run([EXE, "search", "backgammon"] + args + ["--json"], capture_output=True, text=True)
    return out.returncode, out.stdout, out.stderr.strip()


def decision(position):
    """plateau's decision at `position` (a decision of the side to move)."""
    rc, out, err = plateau(["--position", position, "--algo", PLAYER])
    if rc != 0:
        raise RuntimeError(f"plateau at {position}: {err}")
    return json.loads(out)["best_move"]


def after(position, move):
    """plateau's position after `move` (its notation, a double's two halves may follow each other), None at the end."""
    rc, out, err = plateau(["--position", position, "--moves", move, "--algo", "random"])
    if rc != 0:
        if "over" in err:
            return None
        raise RuntimeError(f"plateau: {move} at {position}: {err}")
    return json.loads(out)["position"]


def side_counts(text):
    """gnubg's 25 counters of one side (index i = point i + 1 in its own numbering, 24 = the bar)."""
    counts = [0] * 25
    if text != "-":
        for item in text.split(","):
            point, n = item.split(":")
            counts[24 if point == "bar" else int(point) - 1] = int(n)
    return counts


def gnubg_move(position, mover, dice):
    """gnubg's whole move for `mover` ('x' or 'o') with `dice`, written `from/to ...` (`pass` when none)."""
    sides = {w[0]: w[2:] for w in position.split()[:2]}
    board = (tuple(side_counts(sides["o" if mover == "x" else "x"])), tuple(side_counts(sides[mover])))
    gnubg.command("set board " + gnubg.positionid(board))
    gnubg.command(f"set dice {dice[0]} {dice[1]}")
    context = gnubg.evalcontext(0, PLIES, 0, 1, NOISE)
    steps = gnubg.findbestmove(gnubg.board(), gnubg.cubeinfo(), context)
    words = []
    for i in range(0, len(steps), 2):
        source, target = steps[i], steps[i + 1]
        if source == 0 and target == 0:
            continue
        words.append(f"{'bar' if source >= 25 else source}/{'off' if target <= 0 else target}")
    return " ".join(words) or "pass"


def play_game(rng, plateau_side):
    """Plays one game; True when plateau wins."""
    times = {"plateau": [0.0, 0], "gnubg": [0.0, 0]}
    mover = rng.choice("xo")
    hi, lo = sorted(rng.sample(range(1, 7), 2), reverse=True)  # the opening roll: two different dice
    board = START
    while True:
        position = f"{board} {mover}{hi}{lo}"
        t = time.time()
        who = "plateau" if mover == plateau_side else "gnubg"
        if who == "plateau":
            nxt = after(position, decision(position))
            while nxt is not None and nxt.split()[2].startswith(mover + str(hi)):
                nxt = after(nxt, decision(nxt))
        else:
            nxt = after(position, gnubg_move(position, mover, (hi, lo)))
        times[who][0] += time.time() - t
        times[who][1] += 1
        if nxt is None:
            return mover == plateau_side, times
        board = " ".join(nxt.split()[:2])
        mover = "o" if mover == "x" else "x"
        hi, lo = sorted((rng.randint(1, 6), rng.randint(1, 6)), reverse=True)


def main():
    gnubg.command("set player 0 human")
    gnubg.command("set player 1 human")
    gnubg.command("new game")
    rng = random.Random(SEED)
    wins, total = 0, {"plateau": [0.0, 0], "gnubg": [0.0, 0]}
    for i in range(GAMES):
        side = "xo"[i % 2]
        won, times = play_game(rng, side)
        wins += won
        for k in total:
            total[k][0] += times[k][0]
            total[k][1] += times[k][1]
        print(json.dumps({"game": i + 1, "plateau": side, "plateau_won": won}), flush=True)
    score = wins / GAMES
    err = math.sqrt(score * (1 - score) / GAMES)
    per = {k: round(v[0] / max(v[1], 1), 4) for k, v in total.items()}
    print(json.dumps({"player": PLAYER, "gnubg_plies": PLIES, "gnubg_noise": NOISE, "games": GAMES,
                      "plateau_wins": wins, "score": round(score, 3), "stderr": round(err, 3),
                      "seconds_per_turn": per}), flush=True)
    sys.stdout.flush()


main()
