#!/usr/bin/env python3
"""Inputs and golden outputs of SquaredDiffCustom for float16 and float32."""
import numpy as np

rng = np.random.default_rng(7)
for suffix, dtype in (('fp16', np.float16), ('fp32', np.float32)):
    x = rng.uniform(-4, 4, (8, 2048)).astype(dtype)
    y = rng.uniform(-4, 4, (8, 2048)).astype(dtype)
    x.tofile('input/x_%s.bin' % suffix)
    y.tofile('input/y_%s.bin' % suffix)
    d = x.astype(np.float64) - y.astype(np.float64)
    (d * d).astype(dtype).tofile('output/golden_%s.bin' % suffix)
