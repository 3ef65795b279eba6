"""plateau and OpenSpiel (an independent implementation) agree on random games: the same legal actions in every
position, the same end and the same returns, and the same observation tensors where the layouts are the same."""

import random

import numpy as np
import pytest

import plateau

pyspiel = pytest.importorskip("pyspiel")

# (plateau game string, OpenSpiel game string, games to play, compare tensors)
SAME_ACTIONS = [
    ("breakthrough", "breakthrough", 20, True),
    ("breakthrough(rows=6,columns=5)", "breakthrough(rows=6,columns=5)", 40, True),
    ("connect_four", "connect_four", 60, True),
    ("tic_tac_toe", "tic_tac_toe", 100, False),
    ("othello", "othello", 20, False),
    ("oware", "oware", 20, True),
    ("pig", "pig", 10, True),
    ("pig(target=20,die=4)", "pig(winscore=20,diceoutcomes=4)", 40, True),
]


@pytest.mark.parametrize("ours,theirs,games,tensors", SAME_ACTIONS)
def test_same_actions_and_returns(ours, theirs, games, tensors):
    game = plateau.load_game(ours)
    spiel = pyspiel.load_game(theirs)
    assert game.num_distinct_actions() == spiel.num_distinct_actions()
    if tensors:
        assert game.observation_tensor_shape() == spiel.observation_tensor_shape()
    rng = random.Random(ours)
    positions = 0
    for _ in range(games):
        s, t = game.new_initial_state(), spiel.new_initial_state()
        while not t.is_terminal():
            assert not s.is_terminal(), f"{ours}: plateau ended early after {t.history()}"
            assert s.current_player() == t.current_player()
            assert s.legal_actions() == t.legal_actions(), f"{ours} after {t.history()}"
            if t.is_chance_node():
                assert [a for a, _ in s.chance_outcomes()] == [a for a, _ in t.chance_outcomes()]
                assert [p for _, p in s.chance_outcomes()] == pytest.approx([p for _, p in t.chance_outcomes()])
            if tensors:
                for p in (0, 1):
                    np.testing.assert_allclose(
                        s.observation_tensor(p).ravel(), np.array(t.observation_tensor(p)), atol=1e-6)
            a = rng.choice(t.legal_actions())
            s.apply_action(a)
            t.apply_action(a)
            positions += 1
        assert s.is_terminal(), f"{ours}: OpenSpiel ended, plateau did not, after {t.history()}"
        assert s.returns() == t.returns(), t.history()
        assert s.history() == t.history()
    assert positions > games


def test_chess_legal_moves_agree():
    """Chess has no common numbering (OpenSpiel's is AlphaZero's): the legal moves are compared as UCI text, and the
    observation tensors (OpenSpiel's layout, repetitions and castling rights included)."""
    game = plateau.load_game("chess")
    spiel = pyspiel.load_game("chess")
    assert game.observation_tensor_shape() == spiel.observation_tensor_shape()
    rng = random.Random(7)
    for _ in range(6):
        s, t = game.new_initial_state(), spiel.new_initial_state()
        for _ in range(120):
            if t.is_terminal() or s.is_terminal():
                break
            board = t.board()
            theirs = {pyspiel.chess.action_to_move(a, board).to_lan(): a for a in t.legal_actions()}
            ours = set(s.legal_moves())
            assert ours == set(theirs), t
            for p in (0, 1):
                np.testing.assert_array_equal(s.observation_tensor(p).ravel(), np.array(t.observation_tensor(p)),
                                              err_msg=str(t))
            move = rng.choice(sorted(ours))
            s.apply_action(s.string_to_action(move))
            t.apply_action(theirs[move])
        assert s.position().split()[:4] == str(t).split()[:4]


def _bg_key(state):
    """A backgammon position as both observers' tensors (OpenSpiel keeps the dice in the order rolled, plateau low
    then high: the dice are compared sorted)."""
    key = []
    for p in (0, 1):
        v = [float(x) for x in np.asarray(state.observation_tensor(p)).ravel()]
        key += v[:198] + sorted(v[198:])
    return tuple(key)


def _bg_results(state):
    """Every legal action's resulting position, by action."""
    out = {}
    for a in state.legal_actions():
        c = state.clone()
        c.apply_action(a)
        out[a] = _bg_key(c)
    return out


@pytest.mark.parametrize("ours,theirs", [pytest.param("backgammon", "backgammon", marks=pytest.mark.xfail(
    strict=True, reason="known open defect: in a bear-off position of the first random game the sets of reachable "
    "positions differ (found at the end of session 10, not yet diagnosed)")),
                                         ("backgammon(gammons=true)", "backgammon(scoring_type=full_scoring)")])
def test_backgammon_agrees_move_by_move(ours, theirs):
    """OpenSpiel numbers a turn's two checker steps as one action and lists every order of the same steps (several
    actions, one result), and rolls as 36 ordered outcomes; plateau lists each distinct result once and rolls as 21.
    So the games are compared by results: in every position, the same player, the same tensors, the same set of
    positions reachable by the legal moves, and at a chance node the same probability for each distinct roll; then
    OpenSpiel's random choice is played in plateau by the action that reaches the same position. Same returns."""
    game, spiel = plateau.load_game(ours), pyspiel.load_game(theirs)
    assert game.observation_tensor_shape() == spiel.observation_tensor_shape()
    rng = random.Random(ours)
    decisions = 0
    for _ in range(6):
        s, t = game.new_initial_state(), spiel.new_initial_state()
        while not t.is_terminal():
            assert s.current_player() == t.current_player(), t
            assert _bg_key(s) == _bg_key(t), t
            ours_results, theirs_results = _bg_results(s), _bg_results(t)
            assert len(set(ours_results.values())) == len(ours_results), "plateau lists each result once"
            assert set(ours_results.values()) == set(theirs_results.values()), t
            if t.is_chance_node():
                prob = dict(s.chance_outcomes())
                for a, key in ours_results.items():
                    theirs_p = sum(p for b, p in t.chance_outcomes() if theirs_results[b] == key)
                    assert prob[a] == pytest.approx(theirs_p), (s.action_to_string(a), t)
                b = rng.choice([b for b, _ in t.chance_outcomes()])
            else:
                b = rng.choice(t.legal_actions())
                decisions += 1
            t.apply_action(b)
            s.apply_action(next(a for a, key in ours_results.items() if key == theirs_results[b]))
        assert s.is_terminal(), t
        assert _bg_key(s) == _bg_key(t)
        assert s.returns() == t.returns(), t
    assert decisions > 100
