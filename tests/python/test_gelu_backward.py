"""run_gelu_custom_backward against the derivative of the tanh-form GELU computed in float64."""
import numpy as np
import pytest

import add_custom
from conftest import uniform

K = np.sqrt(2.0 / np.pi)


def reference_grad(grad_y, x):
    """grad_y * d/dx [0.5 x (1 + tanh(K (x + 0.044715 x^3)))] in float64."""
    x = x.astype(np.float64)
    t = np.tanh(K * (x + 0.044715 * x ** 3))
    return grad_y.astype(np.float64) * (
        0.5 * (1 + t) + 0.5 * x * (1 - t * t) * K * (1 + 3 * 0.044715 * x * x))


SHAPES = [(), (0,), (1,), (7,), (31,), (4096,), (4097,), (8, 2048), (3, 5, 7), (100003,)]


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_float32_close_to_float64_reference(rng, shape):
    x = uniform(rng, shape, np.float32, -8, 8)
    dy = uniform(rng, shape, np.float32, -2, 2)
    dx = add_custom.run_gelu_custom_backward(dy, x)
    assert dx.shape == x.shape and dx.dtype == np.float32
    ref = reference_grad(dy, x)
    np.testing.assert_allclose(dx, ref, rtol=0, atol=4e-6 * (1 + np.abs(ref)).max(initial=1))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_float16_rounded_once_from_float(rng, shape):
    x = uniform(rng, shape, np.float16, -8, 8)
    dy = uniform(rng, shape, np.float16, -2, 2)
    dx = add_custom.run_gelu_custom_backward(dy, x)
    assert dx.shape == x.shape and dx.dtype == np.float16
    # The kernel computes in float32 and rounds once: the float32 kernel's result, rounded.
    via_float = add_custom.run_gelu_custom_backward(dy.astype(np.float32), x.astype(np.float32))
    np.testing.assert_array_equal(dx, via_float.astype(np.float16))
    ref = reference_grad(dy, x)
    np.testing.assert_allclose(dx.astype(np.float64), ref, rtol=1e-3, atol=1e-3)


def test_every_float16_input_against_the_derivative():
    bits = np.arange(65536, dtype=np.uint32).astype(np.uint16).view(np.float16)
    x = bits[np.isfinite(bits)]
    dy = np.ones_like(x)
    dx = add_custom.run_gelu_custom_backward(dy, x).astype(np.float64)
    with np.errstate(over="ignore", invalid="ignore"):
        ref = reference_grad(dy, x)
    ref = np.where(x < -20, 0.0, ref)  # exp overflows in float64 too far out; the limit is 0
    # Rounded once to half: at most one half-ulp of values in [-0.13, 1.13], plus float error.
    assert np.abs(dx - ref).max() < 6e-4


def test_limits_and_special_values():
    x = np.array([-np.inf, -1e30, -20, -10.5, -10, 0, 10, 1e30, np.inf, np.nan], np.float32)
    dx = add_custom.run_gelu_custom_backward(np.ones_like(x), x)
    np.testing.assert_allclose(dx[:-1], [0, 0, 0, 0, 0, 0.5, 1, 1, 1], atol=1e-30)
    assert np.isnan(dx[-1])
    # grad_y scales linearly, including its sign and zero
    dy = np.array([3.0, -2.0, 0.0], np.float32)
    xs = np.array([0.0, 0.0, 5.0], np.float32)
    np.testing.assert_allclose(add_custom.run_gelu_custom_backward(dy, xs), [1.5, -1.0, 0.0])


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_block_dims_views_and_streams_agree(rng, dtype):
    base_x = uniform(rng, (40, 300), dtype, -4, 4)
    base_dy = uniform(rng, (40, 300), dtype, -1, 1)
    x, dy = base_x[::-3, 1::2], base_dy[::-3, 1::2]
    expected = add_custom.run_gelu_custom_backward(np.ascontiguousarray(dy),
                                                   np.ascontiguousarray(x), block_dim=1)
    for block_dim in (1, 5, 8, 48, 65535):
        np.testing.assert_array_equal(
            add_custom.run_gelu_custom_backward(dy, x, block_dim=block_dim), expected)
    s = add_custom.Stream()
    out = add_custom.run_gelu_custom_backward(dy, x, stream=s)
    s.synchronize()
    np.testing.assert_array_equal(out, expected)


def test_inputs_are_not_modified(rng):
    x = uniform(rng, (1000,), np.float32, -30, 30)
    dy = uniform(rng, (1000,), np.float32)
    x0, dy0 = x.copy(), dy.copy()
    add_custom.run_gelu_custom_backward(dy, x)
    np.testing.assert_array_equal(x, x0)
    np.testing.assert_array_equal(dy, dy0)


def test_argument_errors():
    f = add_custom.run_gelu_custom_backward
    x32 = np.zeros(8, np.float32)
    with pytest.raises(add_custom.InvalidArgumentError,
                       match="grad_y and x must have the same shape and dtype; got grad_y "
                             r"float16 \(8,\) and x float32 \(8,\)"):
        f(np.zeros(8, np.float16), x32)
    with pytest.raises(add_custom.InvalidArgumentError, match=r"got grad_y float32 \(4,\)"):
        f(np.zeros(4, np.float32), x32)
    with pytest.raises(add_custom.InvalidArgumentError,
                       match="grad_y has dtype float64; expected float16 or float32"):
        f(x32.astype(np.float64), x32.astype(np.float64))
    with pytest.raises(add_custom.InvalidArgumentError,
                       match=r"block_dim must be an int in \[1, 65535\]"):
        f(x32, x32, block_dim=0)
    with pytest.raises(add_custom.InvalidArgumentError, match="stream"):
        f(x32, x32, stream="not a stream")
    # The module stays usable after every error.
    np.testing.assert_array_equal(f(np.ones(3, np.float32), np.zeros(3, np.float32)), [0.5] * 3)


def test_on_ascend310p_aligned_lengths(rng):
    with add_custom.settings(soc="Ascend310P3"):
        x = uniform(rng, (4096,), np.float16, -4, 4)
        dy = np.ones_like(x)
        np.testing.assert_allclose(add_custom.run_gelu_custom_backward(dy, x).astype(np.float64),
                                   reference_grad(dy, x), atol=1e-3)
        with pytest.raises(add_custom.KernelError, match="DataCopyPad is not available"):
            add_custom.run_gelu_custom_backward(dy[:17], x[:17])


def test_profiled_like_the_other_kernels(rng):
    x = uniform(rng, (8, 2048), np.float16)
    with add_custom.profile() as prof:
        add_custom.run_gelu_custom_backward(x, x, block_dim=8)
    (launch,) = prof.summary()
    assert launch["kernel"] == "gelu_custom_backward" and launch["block_dim"] == 8
    assert launch["estimated_us"] > 0
