"""Compare two bots: a Python loop over plateau.bot (any player strings), then the same with plateau.match, which
alternates colours, varies openings and reports Elo (the fields of `plateau match --json`).

    python python/examples/compare_bots.py --a "alphabeta(depth=3)" --b "mcts(playouts=300)" --games 10
"""

import argparse

import plateau


def play(game, bots):
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    return state.returns()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="connect_four")
    parser.add_argument("--a", default="alphabeta(depth=4)")
    parser.add_argument("--b", default="mcts(playouts=300)")
    parser.add_argument("--games", type=int, default=4)
    args = parser.parse_args()

    game = plateau.load_game(args.game)
    a, b = plateau.bot(args.a), plateau.bot(args.b)
    score = 0.0
    for i in range(args.games):
        returns = play(game, [a, b] if i % 2 == 0 else [b, a])
        score += returns[i % 2]
    print(f"Python loop: {args.a} scores {score:+.0f} over {args.games} games against {args.b}")

    m = plateau.match(args.game, args.a, args.b, games=args.games, seed=1)
    print(f"plateau.match: A wins {m['wins_a']}, B wins {m['wins_b']}, draws {m['draws']}, elo {m['elo']}")


if __name__ == "__main__":
    main()
