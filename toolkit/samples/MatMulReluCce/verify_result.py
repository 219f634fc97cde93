#!/usr/bin/python3
"""Compares output/output.bin with output/golden.bin (half): every element must match within the
tolerance (the sums are exact, so any difference is a wrong element). Prints "test pass" or the
first mismatches and exits 1."""
import sys

import numpy as np

RELATIVE_TOL = 1e-3
ABSOLUTE_TOL = 1e-3


def verify_result(output_path, golden_path):
    output = np.fromfile(output_path, dtype=np.float16)
    golden = np.fromfile(golden_path, dtype=np.float16)
    if output.size != golden.size:
        print("size mismatch: output %d elements, golden %d" % (output.size, golden.size))
        return False
    close = np.isclose(output.astype(np.float32), golden.astype(np.float32),
                       rtol=RELATIVE_TOL, atol=ABSOLUTE_TOL)
    bad = np.flatnonzero(~close)
    for index in bad[:10]:
        print("index %5d: expected %g, got %g" % (index, golden[index], output[index]))
    if bad.size:
        print("%d of %d elements differ" % (bad.size, golden.size))
    return bad.size == 0


if __name__ == "__main__":
    if not verify_result(sys.argv[1], sys.argv[2]):
        print("[ERROR] result error")
        sys.exit(1)
    print("test pass")
