#!/usr/bin/python3
"""ascsim demo: the seed's add_custom and the GELU kernel against NumPy.

Run:  PYTHONPATH=<build>/python /usr/bin/python3 examples/python/demo.py

Prints one row per case: the largest absolute error against NumPy (computed in float64 and
rounded to the dtype for the add; the tanh-form GELU in float64), np.allclose at the dtype's
usual tolerance, and the wall time of the simulated launch and of NumPy.
"""
import time

import numpy as np

import add_custom


def gelu_reference(x):
    x = x.astype(np.float64)
    return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 3)))


def timed(fn, repeat=5):
    fn()  # warm up (thread pool, caching allocator)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - start)
    return out, best


def main():
    rng = np.random.default_rng(0)
    x16 = rng.uniform(-1, 1, [8, 2048]).astype(np.float16)
    y16 = rng.uniform(-1, 1, [8, 2048]).astype(np.float16)
    g32 = rng.uniform(-4, 4, [8, 2048]).astype(np.float32)
    g16 = g32.astype(np.float16)
    tolerance = {np.float16: dict(rtol=1e-3, atol=1e-3), np.float32: dict(rtol=1e-5, atol=1e-6)}

    cases = [
        ("add_custom [8,2048] float16",
         lambda: add_custom.run_add_custom(x16, y16),
         lambda: x16 + y16,
         (x16.astype(np.float64) + y16).astype(np.float16), np.float16),
        ("gelu_custom [8,2048] float16",
         lambda: add_custom.run_gelu_custom(g16),
         lambda: gelu_reference(g16).astype(np.float16),
         gelu_reference(g16), np.float16),
        ("gelu_custom [8,2048] float32",
         lambda: add_custom.run_gelu_custom(g32),
         lambda: gelu_reference(g32).astype(np.float32),
         gelu_reference(g32), np.float32),
    ]

    soc = add_custom.get_soc()
    print(f"SoC profile {soc['name']} ({soc['vector_cores']} vector cores, "
          f"UB {soc['ub_bytes'] // 1024} KiB), {add_custom.worker_count()} host threads, "
          f"block_dim 8\n")
    header = f"{'case':<30} {'max abs err':>12} {'allclose':>9} {'ascsim ms':>10} {'numpy ms':>9}"
    print(header)
    print("-" * len(header))
    all_ok = True
    for name, run, run_numpy, reference, dtype in cases:
        out, t_sim = timed(run)
        _, t_np = timed(run_numpy)
        err = float(np.max(np.abs(out.astype(np.float64) - reference)))
        ok = bool(np.allclose(out, reference, **tolerance[dtype]))
        all_ok &= ok
        print(f"{name:<30} {err:>12.3e} {str(ok):>9} {t_sim * 1e3:>10.3f} {t_np * 1e3:>9.3f}")
    print("\nmemory:", add_custom.memory_stats())
    if not all_ok:
        raise SystemExit("mismatch against NumPy")


if __name__ == "__main__":
    main()
