"""plateau's engine against OpenSpiel's MCTS (random rollouts) on OpenSpiel's own checkers, at about equal time per
move: the engine plays checkers(rule=openspiel) in step; each OpenSpiel turn (a multi-jump: several actions) is one
plateau move. Prints each game and the mean seconds per move of both (pick the simulations so that MCTS's mean is
at least the engine's). Needs the Python bindings and open_spiel in the same Python:

    python scripts/checkers_vs_openspiel_mcts.py GAMES SIMULATIONS "engine(time=500ms)"
"""
import sys, time
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent / "python" / "tests"))
from test_checkers_openspiel import turns
import numpy as np
import pyspiel
import plateau
from open_spiel.python.algorithms import mcts

games, sims, spec = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
game = pyspiel.load_game("checkers")
ours = plateau.load_game("checkers(rule=openspiel)")
score, spent = [], {"engine": [], "mcts": []}
for g in range(games):
    rng = np.random.RandomState(g)
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=sims, evaluator=mcts.RandomRolloutEvaluator(1, rng),
                       random_state=rng)
    eng = plateau.bot(spec)
    engine_player = g % 2
    t, s = game.new_initial_state(), ours.new_initial_state()
    while not t.is_terminal():
        p = t.current_player()
        options = turns(t)
        t0 = time.time()
        if p == engine_player:
            text = s.action_to_string(eng.step(s))
            seq = options[text]
            spent["engine"].append(time.time() - t0)
        else:
            seq, u = [], t.clone()
            while not u.is_terminal() and u.current_player() == p:
                a = bot.step(u)
                seq.append(a)
                u.apply_action(a)
            spent["mcts"].append(time.time() - t0)
            text = [k for k, v in options.items() if v == seq][0]
        for a in seq:
            t.apply_action(a)
        s.apply_action(s.string_to_action(text))
    r = t.returns()[engine_player]
    score.append(r)
    print(f"game {g}: engine plays {'first' if engine_player == 0 else 'second'}, result {r:+.0f}, "
          f"{len(t.history())} actions", flush=True)
w, d, l = sum(x > 0 for x in score), sum(x == 0 for x in score), sum(x < 0 for x in score)
print(f"engine {spec} vs OpenSpiel MCTS({sims} simulations): {w} wins {d} draws {l} losses; mean seconds a move: "
      f"engine {np.mean(spent['engine']):.3f}, mcts {np.mean(spent['mcts']):.3f}")
