#!/usr/bin/env python3
"""A match between two engines that speak GTP, refereed by `quax gtp`.

For measuring a model against a program outside the project (MoHex on Hex, for one) or two
`quax gtp` players against each other. Both engines get the same moves; a third process,
`quax gtp --player random`, holds the game: it refuses an illegal move (its maker loses the
game) and says when the game is won. The pie rule is off (engines differ in how they write
the swap): openings balance the first move instead, each played once with each engine as
Black, or with --mirror once with A as Black and its half-turn image once with B as Black, so
that every game starts from its own first move. Every game is appended to --results as one JSON line (with each engine's seconds spent
on its genmoves); the summary gives engine A's score with a 95% interval, the Elo difference it
stands for, and each engine's mean time a move.

    bench/gtp_match.py --variant hex --size 9 --openings all \\
        --a 'build/quax gtp --model checkpoints/hex-11.pt --sims 200' --a-setup 'variant hex 9' \\
        --b 'mohex --use-logfile=false' --b-setup 'boardsize 9;param_mohex max_games 5000' \\
        --results hex9-vs-mohex.jsonl

Exit status: 0 when every game was played, 1 when an engine failed (died, answered a setup
command with an error, or said nothing within --move-seconds), 2 for bad arguments.
"""
import argparse
import json
import math
import os
import re
import select
import shlex
import subprocess
import sys
import time


class EngineError(RuntimeError):
    pass


# The longest answer taken from an engine (a board of 26x26 with its labels is under 4 KB): an
# engine writing without end is stopped there, not read into memory.
MAX_ANSWER_BYTES = 1 << 20


class Engine:
    """One GTP process: a command goes in as a line, the answer is read up to its blank line."""

    def __init__(self, name, command, log):
        self.name = name
        self.pending = b""  # read from the pipe, not yet taken as lines
        try:
            self.proc = subprocess.Popen(shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=log)
        except OSError as e:
            raise EngineError(f"{name}: cannot start {command!r}: {e}") from e

    def read_line(self, command, deadline, seconds):
        # The pipe is read raw: a buffered reader may hold a line that select() then waits for.
        while b"\n" not in self.pending:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.proc.stdout], [], [], left)[0]:
                raise EngineError(f"{self.name}: no answer to {command!r} within {seconds:g} s")
            if len(self.pending) > MAX_ANSWER_BYTES:
                raise EngineError(f"{self.name}: answer to {command!r} longer than {MAX_ANSWER_BYTES} bytes")
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:  # its output closed: it is exiting, or about to
                try:
                    status = self.proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    status = "unknown: it closed its output"
                raise EngineError(f"{self.name}: exited (status {status}) during {command!r}")
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        return line.decode("utf-8", "replace").rstrip("\r")

    def unasked_output(self):
        """What the engine wrote since its last answer (a second answer to one command)."""
        while select.select([self.proc.stdout], [], [], 0)[0]:
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                break
            self.pending += chunk
            if len(self.pending) > MAX_ANSWER_BYTES:
                break
        return self.pending.strip()

    def ask(self, command, seconds):
        """The answer's text without its '= ', or EngineError for a '?' answer, a death, a
        timeout, an answer past MAX_ANSWER_BYTES or output nobody asked for."""
        extra = self.unasked_output()
        if extra:
            first = extra.split(b"\n", 1)[0][:80].decode("utf-8", "replace")
            raise EngineError(f"{self.name}: wrote {first!r} before {command!r}: more answers than commands")
        try:
            self.proc.stdin.write((command + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise EngineError(f"{self.name}: gone before {command!r} ({e})") from e
        lines, size, deadline = [], 0, time.monotonic() + seconds
        while True:
            line = self.read_line(command, deadline, seconds)
            if not lines and not line.strip():
                continue  # blank lines before an answer
            if not line.strip():
                break
            size += len(line) + 1
            if size > MAX_ANSWER_BYTES:
                raise EngineError(f"{self.name}: answer to {command!r} longer than {MAX_ANSWER_BYTES} bytes")
            lines.append(line)
        head = lines[0]
        if not head.startswith(("=", "?")):
            raise EngineError(f"{self.name}: answer to {command!r} is not GTP: {head!r}")
        text = "\n".join([head[1:].strip()] + lines[1:])
        if head.startswith("?"):
            raise EngineError(f"{self.name}: {command!r} refused: {text}")
        return text

    def close(self):
        try:
            self.proc.stdin.write(b"quit\n")
            self.proc.stdin.flush()
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()


def half_turn(cell, size):
    """The cell's image under the board's half turn (a1 <-> the far corner): on Hex and the
    square games a position and its image have the same value for the same player, so an
    opening and its image make a colour-balanced pair of distinct games."""
    match = re.fullmatch(r"([a-z])([0-9]+)", cell)
    if not match or ord(match.group(1)) - ord("a") >= size or not 1 <= int(match.group(2)) <= size:
        raise ValueError(f"{cell!r} is not a cell of a {size}x{size} board")
    return chr(ord("a") + size - 1 - (ord(match.group(1)) - ord("a"))) + str(size + 1 - int(match.group(2)))


def opposite(colour):
    return "white" if colour == "black" else "black"


def play_game(engines, black, referee, opening, seconds):
    """One game from the empty board, `opening` (a cell or None) played for Black first.
    engines: name -> Engine; black: the name playing Black. Returns the game's record, with each
    engine's time spent answering genmove and its number of genmoves (for time-fair comparisons)."""
    white = next(n for n in engines if n != black)
    by_colour = {"black": engines[black], "white": engines[white]}
    name_of = {"black": black, "white": white}
    seconds_used = {black: 0.0, white: 0.0}
    genmoves = {black: 0, white: 0}
    for engine in list(engines.values()) + [referee]:
        engine.ask("clear_board", seconds)
    moves, colour, winner, reason = [], "black", None, "connection"
    while winner is None:
        if opening is not None and not moves:
            move = opening
        else:
            asked = time.monotonic()
            answer = by_colour[colour].ask(f"genmove {colour}", seconds).split()
            if not answer:
                raise EngineError(f"{name_of[colour]}: an empty answer to 'genmove {colour}'")
            move = answer[0].lower()
            seconds_used[name_of[colour]] += time.monotonic() - asked
            genmoves[name_of[colour]] += 1
            if move == "resign":
                winner, reason = opposite(colour), f"{colour} resigned"
                break
        try:
            referee.ask(f"play {colour} {move}", seconds)
        except EngineError as e:
            winner, reason = opposite(colour), f"{colour}'s move {move!r} is illegal: {e}"
            break
        moves.append(move)
        for engine in by_colour.values():
            if engine is not by_colour[colour] or (opening is not None and len(moves) == 1):
                engine.ask(f"play {colour} {move}", seconds)
        result = referee.ask("winner", seconds)
        if result in ("black", "white"):
            winner = result
        elif result == "draw":
            winner, reason = "draw", "draw"
        colour = opposite(colour)
    return {"black": black, "white": white, "opening": opening or "", "moves": " ".join(moves),
            "winner": winner, "reason": reason,
            "seconds": {n: round(t, 3) for n, t in seconds_used.items()}, "genmoves": genmoves}


def score_summary(name, games):
    """Score of `name` over the games with its 95% interval, and the Elo difference."""
    def point(g):
        return 0.5 if g["winner"] == "draw" else 1.0 if g[g["winner"]] == name else 0.0

    n = len(games)
    points = sum(point(g) for g in games)
    p = points / n
    # Wilson's interval: sound at 0% and 100%, where the normal one shrinks to a point.
    z = 1.96
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    low, high = max(0.0, centre - half), min(1.0, centre + half)

    def elo(s):
        s = min(max(s, 0.5 / n), 1 - 0.5 / n)
        return -400 * math.log10(1 / s - 1)

    def seconds_a_move(engine):
        moves = sum(g["genmoves"][engine] for g in games)
        return sum(g["seconds"][engine] for g in games) / moves if moves else 0.0

    as_black = [g for g in games if g["black"] == name]
    black_points = sum(point(g) for g in as_black)
    other = next(e for e in (games[0]["black"], games[0]["white"]) if e != name)
    return (f"{name}: {points:g}/{n} ({100 * p:.1f}%, 95% {100 * low:.0f}-{100 * high:.0f}%), "
            f"as Black {black_points:g}/{len(as_black)}, as White {points - black_points:g}/{n - len(as_black)}; "
            f"Elo {elo(p):+.0f} ({elo(low):+.0f} to {elo(high):+.0f}); "
            f"seconds a move: {name} {seconds_a_move(name):.2f}, {other} {seconds_a_move(other):.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", required=True, help="the variant the referee holds (quax gtp's names)")
    parser.add_argument("--size", type=int, required=True)
    parser.add_argument("--a", required=True, help="engine A's command line")
    parser.add_argument("--b", required=True, help="engine B's command line")
    parser.add_argument("--a-name", default="A")
    parser.add_argument("--b-name", default="B")
    parser.add_argument("--a-setup", default="", help="commands sent to A once, ';' between them")
    parser.add_argument("--b-setup", default="", help="commands sent to B once, ';' between them")
    parser.add_argument("--openings", default="none",
                        help="'all' (every first move), a comma-separated list of cells, or 'none' (--games from the empty board)")
    parser.add_argument("--mirror", action="store_true",
                        help="each opening once with A as Black, then its half-turn image once with B as Black: every "
                             "game from its own first move, the colours balanced (the centre cell is refused)")
    parser.add_argument("--games", type=int, default=2, help="games from the empty board (with --openings none), colours alternating")
    parser.add_argument("--referee", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build", "quax"),
                        help="the quax binary")
    parser.add_argument("--move-seconds", type=float, default=120, help="the longest an engine may take to answer")
    parser.add_argument("--results", help="append each game here as a JSON line")
    parser.add_argument("--stderr", default=os.devnull, help="where the engines' stderr goes")
    args = parser.parse_args()
    if args.a_name == args.b_name:
        parser.error("the engines need two names")
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.mirror:
        if args.openings in ("all", "none"):
            parser.error("--mirror needs a list of --openings")
        firsts = [c.strip().lower() for c in args.openings.split(",") if c.strip()]
        try:
            firsts += [half_turn(c, args.size) for c in firsts]
        except ValueError as e:
            parser.error(str(e))
        if len(set(firsts)) != len(firsts):
            parser.error("--mirror: the openings and their images must all differ (no centre cell, no pair of images)")

    log = open(args.stderr, "a")
    referee = Engine("referee", f"{shlex.quote(args.referee)} gtp --player random", log)
    engines = {}
    try:
        referee.ask(f"variant {args.variant} {args.size}", args.move_seconds)
        referee.ask("pie off", args.move_seconds)
        if args.openings == "all":
            openings = referee.ask("legal_moves", args.move_seconds).split()
        elif args.openings == "none":
            openings = [None] * ((args.games + 1) // 2)
        else:
            openings = [c.strip().lower() for c in args.openings.split(",") if c.strip()]
        for name, command, setup in ((args.a_name, args.a, args.a_setup), (args.b_name, args.b, args.b_setup)):
            engines[name] = Engine(name, command, log)
            for line in filter(None, (s.strip() for s in setup.split(";"))):
                engines[name].ask(line, args.move_seconds)
        games = []
        out = open(args.results, "a") if args.results else None
        schedule = [(o, black) for o in openings for black in (args.a_name, args.b_name)]
        if args.mirror:
            schedule = [game for o in openings for game in ((o, args.a_name), (half_turn(o, args.size), args.b_name))]
        if args.openings == "none":
            schedule = schedule[:args.games]
        start = time.monotonic()
        for i, (opening, black) in enumerate(schedule):
            game = play_game(engines, black, referee, opening, args.move_seconds)
            game.update(variant=args.variant, size=args.size, game=i + 1)
            games.append(game)
            if out:
                out.write(json.dumps(game) + "\n")
                out.flush()
            elapsed = time.monotonic() - start
            print(f"game {i + 1}/{len(schedule)}: {game['black']} (black) - {game['white']} (white), opening "
                  f"{opening or '-'}: {game['winner']} wins ({game['reason']}); "
                  f"{elapsed / (i + 1) * (len(schedule) - i - 1):.0f} s left", flush=True)
        print(score_summary(args.a_name, games))
        return 0
    except EngineError as e:
        print(f"gtp_match: {e}", file=sys.stderr)
        return 1
    finally:
        for engine in list(engines.values()) + [referee]:
            engine.close()


if __name__ == "__main__":
    sys.exit(main())
