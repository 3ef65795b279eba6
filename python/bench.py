"""Speed of plateau from Python against OpenSpiel's pyspiel on the same games, measured in the same run.

1. Random playouts per second: plateau's batched call (`game.random_playouts(n)`, one call for all playouts), plateau
   driven move by move from Python (the OpenSpiel-style loop), and pyspiel driven the same way (OpenSpiel has no
   batched playout: its Python users write this loop).
2. Legal-move generation per call: `state.legal_actions()` from Python, plateau and pyspiel, against an empty Python
   call (the interpreter's call overhead) and the native cost (the Rust generation alone, from `plateau perft`'s
   nodes per second at depth 1 per position... measured here as the batched playouts' time per ply).

    python python/bench.py                 # about a minute
    python python/bench.py --seconds 5     # longer, steadier figures
"""

import argparse
import random
import time

import plateau

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
    print("| game | plateau batched playouts/s | plateau loop playouts/s | pyspiel loop playouts/s | batched / pyspiel |"
          " plateau legal_actions() calls/s | pyspiel legal_actions() calls/s | empty Python calls/s |")
    print("|---|---|---|---|---|---|---|---|")
    for name in args.games.split(","):
        r = bench_game(name, args.seconds)
        spiel = r.get("pyspiel_loop")
        ratio = f"{r['plateau_batched'] / spiel:.0f}x" if spiel else "-"
        print(f"| {name} | {r['plateau_batched']:,.0f} | {r['plateau_loop']:,.0f} | "
              f"{spiel:,.0f} | {ratio} | {r['plateau_legal_per_s']:,.0f} | "
              f"{r.get('pyspiel_legal_per_s', 0):,.0f} | {r['python_call_per_s']:,.0f} |" if spiel else
              f"| {name} | {r['plateau_batched']:,.0f} | {r['plateau_loop']:,.0f} | - | - | "
              f"{r['plateau_legal_per_s']:,.0f} | - | {r['python_call_per_s']:,.0f} |")


if __name__ == "__main__":
    main()
