#!/usr/bin/python3
"""Input x (float32, 8 * 4100), the tiling data (totalLength, tileLength, negativeSlope) and the
golden y = leaky_relu(x)."""
import numpy as np

TOTAL_LENGTH = 8 * 4100
TILE_LENGTH = 1024
NEGATIVE_SLOPE = 0.125


def gen_golden_data():
    rng = np.random.default_rng(7)
    x = rng.uniform(-100, 100, [TOTAL_LENGTH]).astype(np.float32)
    golden = np.where(x >= 0, x, x * np.float32(NEGATIVE_SLOPE)).astype(np.float32)
    tiling = np.zeros(1, dtype=[("totalLength", "<u4"), ("tileLength", "<u4"),
                                ("negativeSlope", "<f4")])
    tiling[0] = (TOTAL_LENGTH, TILE_LENGTH, NEGATIVE_SLOPE)
    tiling.tofile("./input/input_tiling.bin")
    x.tofile("./input/input_x.bin")
    golden.tofile("./output/golden.bin")


if __name__ == "__main__":
    gen_golden_data()
