"""plateau's engine against OpenSpiel's MCTS (random rollouts) on OpenSpiel's own checkers, at about equal time per
move: the engine plays checkers(rule=openspiel) in step; each OpenSpiel turn (a multi-jump: several actions) is one
plateau move. Prints each game and the mean seconds per move of both (pick the simulations so that MCTS's mean is
at least the engine's). Needs the Python bindings and open_spiel in the same Python:

    python scripts/checkers_vs_openspiel_mcts.py GAMES SIMULATIONS "engine(time=500ms)" [RECORD]

RECORD, if given, is a text file that keeps every game: one tab-separated line each (`game N`, the engine's side, the
result for the engine, the mean seconds a move of the engine and of MCTS, the number of moves of each, the moves in
plateau's notation). A second run with the same file plays only
the games not in it yet and counts the score over all of them, so an interrupted run goes on where it stopped.
"""
import sys, time
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent / "python" / "tests"))
from test_checkers_openspiel import turns
import numpy as np
import pyspiel
import plateau
from open_spiel.python.algorithms import mcts

USAGE = 'usage: checkers_vs_openspiel_mcts.py GAMES SIMULATIONS "engine(time=500ms)" [RECORD]'
if len(sys.argv) not in (4, 5) or not sys.argv[1].isdigit() or not sys.argv[2].isdigit() or int(sys.argv[2]) < 1:
    sys.exit(USAGE)
games, sims, spec = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
record = sys.argv[4] if len(sys.argv) == 5 else None
game = pyspiel.load_game("checkers")
ours = plateau.load_game("checkers(rule=openspiel)")
try:
    plateau.bot(spec).step(ours.new_initial_state())  # a bad player string fails here, at its first move
except Exception as e:
    sys.exit(f"{spec}: {e}")
score, spent = [], {"engine": [0.0, 0], "mcts": [0.0, 0]}  # spent: seconds and moves of each side, all games
done = {}  # game number -> (result, engine's and MCTS's mean seconds a move, engine's and MCTS's moves)
if record:
    try:
        with open(record) as f:
            for line in f:
                # A line without its end is a game the interruption cut: it is played again.
                if line.startswith("game ") and line.endswith("\n"):
                    f = line.split("\t")
                    done[int(f[0].split()[1])] = (float(f[2]), float(f[3]), float(f[4]), int(f[5]), int(f[6]))
    except FileNotFoundError:
        pass
    except (OSError, ValueError, IndexError) as e:
        sys.exit(f"{record}: not a record of this script ({e})")
    if done:
        print(f"{record}: {len(done)} games already played, kept", flush=True)
for g in range(games):
    if g in done:
        r, mean_engine, mean_mcts, n_engine, n_mcts = done[g]
        score.append(r)
        spent["engine"][0] += mean_engine * n_engine
        spent["engine"][1] += n_engine
        spent["mcts"][0] += mean_mcts * n_mcts
        spent["mcts"][1] += n_mcts
        continue
    rng = np.random.RandomState(g)
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=sims, evaluator=mcts.RandomRolloutEvaluator(1, rng),
                       random_state=rng)
    eng = plateau.bot(spec)
    engine_player = g % 2
    t, s = game.new_initial_state(), ours.new_initial_state()
    moves, own = [], {"engine": [], "mcts": []}
    while not t.is_terminal():
        p = t.current_player()
        options = turns(t)
        t0 = time.time()
        if p == engine_player:
            text = s.action_to_string(eng.step(s))
            seq = options[text]
            own["engine"].append(time.time() - t0)
        else:
            seq, u = [], t.clone()
            while not u.is_terminal() and u.current_player() == p:
                a = bot.step(u)
                seq.append(a)
                u.apply_action(a)
            own["mcts"].append(time.time() - t0)
            text = [k for k, v in options.items() if v == seq][0]
        for a in seq:
            t.apply_action(a)
        moves.append(text)
        s.apply_action(s.string_to_action(text))
    r = t.returns()[engine_player]
    score.append(r)
    for side in ("engine", "mcts"):
        spent[side][0] += sum(own[side])
        spent[side][1] += len(own[side])
    means = [float(np.mean(own[k])) if own[k] else 0.0 for k in ("engine", "mcts")]
    if record:
        side = "first" if engine_player == 0 else "second"
        with open(record, "a") as f:
            f.write(f"game {g}\t{side}\t{r:+.0f}\t{means[0]:.4f}\t{means[1]:.4f}\t{len(own['engine'])}\t"
                    f"{len(own['mcts'])}\t{' '.join(moves)}\n")
    print(f"game {g}: engine plays {'first' if engine_player == 0 else 'second'}, result {r:+.0f}, "
          f"{len(t.history())} actions", flush=True)
w, d, l = sum(x > 0 for x in score), sum(x == 0 for x in score), sum(x < 0 for x in score)


def mean(side):
    seconds, moves = spent[side]
    return seconds / moves if moves else 0.0


print(f"engine {spec} vs OpenSpiel MCTS({sims} simulations): {w} wins {d} draws {l} losses; mean seconds a move: "
      f"engine {mean('engine'):.3f}, mcts {mean('mcts'):.3f}")
