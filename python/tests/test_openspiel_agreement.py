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
    ("phantom_tic_tac_toe", "phantom_ttt", 100, True),
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


# Per observer (Tesauro's layout): 192 board entries, then its bar, borne off, to-play (192-194), the opponent's
# (195-197), then the two dice (198-199).
BG_TO_PLAY, BG_DICE = (194, 197), 198


def _bg_key(state):
    """A backgammon position as both observers' tensors (OpenSpiel keeps the dice in the order rolled, plateau low
    then high: the dice are compared sorted). A finished game is compared without the to-play flags and the dice:
    when a game is won by the first half of a double, OpenSpiel's final state still has the winner to play and the
    double's dice in its tensor (its extra-turn bookkeeping runs before the end is looked at), where plateau's has
    nobody to play and no dice; the board, bars, borne-off counts and returns are the same."""
    key = []
    for p in (0, 1):
        v = [float(x) for x in np.asarray(state.observation_tensor(p)).ravel()]
        if state.is_terminal():
            key += [x for i, x in enumerate(v[:BG_DICE]) if i not in BG_TO_PLAY]
        else:
            key += v[:BG_DICE] + sorted(v[BG_DICE:])
    return tuple(key)


def _bg_end_flags(state, p):
    """The to-play flags and the dice of observer `p`'s tensor."""
    v = [float(x) for x in np.asarray(state.observation_tensor(p)).ravel()]
    return [v[i] for i in BG_TO_PLAY] + sorted(v[BG_DICE:])


def _bg_results(state):
    """Every legal action's resulting position, by action."""
    out = {}
    for a in state.legal_actions():
        c = state.clone()
        c.apply_action(a)
        out[a] = _bg_key(c)
    return out


@pytest.mark.parametrize("ours,theirs", [("backgammon", "backgammon"),
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
    decisions = half_doubles = 0
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
        # The end, exactly: plateau's final tensor has nobody to play and no dice; OpenSpiel's the same, or, after a
        # game won by the first half of a double, the winner still to play with that double's dice.
        winner = 0 if t.returns()[0] > 0 else 1
        for p in (0, 1):
            assert _bg_end_flags(s, p) == [0, 0, 0, 0]
            theirs = _bg_end_flags(t, p)
            if theirs != [0, 0, 0, 0]:
                half_doubles += 1
                assert theirs[:2] == ([1, 0] if p == winner else [0, 1]) and theirs[2] == theirs[3] > 0, theirs
    assert decisions > 100
    if ours == "backgammon":
        assert half_doubles == 4  # two games of this seed are won by half a double (seen by both observers)
