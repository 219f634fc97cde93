#!/usr/bin/env python3
"""Compares output/z_<case>.bin with the golden data (1e-3 for float16, 1e-6 for float32)."""
import sys

import numpy as np

ok = True
for name, dtype, tol in (('fp16_relu', np.float16, 1e-3), ('fp32_big', np.float32, 1e-6),
                         ('fp32_relu_small', np.float32, 1e-6)):
    z = np.fromfile('output/z_%s.bin' % name, dtype=dtype).astype(np.float64)
    golden = np.fromfile('output/golden_%s.bin' % name, dtype=dtype).astype(np.float64)
    if z.shape != golden.shape or not np.allclose(z, golden, rtol=tol, atol=tol):
        bad = np.flatnonzero(~np.isclose(z, golden, rtol=tol, atol=tol)) if z.shape == golden.shape else []
        print('[ERROR] %s: %d elements differ, first %s' % (name, len(bad), list(bad[:5])))
        ok = False
    else:
        print('[INFO] %s: %d elements match' % (name, z.size))
print('test pass' if ok else 'test failed')
sys.exit(0 if ok else 1)
