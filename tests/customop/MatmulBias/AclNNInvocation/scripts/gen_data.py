#!/usr/bin/env python3
"""Inputs and golden output of MatmulBiasCustom."""
import numpy as np

rng = np.random.default_rng(3)
m, k, n = 256, 128, 192
a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
bias = rng.uniform(-1, 1, (n,)).astype(np.float32)
a.tofile('input/a.bin')
b.tofile('input/b.bin')
bias.tofile('input/bias.bin')
(a.astype(np.float64) @ b.astype(np.float64) + bias).astype(np.float32).tofile('output/golden_c.bin')
