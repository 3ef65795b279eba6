#!/usr/bin/env python3
"""OpenSpiel's MCTS (C++ pyspiel.MCTSBot, random rollouts) next to plateau's mcts, for docs/mcts.md.

  speed:  python3 scripts/openspiel_mcts.py speed --plateau target/release/plateau --simulations 2000
          playouts per second of both programs in the same run, same settings (UCT, one random rollout per
          simulation, the same number of simulations, solver off), on Breakthrough 8x8 and Connect Four, from the start
          and from a middle-game position.
  ugi:    python3 scripts/openspiel_mcts.py ugi --game breakthrough --simulations 1000 --seed 1
          a UGI engine (the subset plateau's arena speaks: ugi, isready, uginewgame, position startpos moves ...,
          go ..., quit) playing OpenSpiel's MCTSBot; moves are translated to and from plateau's notation.

Needs pip's open-spiel (import pyspiel); plateau's tests never run it.
"""
import argparse
import json
import subprocess
import sys
import time

import pyspiel

# Middle-game positions, as plateau move lists (replayed in both programs).
MIDDLE = {
    "breakthrough": "a2a3 h7h6 b2b3 g7g6 c2c3 f7f6 d2d3 e7e6 d3d4 e6e5 d4e5 f6e5 e2e3 d7d6 f2f3 c7c6",
    "connect_four": "4 4 3 5 3 3 5 2 4 6",
}
UCT_C = 2.0  # OpenSpiel's value range is [-1, 1]; plateau's c=1 on [0, 1] is the same exploration


def to_openspiel(game, plateau_move):
    """plateau's move text -> OpenSpiel's action string (without the capture mark)."""
    if game == "connect_four":
        return "x%d" % (int(plateau_move) - 1)
    # Breakthrough: plateau's first player (White) starts on ranks 1-2 and moves up; OpenSpiel's first player (b)
    # starts on ranks 7-8 and moves down. Same files, ranks mirrored.
    f1, r1, f2, r2 = plateau_move[0], int(plateau_move[1]), plateau_move[2], int(plateau_move[3])
    return "%s%d%s%d" % (f1, 9 - r1, f2, 9 - r2)


def to_plateau(action_string):
    s = action_string.rstrip("*")
    return "%s%d%s%d" % (s[0], 9 - int(s[1]), s[2], 9 - int(s[3]))


def play(game, state, plateau_move):
    if game == "connect_four":
        # Actions are the columns 0..6 (their strings name the player: x3, o3).
        state.apply_action(int(plateau_move) - 1)
        return
    want = to_openspiel(game, plateau_move)
    for a in state.legal_actions():
        if state.action_to_string(a).rstrip("*") == want:
            state.apply_action(a)
            return
    raise ValueError("illegal move %s (%s)" % (plateau_move, want))


def bot(game_name, simulations, seed, solve=False):
    game = pyspiel.load_game(game_name)
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    return game, pyspiel.MCTSBot(game, evaluator, UCT_C, simulations, 1000, solve, seed, False)


def speed(args):
    rows = []
    for name in ("breakthrough", "connect_four"):
        for label, moves in (("start", ""), ("middle", MIDDLE[name])):
            game, b = bot(name, args.simulations, 1)
            state = game.new_initial_state()
            for m in moves.split():
                play(name, state, m)
            t = time.perf_counter()
            for _ in range(args.repeat):
                b.step(state)
            os_rate = args.simulations * args.repeat / (time.perf_counter() - t)
            cmd = [args.plateau, "search", name, "--json", "--algo",
                   "mcts(playouts=%d,solver=false,seed=1,reuse=false)" % args.simulations]
            if moves:
                cmd += ["--moves", moves]
            best = 0.0
            for _ in range(args.repeat):
                out = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
                best += out["seconds"]
            pl_rate = args.simulations * args.repeat / best
            rows.append((name, label, os_rate, pl_rate))
    print("| game | position | OpenSpiel MCTSBot playouts/s | plateau mcts playouts/s | ratio |")
    print("|---|---|---:|---:|---:|")
    for name, label, a, b in rows:
        print("| %s | %s | %.0f | %.0f | %.1fx |" % (name, label, a, b, b / a))


def ugi(args):
    game, b = bot(args.game, args.simulations, args.seed, solve=True)
    state = game.new_initial_state()
    out = sys.stdout
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "ugi":
            out.write("id name openspiel-mcts(%d)\nugiok\n" % args.simulations)
        elif words[0] == "isready":
            out.write("readyok\n")
        elif words[0] == "uginewgame":
            state = game.new_initial_state()
        elif words[0] == "position":
            state = game.new_initial_state()
            if "moves" in words:
                for m in words[words.index("moves") + 1:]:
                    play(args.game, state, m)
        elif words[0] == "go":
            action = b.step(state)
            move = str(action + 1) if args.game == "connect_four" else to_plateau(state.action_to_string(action))
            out.write("bestmove %s\n" % move)
        elif words[0] == "quit":
            return
        out.flush()


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="mode", required=True)
    s = sub.add_parser("speed")
    s.add_argument("--plateau", default="target/release/plateau")
    s.add_argument("--simulations", type=int, default=2000)
    s.add_argument("--repeat", type=int, default=3)
    u = sub.add_parser("ugi")
    u.add_argument("--game", choices=["breakthrough", "connect_four"], default="breakthrough")
    u.add_argument("--simulations", type=int, default=1000)
    u.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    speed(args) if args.mode == "speed" else ugi(args)


if __name__ == "__main__":
    main()
