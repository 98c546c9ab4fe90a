#!/usr/bin/env python3
"""quax.VectorEnv's step rate against the C++ vectorized environment's (`quax bench env`),
the same loop on both sides: a random legal action per game, step, encode, legal masks.

    PYTHONPATH=build/python python3 bench/python_vector_env.py [--variant quax --size 11
        --envs 64 --seconds 3 --rounds 3] [--quax build/quax]

Rates are boards per CPU second of the stepping thread, as `quax bench env` gives them; the
two sides alternate, `--rounds` times each, and the best of each is compared.
"""
import argparse
import re
import subprocess
import time

import quax


def cpp_rate(args):
    out = subprocess.run([args.quax, "bench", "env", "--variant", args.variant, "--size", str(args.size),
                          "--batch", str(args.envs), "--seconds", str(args.seconds)],
                         check=True, capture_output=True, text=True).stdout
    return float(re.search(r"step\+encode, B=\d+: (\d+) boards/s", out).group(1))


def python_rate(args, copy):
    env = quax.VectorEnv(args.variant, args.size, num_envs=args.envs, seed=1, copy=copy)
    env.reset()
    steps = 0
    start = time.thread_time()
    while time.thread_time() - start < args.seconds:
        for _ in range(100):
            env.step(env.sample_actions())
        steps += 100
    return steps * args.envs / (time.thread_time() - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="quax")
    parser.add_argument("--size", type=int, default=11)
    parser.add_argument("--envs", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--quax", default="build/quax")
    args = parser.parse_args()
    cpp, zero_copy, copies = [], [], []
    for _ in range(args.rounds):
        cpp.append(cpp_rate(args))
        zero_copy.append(python_rate(args, copy=False))
        copies.append(python_rate(args, copy=True))
    print("%s %dx%d, %d games, boards per CPU second (best of %d):" % (args.variant, args.size, args.size,
                                                                       args.envs, args.rounds))
    print("  C++ VectorEnv (quax bench env):   %9.0f" % max(cpp))
    print("  quax.VectorEnv, copy=False:      %9.0f  (%.0f%% of C++)" % (max(zero_copy), 100 * max(zero_copy) / max(cpp)))
    print("  quax.VectorEnv, copy=True:       %9.0f  (%.0f%% of C++)" % (max(copies), 100 * max(copies) / max(cpp)))


if __name__ == "__main__":
    main()
