#!/usr/bin/env python3
"""Inputs and golden outputs of TplAddReluCustom's three cases (see src/main.cpp)."""
import numpy as np

CASES = (('fp16_relu', np.float16, (8, 1024), True),
         ('fp32_big', np.float32, (8, 4096), False),
         ('fp32_relu_small', np.float32, (3, 16), True))

rng = np.random.default_rng(11)
for name, dtype, shape, relu in CASES:
    x = rng.uniform(-4, 4, shape).astype(dtype)
    y = rng.uniform(-4, 4, shape).astype(dtype)
    x.tofile('input/x_%s.bin' % name)
    y.tofile('input/y_%s.bin' % name)
    z = x.astype(np.float64) + y.astype(np.float64)
    if relu:
        z = np.maximum(z, 0)
    z.astype(dtype).tofile('output/golden_%s.bin' % name)
