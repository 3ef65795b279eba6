"""The native `plateau.State` API as complete as OpenSpiel's for writing algorithms without OpenSpiel: information
states, legal-action masks, `child`, `undo_action`, the game's type, utility bounds and length. Checked on plateau
alone (undo restores everything, bounds hold along random games, a tabular algorithm runs on the native API) and
against OpenSpiel (the same information-state strings, the same partition into information sets on phantom
tic-tac-toe, the same masks, types and bounds), and OpenSpiel's own outcome-sampling MCCFR on the adapter."""

import random

import pytest

import plateau

GAMES = ["tic_tac_toe", "connect_four", "breakthrough(rows=5,columns=4)", "othello", "oware(houses=3,seeds=2)",
         "phantom_tic_tac_toe", "breakthrough(rows=5,columns=3,information=imperfect)", "pig(target=10)",
         "backgammon", "matching_pennies(rounds=2)", "chess"]


def random_action(state, rng):
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        return rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
    return rng.choice(state.legal_actions())


def snapshot(state):
    players = (0, 1)
    return (state.history(), state.position(), state.current_player(), state.is_terminal(),
            [state.observation_string(p) for p in players],
            [state.information_state_string(p) for p in players],
            state.legal_actions() if not state.is_simultaneous_node() else None)


@pytest.mark.parametrize("text", GAMES)
def test_child_and_undo_action_restore_everything(text):
    game = plateau.load_game(text)
    rng = random.Random(text)
    for _ in range(3):
        state = game.new_initial_state()
        trail = []
        while not state.is_terminal() and len(trail) < 120:
            if state.is_simultaneous_node():
                joint = [rng.choice(state.legal_actions(p)) for p in (0, 1)]
                before = state.clone()
                state.apply_actions(joint)
                with pytest.raises(ValueError, match="joint move"):
                    state.clone().undo_action(0, joint[0])
                trail = []  # a joint move cannot be taken back: start over from here
                assert before.history() + joint == state.history()
                continue
            a = random_action(state, rng)
            before = snapshot(state)
            child = state.child(a)
            assert snapshot(state) == before, "child() changed its parent"
            mover = state.current_player()
            state.apply_action(a)
            assert snapshot(child) == snapshot(state)
            trail.append((mover, a, before))
        # Take everything back, checking each state on the way.
        for mover, a, before in reversed(trail):
            wrong = next(b for b in range(game.num_distinct_actions() + 1) if b != a)
            with pytest.raises(ValueError, match="the last action was"):
                state.clone().undo_action(mover, wrong)
            state.undo_action(mover, a)
            assert snapshot(state) == before
    with pytest.raises(ValueError, match="no action was applied"):
        game.new_initial_state().undo_action(0, 0)


@pytest.mark.parametrize("text", GAMES)
def test_masks_types_and_bounds_hold_along_random_games(text):
    game = plateau.load_game(text)
    kind, t = game.kind(), game.get_type()
    assert t.dynamics == ("simultaneous" if kind["simultaneous"] else "sequential")
    assert t.chance_mode == ("explicit_stochastic" if kind["chance"] else "deterministic")
    assert t.information == ("imperfect_information" if kind["hidden"] else "perfect_information")
    assert t.provides_information_state_string
    assert t.provides_information_state_tensor == (game.observation_tensor_size() > 0 and not kind["hidden"])
    assert game.min_utility() == -game.max_utility() and game.utility_sum() == 0.0
    rng = random.Random(text)
    longest = 0
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in (0, 1)])
                continue
            mask = state.legal_actions_mask()
            assert [i for i, m in enumerate(mask) if m] == state.legal_actions()
            if state.is_chance_node():
                assert len(mask) == len(state.chance_outcomes())
            else:
                assert len(mask) == game.num_distinct_actions()
                if t.provides_information_state_tensor:
                    assert state.information_state_tensor().shape == tuple(game.information_state_tensor_shape())
            state.apply_action(random_action(state, rng))
        longest = max(longest, len(state.history()))
        assert all(abs(r) <= game.max_utility() for r in state.returns())
        assert [state.player_return(p) for p in (0, 1)] == state.returns()
    if game.max_game_length() is not None and not kind["simultaneous"]:
        assert longest <= game.max_game_length()
    if kind["hidden"]:
        with pytest.raises(ValueError, match="hidden information"):
            game.new_initial_state().information_state_tensor()


def test_history_str_and_perfect_information_state_are_the_actions():
    state = plateau.load_game("tic_tac_toe").new_initial_state()
    state.apply_moves("b2 a3 c1")
    assert state.history_str() == "4, 0, 8" == state.information_state_string(0) == state.information_state_string(1)
    # Made from a position: the position comes first, so that two starts are told apart.
    later = plateau.load_game("tic_tac_toe").new_state(state.position())
    later.apply_action(1)
    assert later.information_state_string(0).endswith(" | 1")


def info_sets(game_or_state_root, depth, text_of):
    """Every information state of each player met at that player's turns up to `depth` actions, by a walk of
    `child()` from the root."""
    found = ({}, {})

    def walk(state, d):
        if state.is_terminal() or d == depth:
            return
        p = state.current_player()
        found[p].setdefault(text_of(state, p), set()).add(tuple(state.legal_actions()))
        for a in state.legal_actions():
            walk(state.child(a), d + 1)

    walk(game_or_state_root, 0)
    return found


def test_a_tabular_algorithm_on_the_native_api_alone():
    """Information sets of phantom tic-tac-toe found with the native API only: every history of one information set
    has the same legal actions (a player knows what it may do), and the player to move sees fewer distinct states
    than histories."""
    game = plateau.load_game("phantom_tic_tac_toe")
    sets = info_sets(game.new_initial_state(), 4, lambda s, p: s.information_state_string(p))
    for p in (0, 1):
        assert sets[p], p
        assert all(len(actions) == 1 for actions in sets[p].values()), "an information set with two action sets"


def test_same_information_states_as_openspiel_on_perfect_information_games():
    pyspiel = pytest.importorskip("pyspiel")
    # OpenSpiel's Breakthrough has no information state string: its masks and history texts are compared.
    for ours, theirs in [("tic_tac_toe", "tic_tac_toe"), ("connect_four", "connect_four"),
                         ("breakthrough(rows=6,columns=5)", "breakthrough(rows=6,columns=5)")]:
        game, spiel = plateau.load_game(ours), pyspiel.load_game(theirs)
        has_info = spiel.get_type().provides_information_state_string
        assert has_info != ours.startswith("breakthrough"), ours
        assert game.max_utility() == spiel.max_utility() and game.min_utility() == spiel.min_utility()
        rng = random.Random(ours)
        for _ in range(10):
            s, t = game.new_initial_state(), spiel.new_initial_state()
            while not t.is_terminal():
                for p in (0, 1) if has_info else ():
                    assert s.information_state_string(p) == t.information_state_string(p)
                assert s.legal_actions_mask() == t.legal_actions_mask()
                assert s.history_str() == t.history_str()
                a = rng.choice(t.legal_actions())
                s.apply_action(a)
                t.apply_action(a)


def test_types_and_lengths_are_openspiels():
    pyspiel = pytest.importorskip("pyspiel")
    for ours, theirs in [("tic_tac_toe", "tic_tac_toe"), ("connect_four", "connect_four"),
                         ("phantom_tic_tac_toe", "phantom_ttt"), ("pig", "pig"),
                         ("backgammon(gammons=true)", "backgammon(scoring_type=full_scoring)")]:
        mine, spiel = plateau.load_game(ours).get_type(), pyspiel.load_game(theirs).get_type()
        assert mine.dynamics == spiel.dynamics.name.lower(), ours
        assert mine.chance_mode == spiel.chance_mode.name.lower(), ours
        assert mine.information == spiel.information.name.lower(), ours
        assert plateau.load_game(ours).max_utility() == pyspiel.load_game(theirs).max_utility(), ours
    for ours, theirs in [("tic_tac_toe", "tic_tac_toe"), ("connect_four", "connect_four"),
                         ("phantom_tic_tac_toe", "phantom_ttt")]:
        assert plateau.load_game(ours).max_game_length() == pyspiel.load_game(theirs).max_game_length(), ours


def test_phantom_information_sets_partition_histories_as_openspiels():
    """At the player's turns, two histories share a plateau information state exactly when they share an OpenSpiel
    one: a bijection between the two texts over every node met up to depth 5 (OpenSpiel's phantom_ttt is an
    independent implementation). Elsewhere plateau's text is finer: it holds what the player was told since its
    turn (the opponent placed a mark), where OpenSpiel's text is the same whether the opponent moved or not."""
    pyspiel = pytest.importorskip("pyspiel")
    game, spiel = plateau.load_game("phantom_tic_tac_toe"), pyspiel.load_game("phantom_ttt")
    pairs = set()

    def walk(s, t, d):
        if t.is_terminal() or d == 5:
            return
        p = t.current_player()
        pairs.add((p, s.information_state_string(p), t.information_state_string(p)))
        assert s.legal_actions() == t.legal_actions()
        for a in t.legal_actions():
            walk(s.child(a), t.child(a), d + 1)

    walk(game.new_initial_state(), spiel.new_initial_state(), 0)
    ours = {(p, a) for p, a, _ in pairs}
    theirs = {(p, b) for p, _, b in pairs}
    assert len(ours) == len(pairs) == len(theirs), (len(ours), len(pairs), len(theirs))
    assert len(ours) > 250


def test_openspiel_outcome_sampling_mccfr_runs_on_the_adapter():
    pytest.importorskip("pyspiel")
    mccfr = pytest.importorskip("open_spiel.python.algorithms.outcome_sampling_mccfr")
    from plateau.openspiel import PlateauGame

    game = PlateauGame("phantom_tic_tac_toe")
    assert game.get_type().provides_information_state_string
    state = game.new_initial_state()
    state.apply_action(4)
    assert state.information_state_string(0) == state.plateau_state.information_state_string(0)
    assert game.max_game_length() == 17
    solver = mccfr.OutcomeSamplingSolver(game)
    for _ in range(300):
        solver.iteration()
    policy = solver.average_policy()
    probs = policy.action_probabilities(game.new_initial_state())
    assert sorted(probs) == list(range(9)) and abs(sum(probs.values()) - 1) < 1e-9
