#!/usr/bin/env python3
"""Inputs and golden outputs of ScaleShiftCustom."""
import numpy as np

rng = np.random.default_rng(11)
x = rng.uniform(-3, 3, (16, 256)).astype(np.float32)
bias = rng.uniform(-1, 1, (16, 256)).astype(np.float32)
x.tofile('input/x.bin')
bias.tofile('input/bias.bin')
np.maximum(x.astype(np.float64) * 0.5 + bias, 0).astype(np.float32).tofile('output/golden_y1.bin')
(x.astype(np.float64) * 2.0).astype(np.float32).tofile('output/golden_y2.bin')
