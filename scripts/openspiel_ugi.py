#!/usr/bin/env python3
"""UGI adapter for OpenSpiel's MCTS bot on Breakthrough, Othello, Oware or chess, so that `plateau match` can play against it.

    plateau match breakthrough --player engine \
        --player "ugi(cmd=python3 scripts/openspiel_ugi.py --simulations 10000)" --movetime 1s --margin 5s
    plateau match othello --player engine \
        --player "ugi(cmd=python3 scripts/openspiel_ugi.py --game othello --simulations 1000)" --movetime 100ms --margin 60s

Requires `pip install open-spiel`. The bot is OpenSpiel's C++ MCTS (`pyspiel.MCTSBot`: UCT with c = 2, one random
rollout per leaf, solver on) with a fixed number of simulations per move; it ignores the time control, unless
`--equal-time` is given: then each move's number of simulations is the time the move is given (`go movetime N`,
less `--equal-time-margin` ms) times the rate of simulations per second measured on the bot's previous move (the
first move of a game uses `--simulations`, four times more on each move until a search lasts 5 ms; the rate counts
the simulations the search ran, fewer than asked when its solver proved the result, and grows at most fourfold from
one move to the next), so that the bot thinks about as long as its opponent, as the bot itself has no clock. The simulations of every move are reported on stderr with `--verbose`.

Coordinates, Breakthrough (`--game breakthrough`, the default, with `--rows`/`--columns`): plateau's White moves first
from ranks 1-2; OpenSpiel's first player is black, on ranks 7-8. The two boards are the same up to a vertical flip, so
plateau's a2a3 is OpenSpiel's a7a6 (captures carry a '*' there). Othello (`--game othello`): OpenSpiel's move names
are plateau's (`d3`, `pass`, row 1 at the top, black first), so moves pass through unchanged. Oware (`--game oware`):
the house letters `A`..`F`/`a`..`f` are plateau's too. Chess (`--game chess`): plateau's moves are UCI's long algebraic
notation (`e2e4`, `e7e8q`), read with OpenSpiel's `parse_move_to_action` and written with `Move.to_lan`.
Only `position startpos [moves ...]` is understood (OpenSpiel's games here cannot load a position).
"""

import argparse
import sys
import time

import pyspiel


def flip_square(sq, rows):
    return sq[0] + str(rows + 1 - int(sq[1:]))


def split_move(text):
    """'a2b3' -> ('a2', 'b3'); files are one letter, ranks one or two digits."""
    text = text.rstrip("*")
    i = 1
    while i < len(text) and text[i].isdigit():
        i += 1
    return text[:i], text[i:]


def to_openspiel(move, rows):
    a, b = split_move(move)
    return flip_square(a, rows) + flip_square(b, rows)


def from_openspiel(action_text, rows):
    a, b = split_move(action_text)
    return flip_square(a, rows) + flip_square(b, rows)


class Adapter:
    def __init__(self, args):
        self.args = args
        if args.game in ("othello", "oware", "chess"):
            self.game = pyspiel.load_game(args.game)
        else:
            self.game = pyspiel.load_game("breakthrough", {"rows": args.rows, "columns": args.columns})
        self.seed = args.seed
        self.rate = None
        self.first_sims = args.simulations
        self.new_bot()
        self.state = self.game.new_initial_state()

    def new_bot(self, simulations=None):
        evaluator = pyspiel.RandomRolloutEvaluator(self.args.rollouts, self.seed)
        sims = simulations if simulations is not None else self.args.simulations
        self.bot = pyspiel.MCTSBot(
            self.game, evaluator, self.args.uct_c, sims, self.args.max_memory_mb, True, self.seed, False
        )
        self.seed += 1

    def out(self, line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def error(self, text):
        self.out("info string error " + text)

    def set_position(self, words):
        if not words or words[0] != "startpos":
            self.error("only 'position startpos [moves ...]' is supported")
            return
        state = self.game.new_initial_state()
        moves = words[2:] if len(words) > 1 and words[1] == "moves" else []
        for m in moves:
            want = self.to_openspiel(m)
            if self.args.game == "chess":
                legal = state.legal_actions()
                match = [a for a in legal if pyspiel.chess.action_to_move(a, state.board()).to_lan() == want]
            else:
                match = [a for a in state.legal_actions() if state.action_to_string(a).rstrip("*") == want]
            if not match or state.is_terminal():
                self.error("illegal move " + m)
                break
            state.apply_action(match[0])
        self.state = state

    def go(self, words):
        if self.state.is_terminal():
            self.out("bestmove (none)")
            return
        sims = self.args.simulations
        movetime = None
        if self.args.equal_time and "movetime" in words:
            i = words.index("movetime")
            try:
                movetime = max(1, int(words[i + 1]) - self.args.equal_time_margin) / 1000.0
            except (IndexError, ValueError):
                self.error("go: movetime needs a number of milliseconds")
        if movetime is not None:
            sims = max(1, int(self.rate * movetime)) if self.rate is not None else self.first_sims
            self.new_bot(sims)
        start = time.perf_counter()
        root = self.bot.mcts_search(self.state)  # what MCTSBot.step does, keeping the root's visit count
        action = root.best_child().action
        elapsed = time.perf_counter() - start
        if movetime is not None:
            self.learn_rate(root.explore_count, elapsed)
        if self.args.verbose:
            sys.stderr.write("simulations {} of {} in {:.3f} s\n".format(root.explore_count, sims, elapsed))
        if self.args.game == "chess":
            text = pyspiel.chess.action_to_move(action, self.state.board()).to_lan()
        else:
            text = self.state.action_to_string(action)
        self.out("bestmove " + self.from_openspiel(text))

    def learn_rate(self, done, elapsed):
        """The bot's simulations per second, from a search that ran `done` simulations (fewer than asked when its
        solver proved the result) in `elapsed` seconds."""
        if elapsed < 0.005:
            if self.rate is None:
                # Too short to time (Oware's 20 simulations take a millisecond): four times more on the next move.
                self.first_sims *= 4
            return
        rate = done / elapsed
        # At most fourfold from one move to the next, so that one odd measure cannot send the bot past its time.
        self.rate = rate if self.rate is None else min(rate, 4 * self.rate)

    def to_openspiel(self, move):
        if self.args.game == "othello":
            return move.lower()
        if self.args.game in ("oware", "chess"):
            return move
        return to_openspiel(move, self.args.rows)

    def from_openspiel(self, text):
        return text if self.args.game != "breakthrough" else from_openspiel(text, self.args.rows)

    def query(self, what):
        s = self.state
        if what == "gameover":
            self.out("response " + ("true" if s.is_terminal() else "false"))
        elif what == "p1turn":
            self.out("response " + ("true" if not s.is_terminal() and s.current_player() == 0 else "false"))
        elif what == "result":
            if not s.is_terminal():
                self.out("response none")
            else:
                r = s.returns()
                self.out("response " + ("p1win" if r[0] > r[1] else "p2win" if r[1] > r[0] else "draw"))
        else:
            self.error("unknown query " + what)

    def loop(self):
        for line in sys.stdin:
            words = line.split()
            if not words:
                continue
            cmd, rest = words[0], words[1:]
            if cmd in ("ugi", "uci"):
                self.out("id name OpenSpiel MCTS ({})".format(
                    "equal time" if self.args.equal_time else "{} simulations".format(self.args.simulations)))
                self.out("id author OpenSpiel authors (adapter: plateau)")
                self.out("ugiok" if cmd == "ugi" else "uciok")
            elif cmd == "isready":
                self.out("readyok")
            elif cmd in ("uginewgame", "ucinewgame"):
                self.new_bot()
                self.rate = None
                self.first_sims = self.args.simulations
                self.state = self.game.new_initial_state()
            elif cmd == "setoption":
                pass
            elif cmd == "position":
                self.set_position(rest)
            elif cmd == "go":
                self.go(rest)
            elif cmd == "query":
                self.query(rest[0] if rest else "")
            elif cmd == "stop":
                pass
            elif cmd == "quit":
                return
            else:
                self.error("unknown command " + cmd)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", choices=["breakthrough", "othello", "oware", "chess"], default="breakthrough")
    p.add_argument("--simulations", type=int, default=10000)
    p.add_argument("--uct-c", type=float, default=2.0)
    p.add_argument("--rollouts", type=int, default=1)
    p.add_argument("--max-memory-mb", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rows", type=int, default=8)
    p.add_argument("--columns", type=int, default=8)
    p.add_argument("--equal-time", action="store_true", help="fit the simulations to `go movetime` (see above)")
    p.add_argument("--equal-time-margin", type=int, default=10, help="milliseconds kept back from movetime")
    p.add_argument("--verbose", action="store_true", help="simulations and time of each move on stderr")
    Adapter(p.parse_args()).loop()


if __name__ == "__main__":
    main()
