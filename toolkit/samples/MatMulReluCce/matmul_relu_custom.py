#!/usr/bin/python3
"""Inputs and golden output of matmul_relu_custom: C = ReLU(A x B), A [64, 64] and B [64, 48] half,
C half. Small integers, so that every sum is exact in float and in half: any misplaced element
shows as a wrong value."""
import os

import numpy as np

M, N, K = 64, 48, 64


def gen_golden_data():
    rng = np.random.default_rng(2023)
    a = rng.integers(-4, 5, size=(M, K)).astype(np.float16)
    b = rng.integers(-4, 5, size=(K, N)).astype(np.float16)
    product = np.matmul(a.astype(np.float32), b.astype(np.float32))
    golden = np.maximum(product, 0).astype(np.float16)

    os.makedirs("input", exist_ok=True)
    os.makedirs("output", exist_ok=True)
    a.tofile("./input/a.bin")
    b.tofile("./input/b.bin")
    golden.tofile("./output/golden.bin")


if __name__ == "__main__":
    gen_golden_data()
