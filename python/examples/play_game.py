"""Play a game against plateau's engine in the terminal (`--human`), or watch the engine play a random player.

    python python/examples/play_game.py                      # engine vs random on 6x5 Breakthrough
    python python/examples/play_game.py --human --game connect_four
"""

import argparse

import plateau


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--game", default="breakthrough(rows=6,columns=5)")
    parser.add_argument("--engine", default="engine(time=50ms)")
    parser.add_argument("--human", action="store_true", help="you play the first player")
    args = parser.parse_args()

    game = plateau.load_game(args.game)
    state = game.new_initial_state()
    players = [None if args.human else plateau.bot("random"), plateau.bot(args.engine)]
    while not state.is_terminal():
        print(state, "\n")
        player = state.current_player()
        if player == plateau.CHANCE:
            actions, probs = zip(*state.chance_outcomes())
            action = actions[0] if len(actions) == 1 else int(__import__("random").choices(actions, probs)[0])
        elif players[player] is None:
            while True:
                text = input(f"your move ({' '.join(state.legal_moves())}): ")
                try:
                    action = state.string_to_action(text)
                    break
                except ValueError as e:
                    print(e)
        else:
            action = players[player].step(state)
        print(f"player {player} plays {state.action_to_string(action)}")
        state.apply_action(action)
    print(state)
    print("returns", state.returns())


if __name__ == "__main__":
    main()
