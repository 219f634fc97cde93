"""Property tests (hypothesis) for reliability: any layout of valid input gives NumPy's answer, on
any stream; any bad input is answered by the documented exceptions only, and the module stays
usable."""
import numpy as np
import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402

import add_custom  # noqa: E402

DTYPES = st.sampled_from([np.float16, np.float32])
BLOCK_DIMS = st.one_of(st.integers(1, 48), st.sampled_from([1000, 65535]))


def reference_add(x, y):
    return (np.asarray(x, np.float64) + np.asarray(y, np.float64)).astype(x.dtype)


@st.composite
def strided_views(draw, dtype, shape=None):
    """An array of `dtype` as a view: random offset into a larger buffer, random steps (negative
    too) per axis, maybe transposed. Returns (view, shape)."""
    if shape is None:
        shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=40))
    transpose = len(shape) > 1 and draw(st.booleans())
    if transpose:
        shape = tuple(shape)[::-1]  # built reversed, returned transposed: the asked shape
    steps = [draw(st.sampled_from([1, 1, 2, 3, -1, -2])) for _ in shape]
    offset = draw(st.integers(0, 7))
    big_shape = [n * abs(s) + offset for n, s in zip(shape, steps)]
    width = np.dtype(dtype).itemsize * 8
    base = draw(hnp.arrays(dtype, big_shape, elements=st.floats(-1e3, 1e3, width=width)))
    index = tuple(slice(offset, offset + n * s, s) if s > 0 else
                  slice(offset + n * abs(s) - 1, offset - 1 if offset > 0 else None, s)
                  for n, s in zip(shape, steps))
    view = base[index]
    assert view.shape == tuple(shape)
    return view.T if transpose else view


@settings(max_examples=120, deadline=None)
@given(data=st.data(), dtype=DTYPES, block_dim=BLOCK_DIMS, use_stream=st.booleans())
def test_add_of_any_layout_matches_numpy(data, dtype, block_dim, use_stream):
    x = data.draw(strided_views(dtype))
    y = data.draw(strided_views(dtype, shape=x.shape))  # same shape, independent layout
    assert y.shape == x.shape
    if data.draw(st.booleans()):
        x.flags.writeable = False  # read-only inputs are fine: kernels only read them
    stream = add_custom.Stream() if use_stream else None
    z = add_custom.run_add_custom(x, y, block_dim=block_dim, stream=stream)
    if stream is not None:
        stream.synchronize()
        assert stream.pending == 0 and stream.idle()
    assert z.shape == x.shape and z.dtype == x.dtype
    np.testing.assert_array_equal(z, reference_add(x, y))


@settings(max_examples=60, deadline=None)
@given(data=st.data(), dtype=DTYPES, streams=st.integers(1, 4),
       launches=st.integers(1, 12))
def test_launches_spread_over_streams_each_get_their_own_result(data, dtype, streams, launches):
    pool = [add_custom.Stream() for _ in range(streams)]
    jobs = []
    for _ in range(launches):
        n = data.draw(st.integers(1, 5000))
        x = np.arange(n, dtype=np.float64).astype(dtype)
        y = np.full(n, data.draw(st.integers(-8, 8)), dtype)
        s = data.draw(st.sampled_from(pool + [None]))
        jobs.append((x, y, add_custom.run_add_custom(x, y, block_dim=data.draw(BLOCK_DIMS),
                                                     stream=s)))
    for s in pool:
        s.synchronize()
    for x, y, z in jobs:
        np.testing.assert_array_equal(z, reference_add(x, y))


def misaligned(dtype, n):
    raw = np.zeros(n * np.dtype(dtype).itemsize + 1, np.uint8)
    a = np.frombuffer(raw.data, dtype=dtype, count=n, offset=1)
    assert not a.flags.aligned
    a[...] = np.arange(n) % 100
    return a


BAD_ARRAYS = st.one_of(
    st.sampled_from([None, "abc", b"bytes", 3, 2.5, {"a": 1}, object(), [1, 2, 3],
                     [[1.0, 2.0]], (1.0,)]),
    st.sampled_from([np.int32, np.int64, np.float64, np.complex64, np.bool_, np.uint8,
                     np.object_]).map(lambda t: np.zeros(16, t)),
    st.sampled_from(["U3", "S2", "V4", ">f4", ">f2"]).map(lambda t: np.zeros(16, t)),
    st.just(np.zeros((4, 4), np.float32)[:, :, None][..., 0].reshape(2, 8)),
)
BAD_BLOCK_DIMS = st.one_of(st.integers(max_value=0), st.integers(min_value=65536),
                           st.sampled_from([True, False, 1.0, "8", None, np.float32(4)]))


@settings(max_examples=150, deadline=None)
@given(data=st.data(), dtype=DTYPES, n=st.integers(1, 300))
def test_bad_inputs_get_documented_errors_only(data, dtype, n):
    good = np.ones(n, dtype)
    choice = data.draw(st.sampled_from(["x", "y", "block_dim", "shape", "stream", "unaligned"]))
    x, y, block_dim, stream = good, good, 8, None
    if choice == "x":
        x = data.draw(BAD_ARRAYS)
    elif choice == "y":
        y = data.draw(BAD_ARRAYS)
    elif choice == "block_dim":
        block_dim = data.draw(BAD_BLOCK_DIMS)
    elif choice == "shape":
        y = np.ones(n + data.draw(st.integers(1, 5)), dtype)
    elif choice == "stream":
        stream = data.draw(st.sampled_from([1, "s", object(), np.zeros(2)]))
    else:
        x = misaligned(dtype, n)  # valid data, unaligned: copied, must work
    try:
        z = add_custom.run_add_custom(x, y, block_dim=block_dim, stream=stream)
    except add_custom.InvalidArgumentError as e:
        assert isinstance(e, ValueError) and e.kind == "invalid argument"
        assert str(e)  # a message, one line naming the problem
        assert "\n" not in str(e)
    else:
        # Only inputs that really are valid may succeed, with NumPy's answer.
        assert choice in ("unaligned", "x", "y"), choice
        xa, ya = np.asarray(x), np.asarray(y)
        assert xa.dtype in (np.float16, np.float32) and xa.dtype == ya.dtype
        np.testing.assert_array_equal(z, reference_add(xa, ya))
    # the module stays usable
    np.testing.assert_array_equal(add_custom.run_add_custom(good, good), 2 * good)


@settings(max_examples=40, deadline=None)
@given(bad=BAD_ARRAYS, block_dim=st.one_of(st.integers(1, 16), BAD_BLOCK_DIMS))
def test_gelu_bad_inputs_get_documented_errors_only(bad, block_dim):
    try:
        add_custom.run_gelu_custom(bad, block_dim=block_dim)
    except add_custom.InvalidArgumentError:
        pass
    x = np.linspace(-3, 3, 100, dtype=np.float32)
    assert np.isfinite(add_custom.run_gelu_custom(x)).all()
