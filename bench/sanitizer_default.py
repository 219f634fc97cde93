#!/usr/bin/python3
"""What the sanitizer's default checks cost from Python, in one process and the same minute:
launch latency ([8, 2048] float16 add), add and GELU float16 at 2^24, with ASCSIM_SANITIZE off and
with race,init (the default), medians of repeated runs, alternating the two settings.

    PYTHONPATH=build/python /usr/bin/python3 bench/sanitizer_default.py [rounds]
"""
import sys
import time

import numpy as np

import add_custom
import ascsim


def median_time(fn, reps):
    fn()
    fn()
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2]


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    x = np.random.uniform(-1, 1, 1 << 24).astype(np.float16)
    y = x.copy()
    small = np.random.uniform(-1, 1, [8, 2048]).astype(np.float16)
    for r in range(rounds):
        for spec in ("off", "race,init"):
            with ascsim.sanitize("" if spec == "off" else spec):
                latency = median_time(lambda: add_custom.run_add_custom(small, small), 51)
                add = median_time(lambda: add_custom.run_add_custom(x, y), 7)
                gelu = median_time(lambda: add_custom.run_gelu_custom(x), 7)
            print(f"round {r + 1} sanitize={spec:9s} latency {latency * 1e6:6.1f} us   "
                  f"add float16 {add * 1e3:6.2f} ms   gelu float16 {gelu * 1e3:6.2f} ms")


if __name__ == "__main__":
    main()
