"""run_rms_norm_custom against RMSNorm computed in float64."""
import numpy as np
import pytest

import add_custom
from conftest import uniform


def reference(x, gamma, eps):
    x = x.astype(np.float64)
    rstd = 1.0 / np.sqrt((x * x).mean(-1) + eps)
    return x * rstd[..., None] * gamma.astype(np.float64), rstd


SHAPES = [(1,), (7,), (1, 1), (3, 7), (5, 33), (130, 64), (8, 4096), (2, 3, 100), (64, 8000),
          (1000, 16)]


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_close_to_float64_reference(rng, shape, dtype):
    x = uniform(rng, shape, dtype, -3, 3)
    gamma = uniform(rng, shape[-1:], dtype, -1.5, 1.5)
    y, rstd = add_custom.run_rms_norm_custom(x, gamma, 1e-6, return_rstd=True)
    assert y.shape == x.shape and y.dtype == dtype
    assert rstd.shape == x.shape[:-1] and rstd.dtype == np.float32
    ref_y, ref_rstd = reference(x, gamma, 1e-6)
    np.testing.assert_allclose(rstd, ref_rstd, rtol=2e-6)
    if dtype == np.float32:
        np.testing.assert_allclose(y, ref_y, rtol=0, atol=2e-6 * (1 + np.abs(ref_y)).max())
    else:
        # float products rounded once: within one half-precision ulp of the exact value.
        np.testing.assert_allclose(y.astype(np.float64), ref_y, rtol=1e-3, atol=1e-4)


def test_float16_is_the_float_computation_rounded_once(rng):
    x = uniform(rng, (37, 200), np.float16, -4, 4)
    gamma = uniform(rng, (200,), np.float16)
    y = add_custom.run_rms_norm_custom(x, gamma)
    y32 = add_custom.run_rms_norm_custom(x.astype(np.float32), gamma.astype(np.float32))
    # Same float math (sum of squares, rstd, products); only the final rounding differs.
    ulp = np.spacing(np.abs(y32).astype(np.float16)).astype(np.float32)
    assert (np.abs(y.astype(np.float32) - y32) <= ulp).all()


def test_eps_and_default_eps(rng):
    x = np.zeros((2, 16), np.float32)
    gamma = np.ones(16, np.float32)
    y, rstd = add_custom.run_rms_norm_custom(x, gamma, eps=0.25, return_rstd=True)
    np.testing.assert_allclose(rstd, [2.0, 2.0])
    np.testing.assert_array_equal(y, 0)
    x = uniform(rng, (4, 16), np.float32, 1e-4, 2e-4)
    _, rstd = add_custom.run_rms_norm_custom(x, gamma, return_rstd=True)  # eps = 1e-6
    np.testing.assert_allclose(rstd, reference(x, gamma, 1e-6)[1], rtol=2e-6)


def test_rows_never_mix_and_any_block_dim_agrees(rng):
    x = uniform(rng, (100, 48), np.float16)
    x[17] *= 1000  # one loud row must not change the others
    gamma = uniform(rng, (48,), np.float16)
    expected = add_custom.run_rms_norm_custom(x, gamma, block_dim=1)
    for block_dim in (2, 7, 8, 48, 100, 1000, 65535):
        np.testing.assert_array_equal(add_custom.run_rms_norm_custom(x, gamma, block_dim=block_dim),
                                      expected)
    quiet = np.delete(x, 17, axis=0)
    np.testing.assert_array_equal(add_custom.run_rms_norm_custom(quiet, gamma),
                                  np.delete(expected, 17, axis=0))


def test_views_streams_and_inputs_untouched(rng):
    base = uniform(rng, (40, 2 * 96), np.float32)
    x = base[::2, ::2]  # not contiguous: copied once, as for the other kernels
    gamma = uniform(rng, (96,), np.float32)
    x0 = x.copy()
    expected = add_custom.run_rms_norm_custom(np.ascontiguousarray(x), gamma)
    np.testing.assert_array_equal(add_custom.run_rms_norm_custom(x, gamma), expected)
    s = add_custom.Stream()
    y, rstd = add_custom.run_rms_norm_custom(x, gamma, stream=s, return_rstd=True)
    s.synchronize()
    np.testing.assert_array_equal(y, expected)
    np.testing.assert_array_equal(x, x0)


def test_empty_inputs():
    y, rstd = add_custom.run_rms_norm_custom(np.zeros((0, 8), np.float16),
                                             np.ones(8, np.float16), return_rstd=True)
    assert y.shape == (0, 8) and rstd.shape == (0,)


def test_max_cols_depends_on_dtype_and_soc():
    half, single = (add_custom.rms_norm_custom_max_cols(d) for d in (np.float16, "float32"))
    assert 8000 < half < 9000 and 7500 < single < half
    x = np.ones((2, half), np.float16)
    assert np.isfinite(add_custom.run_rms_norm_custom(x, np.ones(half, np.float16))).all()
    with add_custom.settings(soc="Ascend310P3"):  # 256 KiB of UB
        assert add_custom.rms_norm_custom_max_cols(np.float16) > half


def test_argument_errors():
    f = add_custom.run_rms_norm_custom
    x = np.ones((4, 8), np.float32)
    g = np.ones(8, np.float32)
    err = add_custom.InvalidArgumentError
    with pytest.raises(err, match=r"gamma must have shape \(8,\) \(x's last axis\); got \(4,\)"):
        f(x, np.ones(4, np.float32))
    with pytest.raises(err, match="gamma must have x's dtype; got gamma float16 and x float32"):
        f(x, g.astype(np.float16))
    with pytest.raises(err, match="x must have at least one axis"):
        f(np.float32(1.0), g)
    with pytest.raises(err, match="x has dtype float64; expected float16 or float32"):
        f(x.astype(np.float64), g)
    with pytest.raises(err, match="eps must be a finite float >= 0, got -1.0"):
        f(x, g, eps=-1.0)
    with pytest.raises(err, match="eps must be a finite float >= 0, got nan"):
        f(x, g, eps=float("nan"))
    with pytest.raises(err, match="x's last axis is empty"):
        f(np.ones((3, 0), np.float32), np.ones(0, np.float32))
    too_wide = add_custom.rms_norm_custom_max_cols(np.float32) + 1
    with pytest.raises(err, match=f"x's last axis has {too_wide} elements; the kernel keeps a "
                                  "row in the Unified Buffer, which holds at most"):
        f(np.ones((1, too_wide), np.float32), np.ones(too_wide, np.float32))
    with pytest.raises(err, match=r"block_dim must be an int in \[1, 65535\]"):
        f(x, g, block_dim=0)
    with pytest.raises(err, match="dtype must be 'float16' or 'float32'"):
        add_custom.rms_norm_custom_max_cols(np.int8)
    np.testing.assert_allclose(f(x, g), 1.0, rtol=1e-6)  # still usable


def test_on_ascend310p_needs_aligned_rows(rng):
    with add_custom.settings(soc="Ascend310P3"):
        x = uniform(rng, (16, 64), np.float16)
        g = uniform(rng, (64,), np.float16)
        y = add_custom.run_rms_norm_custom(x, g, block_dim=2)  # 8 rows (32 B of rstd) per block
        np.testing.assert_allclose(y.astype(np.float64), reference(x, g, 1e-6)[0], rtol=1e-3,
                                   atol=1e-4)
        with pytest.raises(add_custom.KernelError, match="DataCopyPad is not available"):
            add_custom.run_rms_norm_custom(x[:, :33].copy(), g[:33].copy())


def test_profile_names_the_kernel(rng):
    x = uniform(rng, (64, 1024), np.float16)
    with add_custom.profile() as prof:
        add_custom.run_rms_norm_custom(x, np.ones(1024, np.float16), block_dim=8)
    (launch,) = prof.summary()
    assert launch["kernel"] == "rms_norm_custom" and launch["block_dim"] == 8
    assert launch["estimated_us"] > 0
