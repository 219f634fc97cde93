#!/usr/bin/env python3
"""Compares output/y1.bin and output/y2.bin with the golden data."""
import sys

import numpy as np

ok = True
for name in ('y1', 'y2'):
    y = np.fromfile('output/%s.bin' % name, dtype=np.float32)
    golden = np.fromfile('output/golden_%s.bin' % name, dtype=np.float32)
    if y.shape != golden.shape or not np.allclose(y, golden, rtol=1e-6, atol=1e-6):
        print('[ERROR] %s differs from the golden data' % name)
        ok = False
    else:
        print('[INFO] %s: %d elements match' % (name, y.size))
print('test pass' if ok else 'test failed')
sys.exit(0 if ok else 1)
