"""add_custom.run_matmul_custom: the shipped Matmul-API kernel (AIC + AIV) against NumPy float64."""
import numpy as np
import pytest

import add_custom


def reference(a, b, bias=None):
    c = a.astype(np.float64) @ b.astype(np.float64)
    if bias is not None:
        c += bias.astype(np.float64)
    return c


def inputs(m, k, n, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    return a, b


# float32 accumulation of k half products: the error grows like sqrt(k) ulps of the partial sums.
def tolerance(k):
    return 1e-5 * max(1.0, np.sqrt(k)) * 4


@pytest.mark.parametrize("m,k,n", [(16, 16, 16), (1, 1, 1), (33, 47, 65), (128, 256, 96),
                                   (257, 31, 17)])
def test_float32_out_matches_float64(m, k, n):
    a, b = inputs(m, k, n)
    c = add_custom.run_matmul_custom(a, b)
    assert c.dtype == np.float32 and c.shape == (m, n)
    ref = reference(a, b)
    np.testing.assert_allclose(c, ref, rtol=0, atol=tolerance(k) * max(1.0, np.abs(ref).max()))


def test_bias_and_half_out():
    a, b = inputs(40, 64, 48, seed=1)
    bias = np.random.default_rng(2).uniform(-1, 1, 48).astype(np.float32)
    c = add_custom.run_matmul_custom(a, b, bias=bias, out_dtype=np.float16)
    assert c.dtype == np.float16
    ref = reference(a, b, bias)
    # One rounding to half on the way out: within half an ulp of float16 plus the sum's error.
    np.testing.assert_allclose(c.astype(np.float64), ref, rtol=2 ** -10, atol=1e-3)


@pytest.mark.parametrize("block_dim", [1, 2, 0])
def test_any_block_dim_gives_the_product(block_dim):
    # The tiling (and so the order of the float32 sums) depends on the cores used: results agree
    # to the accumulation's rounding, not bit for bit, as on the device.
    a, b = inputs(96, 80, 112, seed=3)
    c = add_custom.run_matmul_custom(a, b, block_dim=block_dim)
    np.testing.assert_allclose(c, reference(a, b), rtol=0, atol=tolerance(80) * 4)


def test_on_a_stream():
    a, b = inputs(64, 32, 64, seed=4)
    with add_custom.Stream() as s:
        c = add_custom.run_matmul_custom(a, b, stream=s)
        s.synchronize()
    np.testing.assert_allclose(c, reference(a, b), rtol=0, atol=1e-3)


def test_profile_sees_the_cube():
    a, b = inputs(128, 128, 128, seed=5)
    with add_custom.profile() as prof:
        add_custom.run_matmul_custom(a, b)
    rows = prof.summary()
    assert [r["kernel"] for r in rows] == ["matmul_custom"]
    assert rows[0]["estimated_us"] > 0
    assert rows[0]["pipes"].get("M", 0) > 0  # the Cube unit's pipe was busy


@pytest.mark.parametrize("args,message", [
    (lambda a, b: (a.astype(np.float32), b), "must be float16"),
    (lambda a, b: (a[0], b), "must be 2-D"),
    (lambda a, b: (a, b[:5]), "a's columns must equal b's rows"),
])
def test_bad_arguments_say_what_is_wrong(args, message):
    a, b = inputs(8, 16, 8)
    with pytest.raises(add_custom.InvalidArgumentError, match=message):
        add_custom.run_matmul_custom(*args(a, b))


def test_bad_bias_and_dtype():
    a, b = inputs(8, 16, 8)
    with pytest.raises(add_custom.InvalidArgumentError, match="bias must be a float32"):
        add_custom.run_matmul_custom(a, b, bias=np.zeros(7, np.float32))
    with pytest.raises(add_custom.InvalidArgumentError, match="out_dtype must be"):
        add_custom.run_matmul_custom(a, b, out_dtype=np.int32)
    with pytest.raises(add_custom.InvalidArgumentError, match="outside"):
        add_custom.run_matmul_custom(np.zeros((0, 16), np.float16), b)
    # Everything still works afterwards.
    np.testing.assert_allclose(add_custom.run_matmul_custom(a, b), reference(a, b), atol=1e-3)
