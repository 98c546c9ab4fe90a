#!/usr/bin/env python3
"""Positions analysed per second by `quax analysis`, many queries in flight against one at a time.

For each game (hex 11 and quax 11, pie rule off), the same positions (random stone placements of
10 to 40 plies, a fixed seed) and the same visits go to the engine twice: with --in-flight 64
(the positions' leaves share network batches) and with --in-flight 1 (one position at a time).
All queries are written at once; the clock runs from the first query to the last answer, after
a warm-up query has loaded the model. Prints one line per game and mode (with the engine's CPU
seconds, user and system, from start to exit: a figure less moved than the clock by other
programs on a shared machine), and the ratio. --engine-args adds options to both modes (a lever:
"--precision bf16", "--leaves 2").

    python3 bench/analysis_rate.py [--binary build/quax] [--positions 256] [--visits 200]
                                   [--threads 2] [--engine-args "..."]
"""
import argparse
import json
import random
import resource
import shlex
import subprocess
import time


def positions(size, count, seed):
    rng = random.Random(seed)
    cells = [f"{chr(ord('a') + c)}{r + 1}" for c in range(size) for r in range(size)]
    return [rng.sample(cells, rng.randint(10, 40)) for _ in range(count)]


def rate(binary, variant, size, games, visits, in_flight, threads, engine_args):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.Popen([binary, "analysis", "--variant", variant, "--size", str(size), "--in-flight", str(in_flight),
                          "--threads", str(threads), *engine_args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)
    base = {"variant": variant, "size": size, "swap": False, "maxVisits": visits}
    p.stdin.write(json.dumps(dict(base, id="warmup", maxVisits=8)) + "\n")
    p.stdin.flush()
    json.loads(p.stdout.readline())
    start = time.perf_counter()
    p.stdin.write("".join(json.dumps(dict(base, id=str(i), moves=m)) + "\n" for i, m in enumerate(games)))
    p.stdin.close()
    done = errors = 0
    for line in p.stdout:
        a = json.loads(line)
        if "error" in a:
            errors += 1
        else:
            done += 1
    seconds = time.perf_counter() - start
    p.wait()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return done, errors, seconds, cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", default="build/quax")
    ap.add_argument("--positions", type=int, default=256)
    ap.add_argument("--visits", type=int, default=200)
    ap.add_argument("--threads", type=int, default=2, help="LibTorch threads of the engine (both modes)")
    ap.add_argument("--games", default="hex,quax")
    ap.add_argument("--engine-args", default="", help="more options of quax analysis, both modes")
    args = ap.parse_args()
    engine_args = shlex.split(args.engine_args)
    for variant in args.games.split(","):
        games = positions(11, args.positions, seed=55)
        rates = {}
        for in_flight in (64, 1):
            done, errors, seconds, cpu = rate(args.binary, variant, 11, games, args.visits, in_flight, args.threads,
                                              engine_args)
            rates[in_flight] = done / seconds
            print(f"{variant} 11, {args.visits} visits, --in-flight {in_flight:2d} {args.engine_args}: {done} positions "
                  f"({errors} refused) in {seconds:.1f} s = {rates[in_flight]:.2f} positions/s; "
                  f"engine CPU {cpu:.1f} s", flush=True)
        print(f"{variant} 11: batched / sequential = {rates[64] / rates[1]:.1f}x", flush=True)


if __name__ == "__main__":
    main()
