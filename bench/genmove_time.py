#!/usr/bin/env python3
"""Seconds a genmove over the positions of recorded games, for comparing one engine's
settings on the same positions (a search that stops when its move is settled, tree reuse).

Each game of --records (the JSON lines bench/gtp_match.py writes) is replayed from the empty
board; at every position where --side (a prefix of the player's name in the record, e.g.
"hex-11.pt") moved, the engine is asked `genmove` there and the recorded move is played
instead of its answer, so every setting meets the same positions. The positions come in game
order, as in a game, so a tree kept between moves finds the position two plies below its last
root. Prints the genmoves, the mean seconds a genmove and, with --moves, writes each answer
and its seconds one per line (two runs whose searches differ only in when they stop must
answer alike).

    bench/genmove_time.py --records bench/results/hex11-mohex-equal-time-2026-11-29.jsonl \\
        --games 10 --side hex-11.pt \\
        --engine 'build/quax gtp --variant hex --size 11 --player checkpoints/hex-11.pt:sims=1400' \\
        --setup 'pie off'

Exit status: 0, 1 when the engine failed, 2 for bad arguments.
"""
import argparse
import json
import sys
import time

from gtp_match import Engine, EngineError


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", required=True, help="JSON lines of games (bench/gtp_match.py --results)")
    parser.add_argument("--games", type=int, default=10, help="the first N games of the records")
    parser.add_argument("--side", required=True, help="genmove where a player whose name starts so moved")
    parser.add_argument("--engine", required=True, help="the GTP engine's command line")
    parser.add_argument("--setup", default="", help="GTP commands sent once, ';'-separated")
    parser.add_argument("--move-seconds", type=float, default=600, help="longest wait for one answer")
    parser.add_argument("--moves", help="write the engine's answers here, one a line")
    args = parser.parse_args()
    if args.games < 1:
        parser.error("--games must be at least 1")
    try:
        with open(args.records) as f:
            games = [json.loads(line) for line in f if line.strip()][: args.games]
    except (OSError, ValueError) as e:
        print(f"genmove_time: cannot read {args.records}: {e}", file=sys.stderr)
        return 2
    engine = Engine("engine", args.engine, sys.stderr)
    answers, times = [], []
    try:
        for command in filter(None, (c.strip() for c in args.setup.split(";"))):
            engine.ask(command, args.move_seconds)
        for number, game in enumerate(games, 1):
            if game.get("black", "").startswith(args.side):
                ours = "black"
            elif game.get("white", "").startswith(args.side):
                ours = "white"
            else:
                print(f"genmove_time: game {number} has no player named {args.side}...", file=sys.stderr)
                return 2
            engine.ask("clear_board", args.move_seconds)
            colour = "black"
            for move in game["moves"].split():
                if colour == ours:
                    start = time.monotonic()
                    answers.append(engine.ask(f"genmove {colour}", args.move_seconds))
                    times.append(time.monotonic() - start)
                    engine.ask("undo", args.move_seconds)
                engine.ask(f"play {colour} {move}", args.move_seconds)
                colour = "white" if colour == "black" else "black"
    except EngineError as e:
        print(f"genmove_time: {e}", file=sys.stderr)
        return 1
    finally:
        engine.close()
    print(f"{len(answers)} genmoves over {len(games)} games: {sum(times) / len(answers):.3f} s a genmove")
    if args.moves:
        with open(args.moves, "w") as f:
            f.writelines(f"{move} {seconds:.3f}\n" for move, seconds in zip(answers, times))
    return 0


if __name__ == "__main__":
    sys.exit(main())
