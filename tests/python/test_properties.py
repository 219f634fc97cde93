"""Property tests (hypothesis): any float16/float32 shape and block_dim gives NumPy's answer."""
import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402

import add_custom  # noqa: E402

DTYPES = st.sampled_from([np.float16, np.float32])
SHAPES = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=70)
BLOCK_DIMS = st.one_of(st.integers(1, 64), st.sampled_from([1000, 65535]))


@settings(max_examples=150, deadline=None)
@given(data=st.data(), dtype=DTYPES, shape=SHAPES, block_dim=BLOCK_DIMS)
def test_add_matches_numpy(data, dtype, shape, block_dim):
    elements = st.floats(-1e4, 1e4, width=np.dtype(dtype).itemsize * 8)
    x = data.draw(hnp.arrays(dtype, shape, elements=elements))
    y = data.draw(hnp.arrays(dtype, shape, elements=elements))
    z = add_custom.run_add_custom(x, y, block_dim=block_dim)
    expected = (x.astype(np.float64) + y.astype(np.float64)).astype(dtype)
    assert z.shape == x.shape and z.dtype == x.dtype
    np.testing.assert_array_equal(z, expected)


@settings(max_examples=100, deadline=None)
@given(data=st.data(), shape=SHAPES, block_dim=BLOCK_DIMS)
def test_gelu_float16_equals_float32_path_rounded(data, shape, block_dim):
    # The float16 kernel computes in float32 and rounds once (CAST_RINT), so it equals the float32
    # kernel's result rounded to float16, bit for bit (checked for all 63488 finite halves too).
    x = data.draw(hnp.arrays(np.float16, shape, elements=st.floats(-8, 8, width=16)))
    y16 = add_custom.run_gelu_custom(x, block_dim=block_dim)
    y32 = add_custom.run_gelu_custom(x.astype(np.float32), block_dim=block_dim)
    np.testing.assert_array_equal(y16, y32.astype(np.float16))
