#!/usr/bin/env python3
"""Compares output/c.bin with the golden product (float accumulation of float16 inputs)."""
import sys

import numpy as np

c = np.fromfile('output/c.bin', dtype=np.float32)
golden = np.fromfile('output/golden_c.bin', dtype=np.float32)
if c.shape == golden.shape and np.allclose(c, golden, rtol=1e-4, atol=1e-4):
    print('[INFO] c: %d elements match' % c.size)
    print('test pass')
    sys.exit(0)
print('[ERROR] c differs from the golden product (max error %g)' %
      (np.abs(c - golden).max() if c.shape == golden.shape else float('nan')))
print('test failed')
sys.exit(1)
