"""ascsim.load_op with a dynamic input (a tensor list) and bfloat16 inputs and outputs:
tests/customop/SumList (y = x[0] + x[1] + ..., float or bfloat16 summed in float), against
float64 references."""
import inspect
import os
from typing import List

import numpy as np
import pytest

import ascsim

PROJECTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "customop")


@pytest.fixture(scope="module")
def sum_list(tmp_path_factory):
    return ascsim.load_op(os.path.join(PROJECTS, "SumList", "SumListCustom"),
                          build_dir=str(tmp_path_factory.mktemp("sum_list_cache")))


def to_bf16_bits(x):
    """float64 -> bfloat16 bits, rounding to nearest even (as CAST_RINT does)."""
    bits = np.asarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    return rounded.astype(np.uint16)


def from_bf16_bits(b):
    return (b.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def test_signature_shows_the_list_input(sum_list):
    sig = inspect.signature(sum_list)
    assert list(sig.parameters)[:1] == ["x"]
    assert sig.parameters["x"].annotation == List[np.ndarray]
    assert "input x (dynamic): bfloat16, float32" in sum_list.__doc__


@pytest.mark.parametrize("count", [1, 2, 5])
# Multiples of 16 elements: one core, several cores and several tiles per core.
@pytest.mark.parametrize("shape", [(16,), (3, 80), (4, 1536)])
def test_float_list_matches_numpy(sum_list, count, shape):
    rng = np.random.default_rng(count * 100 + len(shape))
    xs = [rng.standard_normal(shape).astype(np.float32) for _ in range(count)]
    y = sum_list(xs)
    assert y.dtype == np.float32 and y.shape == shape
    want = np.sum([x.astype(np.float64) for x in xs], axis=0)
    np.testing.assert_allclose(y, want, rtol=1e-6, atol=1e-6 * count)
    # A tuple works as well as a list.
    np.testing.assert_array_equal(sum_list(tuple(xs)), y)


@pytest.mark.parametrize("count", [1, 3])
@pytest.mark.parametrize("shape", [(32,), (2, 400)])
def test_bfloat16_bits_in_and_out(sum_list, count, shape):
    rng = np.random.default_rng(7 + count)
    values = [rng.uniform(-4, 4, shape) for _ in range(count)]
    bits = [to_bf16_bits(v) for v in values]
    y = sum_list(bits)
    assert y.dtype == np.uint16 and y.shape == shape  # bfloat16 comes back as its bits
    # The reference: the bfloat16 inputs summed in float64, rounded once to bfloat16.
    want = np.sum([from_bf16_bits(b) for b in bits], axis=0)
    got = from_bf16_bits(y)
    np.testing.assert_allclose(got, want, rtol=2 ** -8, atol=1e-30)
    np.testing.assert_array_equal(y, to_bf16_bits(want.astype(np.float32)))


def test_bfloat16_out_array(sum_list):
    x = to_bf16_bits(np.linspace(-2, 2, 64))
    out = np.zeros(64, dtype=np.uint16)
    ret = sum_list([x, x], out=out)
    assert ret is out
    np.testing.assert_allclose(from_bf16_bits(out), 2 * from_bf16_bits(x), rtol=0)


def test_bad_list_arguments_name_the_parameter(sum_list):
    x = np.ones(16, np.float32)
    with pytest.raises(ascsim.InvalidArgumentError, match="input x is a dynamic input: pass a list"):
        sum_list(x)
    with pytest.raises(ascsim.InvalidArgumentError, match="input x is an empty list"):
        sum_list([])
    with pytest.raises(ascsim.InvalidArgumentError, match=r"input x\[1\] must be a numpy.ndarray"):
        sum_list([x, 3.0])
    with pytest.raises(ascsim.InvalidArgumentError,
                       match=r"takes no \(x -> y\) = \(DT_DOUBLE -> absent\)"):
        sum_list([np.ones(16)])
    with pytest.raises(ascsim.InvalidArgumentError, match=r"x\[0\] has dtype complex64"):
        sum_list([np.ones(16, np.complex64)])
    # Mixed data types across the list: the aclnn validation names the parameter.
    with pytest.raises(ascsim.InvalidArgumentError, match="x"):
        sum_list([x, to_bf16_bits(x)])
    # Shapes the TilingFunc refuses.
    with pytest.raises(ascsim.InvalidArgumentError):
        sum_list([np.ones(15, np.float32)])
    # Everything is still usable afterwards.
    np.testing.assert_array_equal(sum_list([x, x]), 2 * x)
