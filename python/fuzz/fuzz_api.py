"""Coverage-guided fuzzing of the Python entry points with atheris (libFuzzer for Python).

Each input is a script: a game string (built from the registry's names and parameters, or raw fuzzed text), then up
to 16 calls on that game chosen by the input's bytes: positions (`new_state`), moves as text (`apply_moves`,
`string_to_action`), actions as integers of any size (`apply_action`, `apply_actions`, `action_to_string`), players
of any number (`legal_actions`, `observation_tensor`, `observation_string`, `returns`), chance outcomes, clones,
bots and searches from fuzzed player strings with small budgets, playouts and one-game matches.

The property checked: every call returns, or raises ValueError (the documented one-line error), or TypeError /
OverflowError (an argument of the wrong Python type or out of the C integer range, raised by PyO3 before plateau
sees it). Anything else escapes and atheris reports it as a crash: a Rust panic reaches Python as
`pyo3_runtime.PanicException` (a BaseException), an abort or a signal kills the process. An error message with a line
break fails too (the messages are one line).

    pip install atheris    # in the venv that has the plateau module (maturin develop --profile python)
    python python/fuzz/fuzz_api.py python/fuzz/corpus -atheris_runs=1000000 -max_len=512
    python python/fuzz/fuzz_api.py python/fuzz/corpus -max_total_time=60        # the short check

Searches are bounded (depth at most 2, at most 50 playouts, 20 ms) so that an input runs in milliseconds; the
parameters of the player strings are fuzzed otherwise, as are the game strings' values (sizes up to the ceilings).
Paths are left out of player strings (`book=FILE`, `db=DIR` would read the machine's files).
"""

import os
import sys

import atheris

with atheris.instrument_imports():
    import plateau

GAMES = plateau.games()
PLAYERS = ["random", "alphabeta", "negamax", "pvs", "mtdf", "engine", "mcts", "ismcts", "smmcts", "naive",
           "expectimax", "star1", "star2", "determinize", "pns"]
# Budgets that bound each family (a depth does not bound MCTS, whose default playouts on chess take seconds a move).
BUDGETS = ["depth=1", "depth=2", "time=20ms", "nodes=500"]
MCTS_BUDGETS = ["playouts=20", "playouts=50", "time=20ms", "nodes=500"]
ALLOWED = (ValueError, TypeError, OverflowError)
LAST = os.environ.get("PLATEAU_FUZZ_LAST")


@atheris.instrument_func
def game_string(fdp):
    """A registry game with fuzzed parameters, or raw text."""
    if fdp.ConsumeIntInRange(0, 7) == 0:
        return fdp.ConsumeUnicodeNoSurrogates(40)
    g = GAMES[fdp.ConsumeIntInRange(0, len(GAMES) - 1)]
    params = []
    for p in g["parameters"]:
        choice = fdp.ConsumeIntInRange(0, 5)
        if choice == 0:
            params.append(f"{p['name']}={fdp.ConsumeIntInRange(-2, 70)}")
        elif choice == 1:
            params.append(f"{p['name']}={fdp.ConsumeUnicodeNoSurrogates(6)}")
    name = g["name"] if not g["aliases"] or fdp.ConsumeBool() else g["aliases"][0]
    return f"{name}({','.join(params)})" if params else name


@atheris.instrument_func
def player_string(fdp):
    """A fuzzed player string whose search is bounded: one of the budgets always comes last (and wins)."""
    name = PLAYERS[fdp.ConsumeIntInRange(0, len(PLAYERS) - 1)]
    extra = fdp.ConsumeUnicodeNoSurrogates(12).replace("/", "").replace(")", "")
    budgets = MCTS_BUDGETS if name in ("mcts", "ismcts", "smmcts") else BUDGETS
    budget = budgets[fdp.ConsumeIntInRange(0, len(budgets) - 1)]
    if name == "pns":  # proof-number search: a node budget, and a bounded player where nothing is proven
        budget = "budget=2000,fallback=random"
    if "=" in extra and "depth" not in extra and "time" not in extra and "playouts" not in extra \
            and "nodes" not in extra and "budget" not in extra and "fallback" not in extra:
        return f"{name}({extra},{budget})"
    return f"{name}({budget})"


def player_of(fdp):
    return fdp.ConsumeIntInRange(-3, 3) if fdp.ConsumeBool() else fdp.ConsumeInt(9)


@atheris.instrument_func
def step(fdp, game, state):
    """One call on the game or the state; returns the state to go on with."""
    op = fdp.ConsumeIntInRange(0, 17)
    if op == 0:
        return game.new_state(fdp.ConsumeUnicodeNoSurrogates(80))
    if op == 1:
        state.apply_moves(fdp.ConsumeUnicodeNoSurrogates(30))
    elif op == 2:
        actions = state.legal_actions()
        if actions and fdp.ConsumeBool():
            state.apply_action(actions[fdp.ConsumeIntInRange(0, len(actions) - 1)])
        else:
            state.apply_action(fdp.ConsumeInt(9))
    elif op == 3:
        state.apply_actions([fdp.ConsumeInt(3) for _ in range(fdp.ConsumeIntInRange(0, 3))])
    elif op == 4:
        state.legal_actions(player_of(fdp)) if fdp.ConsumeBool() else state.legal_actions()
        state.legal_moves()
    elif op == 5:
        state.string_to_action(fdp.ConsumeUnicodeNoSurrogates(12))
    elif op == 6:
        state.action_to_string(fdp.ConsumeInt(9))
    elif op == 7:
        state.observation_tensor(player_of(fdp))
    elif op == 8:
        state.observation_string(player_of(fdp))
    elif op == 9:
        state.returns(), state.rewards(), state.current_player(), state.is_terminal(), state.position()
        state.history(), state.move_number(), str(state)
    elif op == 10:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9, outcomes
            state.apply_action(outcomes[fdp.ConsumeIntInRange(0, len(outcomes) - 1)][0])
    elif op == 11:
        return state.clone()
    elif op == 12:
        plateau.bot(player_string(fdp)).step(state)
    elif op == 13:
        plateau.search(state, player_string(fdp))
    elif op == 14:
        game.random_playouts(fdp.ConsumeIntInRange(-1, 3), seed=fdp.ConsumeIntInRange(0, 2**64 - 1), state=state)
    elif op == 15:
        game.observation_tensor_shape(), game.num_distinct_actions(), game.kind(), game.has_stable_actions()
    elif op == 16:
        if state.is_simultaneous_node():
            halves = [state.legal_actions(p) for p in (0, 1)]
            state.apply_actions([h[fdp.ConsumeIntInRange(0, len(h) - 1)] if h else 0 for h in halves])
    else:
        plateau.match(fdp.ConsumeUnicodeNoSurrogates(20) if fdp.ConsumeIntInRange(0, 3) == 0 else
                      GAMES[fdp.ConsumeIntInRange(0, len(GAMES) - 1)]["name"],
                      "random", player_string(fdp), games=1, seed=fdp.ConsumeIntInRange(0, 1000))
    return state


@atheris.instrument_func
def test_one_input(data):
    if LAST:  # a crash that kills the process (a signal) leaves no artifact: the input is kept here first
        with open(LAST, "wb") as f:
            f.write(data)
    fdp = atheris.FuzzedDataProvider(data)
    try:
        game = plateau.load_game(game_string(fdp))
        state = game.new_initial_state()
    except ALLOWED as e:
        assert "\n" not in str(e), repr(str(e))
        return
    for _ in range(fdp.ConsumeIntInRange(1, 16)):
        if fdp.remaining_bytes() == 0:
            break
        try:
            state = step(fdp, game, state)
        except ALLOWED as e:
            assert "\n" not in str(e), repr(str(e))


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
