#!/usr/bin/env python3
"""OpenSpiel's MCTS bot on Othello as a UGI engine, for `plateau match othello`:

    plateau match othello --player engine \\
        --player "ugi(cmd=python3 tools/openspiel_othello_ugi.py --simulations 1000)" --movetime 100ms --margin 60s

The same adapter as tools/openspiel_ugi.py (Breakthrough), with OpenSpiel's `othello`: its move names are plateau's
(`d3`, `pass`, row 1 at the top, black first), so moves pass through unchanged. Only `position startpos [moves ...]`.
"""

import argparse
import os
import sys

import pyspiel

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from openspiel_ugi import Adapter  # noqa: E402


class OthelloAdapter(Adapter):
    def __init__(self, args):
        self.args = args
        self.game = pyspiel.load_game("othello")
        self.seed = args.seed
        self.new_bot()
        self.state = self.game.new_initial_state()

    def set_position(self, words):
        if not words or words[0] != "startpos":
            self.error("only 'position startpos [moves ...]' is supported")
            return
        state = self.game.new_initial_state()
        moves = words[2:] if len(words) > 1 and words[1] == "moves" else []
        for m in moves:
            match = [a for a in state.legal_actions() if state.action_to_string(a) == m.lower()]
            if not match or state.is_terminal():
                self.error("illegal move " + m)
                break
            state.apply_action(match[0])
        self.state = state

    def go(self):
        if self.state.is_terminal():
            self.out("bestmove (none)")
            return
        action = self.bot.step(self.state)
        self.out("bestmove " + self.state.action_to_string(action))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--simulations", type=int, default=10000)
    p.add_argument("--uct-c", type=float, default=2.0)
    p.add_argument("--rollouts", type=int, default=1)
    p.add_argument("--max-memory-mb", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    OthelloAdapter(p.parse_args()).loop()


if __name__ == "__main__":
    main()
