#!/usr/bin/env python3
"""Compares output/z_<t>.bin with the golden data (relative 1e-3 for float16, 1e-5 for float32)."""
import sys

import numpy as np

ok = True
for suffix, dtype, tol in (('fp16', np.float16, 2e-3), ('fp32', np.float32, 1e-5)):
    z = np.fromfile('output/z_%s.bin' % suffix, dtype=dtype).astype(np.float64)
    golden = np.fromfile('output/golden_%s.bin' % suffix, dtype=dtype).astype(np.float64)
    if z.shape != golden.shape or not np.allclose(z, golden, rtol=tol, atol=tol):
        bad = np.flatnonzero(~np.isclose(z, golden, rtol=tol, atol=tol)) if z.shape == golden.shape else []
        print('[ERROR] %s: %d elements differ, first %s' % (suffix, len(bad), list(bad[:5])))
        ok = False
    else:
        print('[INFO] %s: %d elements match' % (suffix, z.size))
print('test pass' if ok else 'test failed')
sys.exit(0 if ok else 1)
