#!/usr/bin/python3
"""Inputs x, y (float16, [8, 2048]) and the golden z = 2.5 * x + y, rounded as the kernel does:
the product to float16 first, then the sum."""
import numpy as np


def gen_golden_data():
    rng = np.random.default_rng(2024)
    x = rng.uniform(-10, 10, [8, 2048]).astype(np.float16)
    y = rng.uniform(-10, 10, [8, 2048]).astype(np.float16)
    golden = ((x * np.float16(2.5)).astype(np.float16) + y).astype(np.float16)
    x.tofile("./input/input_x.bin")
    y.tofile("./input/input_y.bin")
    golden.tofile("./output/golden.bin")


if __name__ == "__main__":
    gen_golden_data()
