#!/usr/bin/python3
"""Compares the kernel's output with the golden file (float32): passes when at most 0.01% of the
elements differ by more than the tolerance."""
import sys

import numpy as np

RELATIVE_TOL = 1e-5
ABSOLUTE_TOL = 1e-6
ERROR_TOL = 1e-4


def verify_result(output_path, golden_path):
    output = np.fromfile(output_path, dtype=np.float32).reshape(-1)
    golden = np.fromfile(golden_path, dtype=np.float32).reshape(-1)
    if output.size != golden.size:
        print("size mismatch: output %d, golden %d" % (output.size, golden.size))
        return False
    close = np.isclose(output, golden, rtol=RELATIVE_TOL, atol=ABSOLUTE_TOL, equal_nan=True)
    bad = np.where(~close)[0]
    for index in bad[:10]:
        print("data index: %06d, expected: %-.9f, actual: %-.9f" %
              (index, golden[index], output[index]))
    error_ratio = float(bad.size) / golden.size
    print("error ratio: %.6f, tolerance: %.6f" % (error_ratio, ERROR_TOL))
    return error_ratio <= ERROR_TOL


if __name__ == "__main__":
    if not verify_result(sys.argv[1], sys.argv[2]):
        print("[ERROR] result error")
        sys.exit(1)
    print("test pass")
