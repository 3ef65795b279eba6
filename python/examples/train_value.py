"""Train a tiny value function with NumPy from plateau's playouts, then search with it.

1. Sample positions by random play; label each with the mean result of random playouts from it (a batched call:
   `game.random_playouts(n, state=s)`), from the point of view of the player to move.
2. Fit a linear model on the observation tensor (least squares, with the side to move as a feature).
3. Plug it into plateau's alpha-beta as a Python evaluation (`plateau.search(..., evaluate=f)`), and play it against
   the same search with the game's simple evaluation.

    python python/examples/train_value.py --positions 2000
"""

import argparse
import random

import numpy as np

import plateau


def features(state):
    x = state.observation_tensor(0).ravel()
    return np.concatenate([x, [1.0, 1.0 if state.current_player() == 0 else -1.0]])


def sample(game, positions, playouts, rng):
    xs, ys = [], []
    while len(xs) < positions:
        state = game.new_initial_state()
        for _ in range(rng.randrange(0, 30)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        r = game.random_playouts(playouts, seed=rng.randrange(1 << 30), state=state)
        xs.append(features(state))
        ys.append(r[:, 0].mean())  # the first player's expected result
    return np.array(xs), np.array(ys)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="breakthrough(rows=6,columns=5)")
    parser.add_argument("--positions", type=int, default=1500)
    parser.add_argument("--playouts", type=int, default=64)
    parser.add_argument("--games", type=int, default=4)
    args = parser.parse_args()
    rng = random.Random(1)
    game = plateau.load_game(args.game)

    x, y = sample(game, args.positions, args.playouts, rng)
    split = int(0.8 * len(x))
    w, *_ = np.linalg.lstsq(x[:split], y[:split], rcond=None)
    test_error = np.mean((x[split:] @ w - y[split:]) ** 2)
    baseline = np.mean((y[split:] - y[:split].mean()) ** 2)
    print(f"{len(x)} positions: test MSE {test_error:.4f} (predicting the mean: {baseline:.4f})")

    def value(state):
        v = float(features(state) @ w)  # the first player's expected result
        return 1000 * (v if state.current_player() == 0 else -v)

    score = 0.0
    for i in range(args.games):
        state = game.new_initial_state()
        learned = i % 2  # the learned evaluation plays first in even games
        while not state.is_terminal():
            if state.current_player() == (0 if learned == 0 else 1):
                action = plateau.search(state, "alphabeta(depth=2)", evaluate=value)["best_action"]
            else:
                action = plateau.search(state, "alphabeta(depth=2)")["best_action"]
            state.apply_action(action)
        score += state.returns()[0 if learned == 0 else 1]
    print(f"learned evaluation vs simple evaluation, alpha-beta depth 2: {score:+.0f} over {args.games} games")


if __name__ == "__main__":
    main()
