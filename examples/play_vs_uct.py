#!/usr/bin/env python3
"""A shipped model against the UCT baseline, colours alternating, from Python.

    PYTHONPATH=build/python python3 examples/play_vs_uct.py [--model quax-5.pt]
        [--games 4] [--sims 100] [--uct 1000]

Prints each game's record and the score; the last line is JSON for scripts.
"""
import argparse
import json

import quax


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="quax-5.pt", help="a model file, or a shipped model's name")
    parser.add_argument("--size", type=int, default=None, help="board size (default: the model's)")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--sims", type=int, default=100)
    parser.add_argument("--uct", type=int, default=1000, help="UCT playouts per move")
    args = parser.parse_args()

    model = quax.load_model(args.model)
    net = quax.Search(model, simulations=args.sims)
    uct = quax.Search("uct:%d" % args.uct, seed=1)
    wins = 0
    for g in range(args.games):
        game = model.game(args.size)
        model_colour = "black" if g % 2 == 0 else "white"
        while not game.is_over:
            player = net if game.to_move == model_colour else uct
            game.apply(player.best_action(game))
        wins += game.winner == model_colour
        print("game %d: model %s, winner %s: %s" % (g + 1, model_colour, game.winner, game.record()))
    print("model %d of %d against uct:%d" % (wins, args.games, args.uct))
    print(json.dumps({"games": args.games, "model_wins": wins}))


if __name__ == "__main__":
    main()
