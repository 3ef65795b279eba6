"""The API after OpenSpiel's: states, actions, chance and simultaneous nodes, tensors, playouts, searches, bots, solve,
match, and the errors (ValueError with the command line's one-line messages; no crash)."""

import copy
import subprocess
import sys

import numpy as np
import pytest

import plateau


def test_play_a_game_to_the_end():
    game = plateau.load_game("tic_tac_toe")
    state = game.new_initial_state()
    assert state.current_player() == 0
    assert state.legal_actions() == list(range(9))
    for move in ["b2", "a1", "a3", "c1", "b1", "b3", "c2", "a2", "c3"]:
        state.apply_action(state.string_to_action(move))
    assert state.is_terminal()
    assert state.current_player() == plateau.TERMINAL
    assert state.returns() == [0.0, 0.0]  # a draw
    assert state.legal_actions() == []


def test_actions_strings_and_clone():
    game = plateau.load_game("breakthrough(rows=6,columns=5)")
    state = game.new_initial_state()
    first = state.legal_actions()[0]
    text = state.action_to_string(first)
    assert state.action_to_string(0, first) == text
    assert state.string_to_action(text) == first
    copy_before = state.clone()
    state.apply_action(first)
    assert copy_before.history() == [] and state.history() == [first]
    assert copy.deepcopy(state).history() == [first]
    assert str(state) != str(copy_before)
    state.apply_moves("a5a4")
    assert state.move_number() == 2
    same = game.new_state(state.position())
    assert same.legal_actions() == state.legal_actions()


def test_observation_tensor_shapes():
    for name, shape in [("breakthrough", [3, 8, 8]), ("connect_four", [3, 6, 7]), ("tic_tac_toe", [3, 3, 3]),
                        ("othello", [3, 8, 8]), ("oware", [14]), ("pig", [3, 101]), ("chess", [20, 8, 8]),
                        ("backgammon", [200]), ("marbles(n=21)", [2, 22])]:
        game = plateau.load_game(name)
        assert game.observation_tensor_shape() == shape
        t = game.new_initial_state().observation_tensor()
        assert t.shape == tuple(shape) and t.dtype == np.float32
    # A board plane per kind of cell: every cell in exactly one plane.
    t = plateau.load_game("breakthrough").new_initial_state().observation_tensor(1)
    assert (t.sum(axis=0) == 1).all() and t[0, :2].all() and t[1, 6:].all()


# Every registered game's tensor shape (docs/python.md), at its defaults.
SHAPES = {
    "phantom_tic_tac_toe": [27], "breakthrough(moves=simultaneous)": [3, 8, 8],
    "breakthrough(information=imperfect,rows=6,columns=5)": [3, 6, 5], "matching_pennies(rounds=3)": [2, 4],
    "random_tree(width=3,depth=4)": [4, 3], "chance_tree(width=2,outcomes=3,depth=4)": [4, 3], "coin_game": [3, 2],
}


def test_every_game_has_an_observation_tensor():
    """Every game of the registry has a tensor of its documented shape, from the start to the end of random games,
    for both players; the board games have one plane per kind of cell."""
    names = [g["name"] for g in plateau.games()]
    for name in names + list(SHAPES):
        game = plateau.load_game(name)
        shape = game.observation_tensor_shape()
        assert shape and all(n > 0 for n in shape), name
        if name in SHAPES:
            assert shape == SHAPES[name], name
        rng = np.random.default_rng(1)
        for _ in range(3):
            state = game.new_initial_state()
            while True:
                for p in (0, 1):
                    t = state.observation_tensor(p)
                    assert t.shape == tuple(shape) and t.dtype == np.float32 and np.isfinite(t).all(), name
                if state.is_terminal():
                    break
                if state.is_simultaneous_node():
                    state.apply_actions([int(rng.choice(state.legal_actions(p))) for p in (0, 1)])
                elif state.is_chance_node():
                    state.apply_action(int(rng.choice([a for a, _ in state.chance_outcomes()])))
                else:
                    state.apply_action(int(rng.choice(state.legal_actions())))
    # The tree games: one-hot of the path (or the node), so different nodes give different tensors.
    tree = plateau.load_game("random_tree(width=3,depth=4)")
    a, b = tree.new_initial_state(), tree.new_initial_state()
    a.apply_moves("1 2")
    b.apply_moves("2 1")
    assert a.observation_tensor().sum() == 2 and (a.observation_tensor() != b.observation_tensor()).any()
    assert a.observation_tensor()[1, 1] == 1 and b.observation_tensor()[1, 0] == 1
    given = plateau.load_game("tree")
    s = given.new_initial_state()
    assert s.observation_tensor()[0] == 1 and s.observation_tensor().sum() == 1


def test_hidden_tensors_show_only_what_the_player_knows():
    """Phantom tic-tac-toe and dark Breakthrough: a player's tensor holds its own pieces and the opponent pieces it
    has found, never the others."""
    game = plateau.load_game("phantom_tic_tac_toe")
    s = game.new_initial_state()
    s.apply_moves("b2")            # X on b2: O does not see it
    x, o = s.observation_tensor(0), s.observation_tensor(1)
    assert x[18 + 4] == 1 and x[:9].sum() == 8     # X's plane (2), cell 4 (b2); 8 empty cells
    assert o[:9].sum() == 9 and o[9:].sum() == 0   # O sees nothing
    s.apply_moves("b2")            # O tries b2: taken, found
    assert s.observation_tensor(1)[18 + 4] == 1 and s.current_player() == 1
    dark = plateau.load_game("breakthrough(information=imperfect,rows=5,columns=4,piece_rows=1)")
    d = dark.new_initial_state()
    w, b = d.observation_tensor(0), d.observation_tensor(1)
    assert w[0].sum() == 4 and w[1].sum() == 0 and b[1].sum() == 4 and b[0].sum() == 0
    sim = plateau.load_game("breakthrough(moves=simultaneous,rows=5,columns=4,piece_rows=1)").new_initial_state()
    assert (sim.observation_tensor(0) == sim.observation_tensor(1)).all() and sim.observation_tensor(0)[:2].sum() == 8


def test_returns_follow_openspiel():
    """Oware returns the sign of the margin, backgammon the points (not the evaluation's 1000 per point)."""
    oware = plateau.load_game("oware").random_playouts(200, seed=2)
    assert set(np.unique(oware)) <= {-1.0, 0.0, 1.0} and (oware.sum(axis=1) == 0).all()
    bg = plateau.load_game("backgammon(gammons=true)").random_playouts(50, seed=2)
    assert set(np.unique(np.abs(bg))) <= {1.0, 2.0, 3.0} and 2.0 in np.abs(bg)
    single = plateau.load_game("backgammon").random_playouts(20, seed=2)
    assert set(np.unique(np.abs(single))) == {1.0}


def test_chance_nodes():
    game = plateau.load_game("pig(target=20)")
    state = game.new_initial_state()
    # Walk until a chance node (the roll after choosing to roll).
    for _ in range(10):
        if state.is_chance_node():
            break
        state.apply_action(state.legal_actions()[0])
    assert state.current_player() == plateau.CHANCE
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 6 and abs(sum(p for _, p in outcomes) - 1) < 1e-9
    assert [a for a, _ in outcomes] == state.legal_actions()
    state.apply_action(outcomes[0][0])


def test_simultaneous_nodes():
    game = plateau.load_game("matching_pennies")
    state = game.new_initial_state()
    assert state.current_player() == plateau.SIMULTANEOUS
    with pytest.raises(ValueError, match="both players move at once"):
        state.legal_actions()
    a, b = state.legal_actions(0), state.legal_actions(1)
    assert a and b
    with pytest.raises(ValueError, match="apply_actions"):
        state.apply_action(a[0])
    state.apply_actions([a[0], b[0]])
    assert state.is_terminal() and sum(state.returns()) == 0 and state.returns()[0] != 0


def test_random_playouts_are_numpy_and_seeded():
    game = plateau.load_game("connect_four")
    r = game.random_playouts(2000, seed=3)
    assert r.shape == (2000, 2) and r.dtype == np.float64
    assert (r.sum(axis=1) == 0).all() and set(np.unique(r[:, 0])) <= {-1.0, 0.0, 1.0}
    assert (game.random_playouts(2000, seed=3) == r).all()
    # The first player wins more random games of Connect Four than the second.
    assert r[:, 0].mean() > 0.05
    state = game.new_initial_state()
    state.apply_moves("4 4 4 4 4")
    assert game.random_playouts(10, seed=1, state=state).shape == (10, 2)


def test_search_fields_match_the_command_line():
    state = plateau.load_game("tic_tac_toe").new_initial_state()
    r = plateau.search(state, "alphabeta(depth=9)")
    for field in ["best_move", "value", "depth", "nodes", "leaves", "pv", "seconds", "best_action"]:
        assert field in r
    assert r["value"] == 0 and r["depth"] == 9
    assert state.action_to_string(r["best_action"]) == r["best_move"]
    cli = plateau.run("search", "tic_tac_toe", "--algo", "alphabeta(depth=9)", "--json")[0]
    assert cli["value"] == r["value"] and cli["nodes"] == r["nodes"] and cli["best_move"] == r["best_move"]


def test_python_evaluation_is_used():
    game = plateau.load_game("breakthrough(rows=5,columns=4,piece_rows=1)")
    state = game.new_initial_state()
    calls = []

    def advance(s):
        calls.append(1)
        # The further the player to move's pieces, the better: count pieces of each plane weighted by row.
        t = s.observation_tensor()
        rows = np.arange(t.shape[1])[:, None]
        white = (t[0] * rows).sum()
        black = (t[1] * (t.shape[1] - 1 - rows)).sum()
        return 10 * (white - black) * (1 if s.current_player() == 0 else -1)

    r = plateau.search(state, "alphabeta(depth=2)", evaluate=advance)
    assert calls and r["nodes"] > 0 and r["best_move"]

    # One ply of minimax scores each child with the function: its value is the best of minus the function's values.
    children = [state.child(a) for a in state.legal_actions()]
    r = plateau.search(state, "minimax(depth=1)", evaluate=advance)
    assert r["value"] == max(-advance(c) for c in children)

    # Searchers with helper threads call the function from those threads too (no deadlock on the interpreter).
    r = plateau.search(state, "engine(depth=3,threads=2)", evaluate=advance)
    assert r["best_move"]

    def broken(s):
        raise KeyError("boom")

    with pytest.raises(KeyError, match="boom"):
        plateau.search(state, "alphabeta(depth=2)", evaluate=broken)
    with pytest.raises(ValueError, match="finite"):
        plateau.search(state, "alphabeta(depth=2)", evaluate=lambda s: float("nan"))
    # A player that evaluates no position says so instead of ignoring the function.
    for algo in ["random", "pns", "mcts(playouts=10,defaults=none)"]:
        with pytest.raises(ValueError, match="evaluates no position"):
            plateau.search(state, algo, evaluate=advance)


def test_bots():
    game = plateau.load_game("connect_four")
    state = game.new_initial_state()
    state.apply_moves("1 1 2 2 3")  # the first player threatens to complete 1-2-3-4: the second must block 4
    bot = plateau.bot("alphabeta(depth=4)")
    assert state.action_to_string(bot.step(state)) == "4"
    rnd = plateau.bot("random")
    for _ in range(5):
        assert rnd.step(state) in state.legal_actions()
    assert plateau.Bot("mcts(playouts=200)").step(state) in state.legal_actions()
    pennies = plateau.load_game("matching_pennies").new_initial_state()
    assert rnd.step(pennies, 1) in pennies.legal_actions(1)


def test_solve_and_match():
    r = plateau.solve("tic_tac_toe")
    assert r["result"] == "draw"
    r = plateau.solve("connect_four(rows=4,columns=5)", weak=True)
    assert r["result"] in ("win", "loss", "draw")
    state = plateau.load_game("tic_tac_toe").new_initial_state()
    state.apply_moves("a1 b2 a2")
    assert plateau.solve(state)["best_move"] == "a3"
    m = plateau.match("tic_tac_toe", "alphabeta(depth=9)", "random", games=4, seed=2)
    assert m["games"] == 4 and m["wins_b"] == 0 and m["wins_a"] + m["draws"] == 4
    assert any(g["name"] == "breakthrough" for g in plateau.games())


def test_qubic_proof_saved_and_checked(tmp_path):
    # The 3x3x3 cube: a first-player win, its proof written, checked from the file alone, and a cut file refused.
    proof = tmp_path / "qubic3.proof"
    r = plateau.solve("qubic(size=3)", proof=str(proof), check=True)
    assert r["result"] == "win" and r["proof_positions"] > 0 and r["proof_check"]["verified"]
    c = plateau.solve("qubic(size=3)", check_proof=str(proof))
    assert c["check"]["verified"] and c["positions"] == r["proof_positions"]
    lines = proof.read_text().splitlines()
    proof.write_text("\n".join(lines[: len(lines) // 2]) + "\n")
    with pytest.raises(ValueError, match="cut short"):
        plateau.solve("qubic(size=3)", check_proof=str(proof))


@pytest.mark.parametrize("call,message", [
    (lambda: plateau.load_game("nosuchgame"), "unknown game 'nosuchgame'"),
    (lambda: plateau.load_game("breakthrough(rows=2)"), "rows=2 is out of range"),
    (lambda: plateau.load_game("breakthrough(size=3)"), "size"),
    (lambda: plateau.load_game("tic_tac_toe").new_state("garbage"), "missing side to move"),
    (lambda: plateau.load_game("tic_tac_toe").new_initial_state().apply_action(9), "action 9 is not legal"),
    (lambda: plateau.load_game("tic_tac_toe").new_initial_state().apply_action(-1), "not legal"),
    (lambda: plateau.load_game("tic_tac_toe").new_initial_state().apply_moves("z9"), "move 1 'z9'"),
    (lambda: plateau.load_game("tic_tac_toe").new_initial_state().string_to_action("z9"), "z9"),
    (lambda: plateau.load_game("tic_tac_toe").new_initial_state().observation_tensor(2), "player 2"),
    (lambda: plateau.search(plateau.load_game("tic_tac_toe").new_initial_state(), "nosuchalgo"), "nosuchalgo"),
    (lambda: plateau.search(plateau.load_game("tic_tac_toe").new_initial_state(), "alphabeta(depth=x)"), "depth"),
    (lambda: plateau.bot("alphabeta").step(plateau.load_game("pig").new_initial_state()), "alphabeta cannot play a game with chance"),
    (lambda: plateau.solve("nosuchgame"), "unknown game"),
    (lambda: plateau.match("tic_tac_toe", "random", "nosuchplayer", games=1), "nosuchplayer"),
    (lambda: plateau.run("nosuchcommand"), "nosuchcommand"),
    (lambda: plateau.load_game("tic_tac_toe").random_playouts(10**9), "at most"),
])
def test_bad_input_raises_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_error_messages_stay_one_line():
    """Control characters of the input are quoted escaped (found by python/fuzz/fuzz_api.py)."""
    for call in (lambda: plateau.load_game(";;\n\x08"),
                 lambda: plateau.load_game("tic_tac_toe").new_initial_state().apply_moves("b2 a1\x1b z9"),
                 lambda: plateau.search(plateau.load_game("tic_tac_toe").new_initial_state(), "alpha\nbeta")):
        with pytest.raises(ValueError) as e:
            call()
        assert "\n" not in str(e.value) and "\\" in str(e.value), repr(str(e.value))


def test_terminal_state_refuses_actions():
    state = plateau.load_game("marbles(n=2,k=2)").new_initial_state()
    state.apply_action(state.string_to_action("2"))
    assert state.is_terminal()
    with pytest.raises(ValueError, match="already over"):
        state.apply_action(0)
    with pytest.raises(ValueError, match="over"):
        plateau.search(state)
    with pytest.raises(ValueError, match="over"):
        plateau.bot("random").step(state)


def test_messages_are_the_command_lines():
    """The same one-line message as `plateau` prints after `error: `."""
    with pytest.raises(ValueError) as e:
        plateau.load_game("breakthrough(rows=3,columns=3)")
    cli = plateau.run  # the library's own command runner
    with pytest.raises(ValueError) as e2:
        cli("perft", "breakthrough(rows=3,columns=3)", "--depth", "1", "--json")
    assert str(e.value) == str(e2.value)


def test_interpreter_survives_many_errors():
    code = ("import plateau\n"
            "g = plateau.load_game('tic_tac_toe')\n"
            "for i in range(-5, 20):\n"
            "    s = g.new_initial_state()\n"
            "    try: s.apply_action(i)\n"
            "    except ValueError: pass\n"
            "print('alive')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "alive"


BG_START = "x=24:2,13:5,8:3,6:5 o=24:2,13:5,8:3,6:5"


@pytest.mark.parametrize("call,message", [
    # Positions: malformed, impossible dice, too many checkers, a point held by both, a half on a non-double.
    (lambda: plateau.load_game("backgammon").new_state("garbage"), "position"),
    (lambda: plateau.load_game("backgammon").new_state(BG_START + " x71"), "impossible dice"),
    (lambda: plateau.load_game("backgammon").new_state(BG_START + " x00"), "impossible dice"),
    (lambda: plateau.load_game("backgammon").new_state("x=24:9,13:9 o=24:2,13:5,8:3,6:5 x"), "15"),
    (lambda: plateau.load_game("backgammon").new_state("x=24:2,13:5,8:3,6:5 o=1:2,13:5,8:3,6:5 x"), "both"),
    (lambda: plateau.load_game("backgammon").new_state(BG_START + " x31.2"), "double"),
    (lambda: plateau.load_game("backgammon").new_state(BG_START), "three words"),
    # Moves: impossible dice at a roll, an illegal move, a malformed one, a move at a chance node.
    (lambda: plateau.load_game("backgammon").new_state(BG_START + " x").apply_moves("7-1"), "move 1 '7-1'"),
    (lambda: plateau.load_game("backgammon").new_state(BG_START + " x31").apply_moves("24/18"), "move 1 '24/18'"),
    (lambda: plateau.load_game("backgammon").new_state(BG_START + " x31").apply_moves("bar/"), "move 1 'bar/'"),
    (lambda: plateau.load_game("backgammon").new_state(BG_START + " x31").apply_moves("13/10 6/5 6/5"), "move 2 '6/5'"),
    (lambda: plateau.load_game("backgammon").new_state(BG_START + " x31").string_to_action("24/30"), "24/30"),
    (lambda: plateau.load_game("backgammon").new_state(BG_START + " x").apply_moves("24/18"), "move 1 '24/18'"),
    (lambda: plateau.load_game("backgammon").new_initial_state().apply_action(10**6), "not legal"),
    (lambda: plateau.load_game("backgammon(gammons=maybe)"), "gammons"),
])
def test_backgammon_bad_input_is_one_line(call, message):
    with pytest.raises(ValueError, match=message) as e:
        call()
    assert "\n" not in str(e.value) and str(e.value)
