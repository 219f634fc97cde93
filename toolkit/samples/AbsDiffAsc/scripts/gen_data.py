#!/usr/bin/python3
"""Inputs x, y (float32, 16 * 2048) and the golden z = |x - y|."""
import os

import numpy as np


def gen_golden_data():
    rng = np.random.default_rng(11)
    x = rng.uniform(-50, 50, [16 * 2048]).astype(np.float32)
    y = rng.uniform(-50, 50, [16 * 2048]).astype(np.float32)
    golden = np.abs(x - y).astype(np.float32)
    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    x.tofile("./input/input_x.bin")
    y.tofile("./input/input_y.bin")
    golden.tofile("./output/golden.bin")


if __name__ == "__main__":
    gen_golden_data()
