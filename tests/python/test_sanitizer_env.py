"""The sanitizer's environment switches (ASCSIM_SANITIZE, ASCSIM_UB_FILL) as a Python user meets
them. Each case runs a fresh interpreter, since the runtime reads the environment once."""
import os
import subprocess
import sys


def run_python(code, **env):
    full_env = dict(os.environ)
    for key in ("ASCSIM_SANITIZE", "ASCSIM_UB_FILL", "ASCSIM_STRICT", "ASCSIM_SERIAL"):
        full_env.pop(key, None)
    full_env.update(env)
    return subprocess.run([sys.executable, "-c", code], env=full_env, capture_output=True,
                          text=True, timeout=120)


# Odd lengths (a DataCopyPad tail) and several blocks, both dtypes, checked exactly against NumPy.
SHIPPED_KERNELS = (
    "import numpy as np, add_custom as a\n"
    "rng = np.random.default_rng(7)\n"
    "for dt in (np.float16, np.float32):\n"
    "    for n in (1, 1000, 70001):\n"
    "        x = rng.uniform(-1, 1, n).astype(dt); y = rng.uniform(-1, 1, n).astype(dt)\n"
    "        assert np.array_equal(a.run_add_custom(x, y), x + y), (dt, n)\n"
    "        assert np.isfinite(a.run_gelu_custom(x)).all(), (dt, n)\n"
    "print('ok')\n")


def test_shipped_kernels_are_clean_under_every_check_and_with_nan_filled_ub():
    for env in ({"ASCSIM_SANITIZE": "all"}, {"ASCSIM_UB_FILL": "nan"},
                {"ASCSIM_SANITIZE": "all", "ASCSIM_UB_FILL": "0xA5"}):
        out = run_python(SHIPPED_KERNELS, **env)
        assert out.stdout.strip() == "ok", (env, out.stderr)
        assert "warning" not in out.stderr, (env, out.stderr)


def test_bad_values_warn_and_fall_back():
    out = run_python(SHIPPED_KERNELS, ASCSIM_SANITIZE="race,bogus", ASCSIM_UB_FILL="0x1ff")
    assert out.stdout.strip() == "ok", out.stderr
    assert "ASCSIM_SANITIZE: unknown sanitizer check 'bogus'" in out.stderr
    assert "ASCSIM_UB_FILL=0x1ff is not nan or a byte" in out.stderr


def test_existing_faults_keep_their_kinds_under_every_check():
    code = ("import numpy as np, add_custom as a\n"
            "for run in (lambda: a.testing.run_dequeue_empty(),\n"
            "            lambda: a.testing.run_ub_overflow()):\n"
            "    try:\n"
            "        run()\n"
            "    except a.KernelError as e:\n"
            "        print(e.kind)\n")
    out = run_python(code, ASCSIM_SANITIZE="all")
    assert out.stdout.split("\n")[:2] == ["queue misuse", "UB overflow"], out.stderr
