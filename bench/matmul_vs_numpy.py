#!/usr/bin/env python3
"""A 1024 x 1024 x 1024 fp16 matmul (fp32 accumulate and out) through ascsim's Matmul API vs
np.matmul in float32, measured in the same run.

Ours: the shipped matmul_custom kernel via ascsim::kernels::LaunchMatmulCustom (host tiling, mix
launch over every AIC of the profile, the cube path per block), timed by the bench_matmul program
of the build directory (Google Benchmark, real time). NumPy: np.matmul of the same shapes in
float32 with whatever BLAS NumPy links. The two alternate for --rounds rounds; the ratio reported
is the median of the per-round ratios (both sides see the same machine load). When the Python
module offers add_custom.run_matmul_custom, its time (from Python, output allocation included)
and its error against float64 are printed too. Goal: ours within 4x of NumPy.

    /usr/bin/python3 bench/matmul_vs_numpy.py [--build-dir build] [--rounds 5] [--size 1024]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np


def ours_ms(bench, size):
    out = subprocess.run(
        [bench, f"--benchmark_filter=BM_MatmulCustom/{size}/0/", "--benchmark_format=json",
         "--benchmark_min_time=0.5"],
        check=True, capture_output=True, text=True).stdout
    runs = [b for b in json.loads(out)["benchmarks"] if b.get("run_type") == "iteration"]
    if not runs:
        sys.exit(f"bench_matmul has no BM_MatmulCustom/{size}/0 (sizes: 256, 512, 1024, 2048)")
    unit = {"ms": 1.0, "us": 1e-3, "ns": 1e-6, "s": 1e3}[runs[0]["time_unit"]]
    return runs[0]["real_time"] * unit


def numpy_ms(a, b, reps=3):
    np.matmul(a, b)
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        np.matmul(a, b)
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1e3


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build-dir", default="build")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--size", type=int, default=1024)
    args = ap.parse_args()
    bench = os.path.join(args.build_dir, "bench", "bench_matmul")
    if not os.path.exists(bench):
        sys.exit(f"{bench} not found: build the bench_matmul target first")
    n = args.size
    rng = np.random.default_rng(0)
    a16 = rng.uniform(-1, 1, (n, n)).astype(np.float16)
    b16 = rng.uniform(-1, 1, (n, n)).astype(np.float16)
    a32, b32 = a16.astype(np.float32), b16.astype(np.float32)

    rows = []
    for r in range(args.rounds):
        ours = ours_ms(bench, n)
        ref = numpy_ms(a32, b32)
        rows.append((ours, ref))
        print(f"round {r + 1}: ascsim {ours:8.1f} ms   np.matmul float32 {ref:8.1f} ms   "
              f"ratio {ours / ref:5.2f}")
    ratio = statistics.median(o / r for o, r in rows)
    print(f"{n}x{n}x{n} fp16 matmul (fp32 accumulate): ascsim "
          f"{statistics.median(o for o, _ in rows):.1f} ms, np.matmul float32 "
          f"{statistics.median(r for _, r in rows):.1f} ms; ratio {ratio:.2f} "
          f"({'within' if ratio <= 4 else 'NOT within'} the 4x goal)")

    try:
        import add_custom
    except ImportError:
        add_custom = None
    if add_custom is not None and hasattr(add_custom, "run_matmul_custom"):
        add_custom.run_matmul_custom(a16, b16)
        t = time.perf_counter()
        c = add_custom.run_matmul_custom(a16, b16)
        py_ms = (time.perf_counter() - t) * 1e3
        want = a16.astype(np.float64) @ b16.astype(np.float64)
        err = float(np.max(np.abs(np.asarray(c, dtype=np.float64) - want)) / np.max(np.abs(want)))
        print(f"add_custom.run_matmul_custom from Python: {py_ms:.1f} ms, "
              f"max error {err:.2e} of max |C| against float64")
    return 0 if ratio <= 4 else 1


if __name__ == "__main__":
    sys.exit(main())
