"""Speed of plateau from Python against OpenSpiel's pyspiel on the same games, measured in the same run.

1. Random playouts per second: plateau's batched call (`game.random_playouts(n)`, one call for all playouts), plateau
   driven move by move from Python (the OpenSpiel-style loop), and pyspiel driven the same way (OpenSpiel has no
   batched playout: its Python users write this loop).
2. Legal-move generation per call: `state.legal_actions()` from Python (plateau and pyspiel) on the same positions,
   against the native cost of the same call made from Rust (`_plateau.native_legal_actions_seconds`) plus Python's
   own overhead per call: the goal is within 2x of their sum. Two measures of that overhead: an empty builtin call
   (`len(())`, the least a call can cost) and a method call on the same plateau states that does next to nothing
   (`state.is_terminal()`, the cost of reaching the extension's method: attribute lookup, argument passing, borrow).

    python python/bench.py                 # about a minute
    python python/bench.py --seconds 5     # longer, steadier figures
"""

import argparse
import random
import time

import plateau
from plateau import _plateau

try:
    import pyspiel
except ImportError:  # the bench still measures plateau alone
    pyspiel = None

GAMES = ["breakthrough", "connect_four", "tic_tac_toe", "othello"]


def timed(f, seconds):
    """Calls of f per second over about `seconds`, and the result of the last call."""
    n, start = 0, time.perf_counter()
    while True:
        out = f()
        n += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return n / elapsed, out


def loop_playout(state, rng):
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state.returns()


def bench_game(name, seconds):
    game = plateau.load_game(name)
    rng = random.Random(1)
    batch = 1000
    per_sec, _ = timed(lambda: game.random_playouts(batch, seed=rng.randrange(1 << 30)), seconds)
    batched = per_sec * batch
    looped, _ = timed(lambda: loop_playout(game.new_initial_state(), rng), seconds)
    row = {"game": name, "plateau_batched": batched, "plateau_loop": looped}
    # Legal moves per call on positions along random games.
    states = []
    while len(states) < 200:
        s = game.new_initial_state()
        for _ in range(rng.randrange(0, 20)):
            if s.is_terminal():
                break
            s.apply_action(rng.choice(s.legal_actions()))
        if not s.is_terminal():
            states.append(s)
    row["plateau_legal_per_s"] = timed(lambda: [s.legal_actions() for s in states], seconds / 2)[0] * len(states)
    noop = [()] * len(states)
    row["python_call_per_s"] = timed(lambda: [len(s) for s in noop], seconds / 2)[0] * len(states)
    row["method_call_per_s"] = timed(lambda: [s.is_terminal() for s in states], seconds / 2)[0] * len(states)
    row["native_seconds"] = sum(_plateau.native_legal_actions_seconds(s, 2000) for s in states) / len(states)
    if pyspiel is not None:
        spiel = pyspiel.load_game(name)
        row["pyspiel_loop"], _ = timed(lambda: loop_playout(spiel.new_initial_state(), rng), seconds)
        spiel_states = []
        for s in states:
            t = spiel.new_initial_state()
            for a in s.history():
                t.apply_action(a)
            spiel_states.append(t)
        row["pyspiel_legal_per_s"] = timed(lambda: [t.legal_actions() for t in spiel_states],
                                           seconds / 2)[0] * len(states)
    return row


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args()
    rows = [bench_game(name, args.seconds) for name in args.games.split(",")]

    def num(x, fmt=",.0f"):
        return "-" if x is None else format(x, fmt)

    print("Random playouts per second from Python:\n")
    print("| game | plateau, batched | plateau, loop in Python | pyspiel, loop in Python | batched / pyspiel |")
    print("|---|---|---|---|---|")
    for r in rows:
        spiel = r.get("pyspiel_loop")
        ratio = f"{r['plateau_batched'] / spiel:.0f}x" if spiel else "-"
        print(f"| {r['game']} | {num(r['plateau_batched'])} | {num(r['plateau_loop'])} | {num(spiel)} | {ratio} |")
    print("\n`legal_actions()`, microseconds per call:\n")
    print("| game | plateau from Python | pyspiel from Python | plateau native (from Rust) | empty builtin call |"
          " empty method call | plateau / (native + builtin) | plateau / (native + method) |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        ours = 1e6 / r["plateau_legal_per_s"]
        spiel = 1e6 / r["pyspiel_legal_per_s"] if "pyspiel_legal_per_s" in r else None
        native, empty = 1e6 * r["native_seconds"], 1e6 / r["python_call_per_s"]
        method = 1e6 / r["method_call_per_s"]
        print(f"| {r['game']} | {ours:.2f} | {num(spiel, '.2f')} | {native:.2f} | {empty:.2f} | {method:.2f} | "
              f"{ours / (native + empty):.1f}x | {ours / (native + method):.1f}x |")


if __name__ == "__main__":
    main()
