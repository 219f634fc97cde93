"""run_gelu_custom against the tanh-form GELU computed in float64."""
import numpy as np
import pytest

import add_custom
from conftest import uniform


def reference_gelu(x):
    x = x.astype(np.float64)
    return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 3)))


def ulp_distance_fp16(a, b):
    """Distance in units in the last place between two float16 arrays (same-sign ordering)."""
    def ordered(v):
        bits = v.astype(np.float16).view(np.int16).astype(np.int32)
        return np.where(bits < 0, -32768 - bits, bits)
    return np.abs(ordered(a) - ordered(b))


SHAPES = [(), (0,), (1,), (7,), (31,), (2048,), (8, 2048), (3, 5, 7), (100003,)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_float32_close_to_float64_reference(rng, shape):
    x = uniform(rng, shape, np.float32, -6.0, 6.0)
    y = add_custom.run_gelu_custom(x)
    assert y.shape == x.shape and y.dtype == np.float32
    # Measured worst case over 1e6 values in [-6, 6]: see test_float32_error_budget.
    np.testing.assert_allclose(y, reference_gelu(x), rtol=2e-6, atol=2e-7)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_float16_within_one_ulp_of_rounded_reference(rng, shape):
    x = uniform(rng, shape, np.float16, -6.0, 6.0)
    y = add_custom.run_gelu_custom(x)
    assert y.shape == x.shape and y.dtype == np.float16
    expected = reference_gelu(x).astype(np.float16)
    assert ulp_distance_fp16(y, expected).max(initial=0) <= 1


def test_float16_every_finite_input():
    """All 63488 finite float16 values at once: at most 1 ulp from the rounded exact GELU."""
    bits = np.arange(65536, dtype=np.uint32).astype(np.uint16).view(np.float16)
    x = bits[np.isfinite(bits)]
    with np.errstate(over="ignore"):
        expected = reference_gelu(x).astype(np.float16)
    y = add_custom.run_gelu_custom(x)
    dist = ulp_distance_fp16(y, expected)
    assert dist.max() <= 1, x[np.argmax(dist)]
    # Most values are exact: the kernel computes in float32 and rounds once.
    assert np.mean(dist == 0) > 0.99
    # ...and bit for bit what the float32 kernel gives, rounded to the nearest half.
    np.testing.assert_array_equal(y.view(np.uint16),
                                  add_custom.run_gelu_custom(x.astype(np.float32))
                                  .astype(np.float16).view(np.uint16))


def test_float32_error_budget():
    x = np.linspace(-6, 6, 1_000_001, dtype=np.float32)
    y = add_custom.run_gelu_custom(x).astype(np.float64)
    ref = reference_gelu(x)
    err = np.abs(y - ref) / np.maximum(np.abs(ref), 1e-30)
    big = np.abs(ref) > 1e-3
    assert err[big].max() < 2e-6


def test_large_inputs_saturate():
    x = np.array([-1e4, -100.0, -20.0, 20.0, 100.0, 1e4, 0.0], np.float32)
    y = add_custom.run_gelu_custom(x)
    np.testing.assert_allclose(y, reference_gelu(x), rtol=1e-6, atol=1e-30)


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_non_contiguous_and_block_dims(rng, dtype):
    base = uniform(rng, (40, 300), dtype, -4, 4)
    x = base[::-3, 1::2]
    expected = add_custom.run_gelu_custom(np.ascontiguousarray(x), block_dim=1)
    for block_dim in (1, 5, 8, 48, 65535):
        np.testing.assert_array_equal(add_custom.run_gelu_custom(x, block_dim=block_dim),
                                      expected)


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_gelu_of_infinities_and_nan(dtype):
    x = np.array([-np.inf, np.inf, np.nan, -1e4 if dtype == np.float32 else -6e4, -30, -20.5,
                  -20, -19.5, -11, -3, 0, 3, 30], dtype)
    y = add_custom.run_gelu_custom(x)
    assert y[0] == 0 and not np.isnan(y[0])       # GELU(-inf) = 0
    assert y[1] == np.inf                         # GELU(+inf) = +inf
    assert np.isnan(y[2])                         # NaN stays NaN
    assert (y[3:7] == 0).all()                    # far left: 0 (signed zero either way)
    with np.errstate(over="ignore"):
        exact = 0.5 * x[7:].astype(np.float64) * (
            1 + np.tanh(np.sqrt(2 / np.pi) * (x[7:].astype(np.float64)
                                              + 0.044715 * x[7:].astype(np.float64) ** 3)))
    np.testing.assert_allclose(y[7:], exact.astype(dtype), rtol=2e-3 if dtype == np.float16
                               else 2e-6, atol=1e-30)
    # The same inputs in a long array (full repeats, tails, several tiles and blocks).
    big = np.resize(x, 50021).astype(dtype)
    np.testing.assert_array_equal(np.isnan(add_custom.run_gelu_custom(big, block_dim=7)),
                                  np.isnan(big))
    assert not np.isnan(add_custom.run_gelu_custom(big)[~np.isnan(big)]).any()
