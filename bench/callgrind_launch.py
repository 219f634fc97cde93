#!/usr/bin/python3
"""The Python workload of the instruction-count guard (bench/callgrind_guard.py): one warm-up and
then N launches of the seed's [8, 2048] float16 add through add_custom.run_add_custom. The guard
runs it for two values of N and takes the difference per launch, so start-up and imports cancel.

    PYTHONPATH=build/python /usr/bin/python3 bench/callgrind_launch.py N
"""
import sys

import numpy as np

import add_custom


def main():
    launches = int(sys.argv[1])
    x = (np.arange(8 * 2048, dtype=np.float32) % 97 / 16 - 3).astype(np.float16).reshape(8, 2048)
    y = x[::-1].copy()
    add_custom.run_add_custom(x, y)
    for _ in range(launches):
        add_custom.run_add_custom(x, y)


if __name__ == "__main__":
    main()
