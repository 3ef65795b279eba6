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
]


def sign(x):
    return (x > 0) - (x < 0)


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
            if tensors:
                for p in (0, 1):
                    np.testing.assert_allclose(
                        s.observation_tensor(p).ravel(), np.array(t.observation_tensor(p)), atol=1e-6)
            a = rng.choice(t.legal_actions())
            s.apply_action(a)
            t.apply_action(a)
            positions += 1
        assert s.is_terminal(), f"{ours}: OpenSpiel ended, plateau did not, after {t.history()}"
        ours_returns, theirs_returns = s.returns(), t.returns()
        # Oware's plateau result is the seed margin, OpenSpiel's its sign.
        assert [sign(x) for x in ours_returns] == [sign(x) for x in theirs_returns], t.history()
        assert s.history() == t.history()
    assert positions > games


def test_chess_legal_moves_agree():
    """Chess has no common numbering (OpenSpiel's is AlphaZero's): the legal moves are compared as UCI text."""
    game = plateau.load_game("chess")
    spiel = pyspiel.load_game("chess")
    rng = random.Random(7)
    for _ in range(4):
        s, t = game.new_initial_state(), spiel.new_initial_state()
        for _ in range(80):
            if t.is_terminal() or s.is_terminal():
                break
            board = t.board()
            theirs = {pyspiel.chess.action_to_move(a, board).to_lan(): a for a in t.legal_actions()}
            ours = set(s.legal_moves())
            assert ours == set(theirs), t
            move = rng.choice(sorted(ours))
            s.apply_action(s.string_to_action(move))
            t.apply_action(theirs[move])
        assert s.position().split()[:4] == str(t).split()[:4]
