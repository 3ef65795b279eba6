"""OpenSpiel's algorithms on plateau's games, and plateau's bots on OpenSpiel's games."""

import numpy as np
import pytest

import plateau

pyspiel = pytest.importorskip("pyspiel")
mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
evaluate_bots = pytest.importorskip("open_spiel.python.algorithms.evaluate_bots")

from plateau.openspiel import PlateauBot, PlateauGame, plateau_game_string  # noqa: E402


def test_openspiel_mcts_plays_a_plateau_game():
    game = PlateauGame("tic_tac_toe")
    state = game.new_initial_state()
    assert state.legal_actions() == list(range(9))
    assert state.observation_tensor(0) == list(np.ravel(game.plateau_game.new_initial_state().observation_tensor(0)))
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=2, random_state=rng)
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=200, evaluator=evaluator, random_state=rng, solve=True)
    random_bot = pyspiel.make_uniform_random_bot(1, 5)
    results = [evaluate_bots.evaluate_bots(game.new_initial_state(), [bot, random_bot], rng) for _ in range(5)]
    # MCTS with 200 simulations (and its solver) does not lose tic-tac-toe to a random player as the first player.
    assert all(r[0] >= 0 for r in results), results
    assert sum(r[0] for r in results) >= 3, results


def test_openspiel_state_of_a_plateau_game_clones_and_ends():
    game = PlateauGame("breakthrough(rows=5,columns=4,piece_rows=1)")
    state = game.new_initial_state()
    clone = state.clone()
    state.apply_action(state.legal_actions()[0])
    assert clone.history() == [] and len(state.history()) == 1
    rng = np.random.RandomState(1)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert sorted(state.returns()) == [-1.0, 1.0]


def test_plateau_bot_plays_openspiel_games():
    for spiel_name, wins_needed in [("tic_tac_toe", 0), ("connect_four", 3), ("breakthrough(rows=6,columns=5)", 3)]:
        spiel = pyspiel.load_game(spiel_name)
        ours = PlateauBot(spiel, "alphabeta(depth=3)")
        rng = np.random.RandomState(5)
        total = 0.0
        for game_index in range(4):
            random_bot = pyspiel.make_uniform_random_bot(1 - game_index % 2, game_index)
            bots = [ours, random_bot] if game_index % 2 == 0 else [random_bot, ours]
            returns = evaluate_bots.evaluate_bots(spiel.new_initial_state(), bots, rng)
            mine = returns[game_index % 2]
            assert mine >= 0, (spiel_name, returns)
            total += mine
        assert total >= wins_needed, (spiel_name, total)


def test_game_strings_of_openspiel_games():
    assert plateau_game_string(pyspiel.load_game("breakthrough(rows=6,columns=5)")) == \
        "breakthrough(columns=5,rows=6)"
    assert plateau_game_string(pyspiel.load_game("oware")) == "oware(houses=6,seeds=4)"
    assert plateau_game_string(pyspiel.load_game("pig")) == "pig(die=6,target=100)"
    assert plateau_game_string(pyspiel.load_game("backgammon(scoring_type=full_scoring)")) == \
        "backgammon(scoring=gammons)"
    with pytest.raises(ValueError, match="piglet"):
        plateau_game_string(pyspiel.load_game("pig(piglet=true)"))
    with pytest.raises(ValueError, match="kuhn_poker"):
        plateau_game_string(pyspiel.load_game("kuhn_poker"))


def test_plateau_bot_plays_openspiel_backgammon_and_pig():
    """Backgammon's actions are matched by the position they lead to (`same_result`), Pig's are OpenSpiel's."""
    for spiel_name, player in [("backgammon", "expectimax(depth=1)"), ("pig(winscore=30)", "expectimax(depth=3)")]:
        spiel = pyspiel.load_game(spiel_name)
        ours = PlateauBot(spiel, player)
        rng = np.random.RandomState(3)
        total = 0.0
        for game_index in range(2):
            random_bot = pyspiel.make_uniform_random_bot(1 - game_index % 2, game_index)
            bots = [ours, random_bot] if game_index % 2 == 0 else [random_bot, ours]
            returns = evaluate_bots.evaluate_bots(spiel.new_initial_state(), bots, rng)
            total += returns[game_index % 2]
        assert total >= 0, (spiel_name, total)
