#!/usr/bin/python3
"""Wall-clock launch latency from Python: the seed's [8, 2048] float16 add
(add_custom.run_add_custom, block_dim 8, the output allocated by the call), timed call by call.
Prints the median over rounds of each round's median, in microseconds, and each round's median.

A call-by-call median rather than a mean: on a shared machine a mean over a loop absorbs every
time slice another process takes, a single ~12 us call rarely spans one. Compare two builds by
running this alternately in separate processes (docs/performance.md, "Launch wall clock").

    PYTHONPATH=build/python /usr/bin/python3 bench/launch_latency.py [--rounds 5] [--calls 400]
"""
import argparse
import statistics
import time

import numpy as np

import add_custom


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--calls", type=int, default=400)
    parser.add_argument("--warmup", type=int, default=50)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    x = rng.standard_normal(8 * 2048, dtype=np.float32).astype(np.float16).reshape(8, 2048)
    y = rng.standard_normal(8 * 2048, dtype=np.float32).astype(np.float16).reshape(8, 2048)
    for _ in range(args.warmup):
        add_custom.run_add_custom(x, y, block_dim=8)
    medians = []
    for _ in range(args.rounds):
        times = []
        for _ in range(args.calls):
            start = time.perf_counter()
            add_custom.run_add_custom(x, y, block_dim=8)
            times.append(time.perf_counter() - start)
        medians.append(statistics.median(times) * 1e6)
    print("%.2f us (rounds: %s)" % (statistics.median(medians),
                                     " ".join("%.2f" % m for m in medians)))


if __name__ == "__main__":
    main()
