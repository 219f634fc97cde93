"""run_add_custom against NumPy over dtypes, shapes, views and block_dim."""
import numpy as np
import pytest

import add_custom
from conftest import uniform

SHAPES = [(), (0,), (0, 5), (1,), (7,), (31,), (2048,), (8, 2048), (3, 5, 7), (17, 33, 3),
          (1 << 20) + 3]
DTYPES = [np.float16, np.float32]


def reference_add(x, y):
    """The sum in float64, rounded once to the input dtype (as the simulator rounds per op)."""
    return (x.astype(np.float64) + y.astype(np.float64)).astype(x.dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_matches_numpy_exactly(rng, shape, dtype):
    x, y = uniform(rng, shape, dtype), uniform(rng, shape, dtype)
    z = add_custom.run_add_custom(x, y)
    assert isinstance(z, np.ndarray)
    assert z.shape == x.shape and z.dtype == x.dtype
    np.testing.assert_array_equal(z, reference_add(x, y))


@pytest.mark.parametrize("dtype", DTYPES)
def test_large_magnitudes_and_special_values(dtype):
    info = np.finfo(dtype)
    x = np.array([info.max, -info.max, info.tiny, np.inf, -np.inf, 0.0, -0.0, 1.0] * 5, dtype)
    y = np.array([info.max, info.max, -info.tiny, 1.0, -np.inf, -0.0, -0.0, np.nan] * 5, dtype)
    with np.errstate(over="ignore", invalid="ignore"):
        expected = reference_add(x, y)
    np.testing.assert_array_equal(add_custom.run_add_custom(x, y), expected)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("view", ["step2", "reversed", "transposed", "column_slice"])
def test_non_contiguous_views(rng, view, dtype):
    base_x, base_y = uniform(rng, (64, 130), dtype), uniform(rng, (64, 130), dtype)
    make = {
        "step2": lambda a: a[:, ::2],
        "reversed": lambda a: a[::-1, ::-1],
        "transposed": lambda a: a.T,
        "column_slice": lambda a: a[:, 3:101],
    }[view]
    x, y = make(base_x), make(base_y)
    assert not x.flags.c_contiguous
    z = add_custom.run_add_custom(x, y)
    assert z.shape == x.shape and z.flags.c_contiguous
    np.testing.assert_array_equal(z, reference_add(x, y))


def test_overlapping_views_of_one_buffer(rng):
    a = uniform(rng, (5000,), np.float32)
    x, y = a[:4000], a[1000:]
    np.testing.assert_array_equal(add_custom.run_add_custom(x, y), reference_add(x, y))
    np.testing.assert_array_equal(add_custom.run_add_custom(a, a), reference_add(a, a))


def test_output_of_one_launch_feeds_the_next(rng):
    x, y = uniform(rng, (3000,), np.float16), uniform(rng, (3000,), np.float16)
    z = add_custom.run_add_custom(x, y)
    w = add_custom.run_add_custom(z, z)
    np.testing.assert_array_equal(w, reference_add(z, z))
    np.testing.assert_array_equal(add_custom.run_add_custom(z[10:], x[10:]),
                                  reference_add(z[10:], x[10:]))


def test_inputs_are_not_modified(rng):
    x, y = uniform(rng, (4096,), np.float32), uniform(rng, (4096,), np.float32)
    x0, y0 = x.copy(), y.copy()
    add_custom.run_add_custom(x, y)
    np.testing.assert_array_equal(x, x0)
    np.testing.assert_array_equal(y, y0)


def test_output_is_writable_and_independent(rng):
    x, y = uniform(rng, (100,), np.float32), uniform(rng, (100,), np.float32)
    z1 = add_custom.run_add_custom(x, y)
    z2 = add_custom.run_add_custom(x, y)
    z1[:] = 0
    np.testing.assert_array_equal(z2, reference_add(x, y))


def test_accepts_lists_and_scalars_of_float32():
    x = [np.float32(1.5), np.float32(2.25)]
    z = add_custom.run_add_custom(x, x)
    assert z.dtype == np.float32
    np.testing.assert_array_equal(z, [3.0, 4.5])
    s = add_custom.run_add_custom(np.float16(1.5), np.float16(0.25))
    assert s.shape == () and s.dtype == np.float16 and s == np.float16(1.75)


@pytest.mark.parametrize("block_dim", [1, 2, 3, 7, 8, 48, 49, 1000, 65535])
@pytest.mark.parametrize("n", [1, 15, 16, 17, 2048 * 8 + 5])
def test_block_dim_range_including_more_blocks_than_elements(rng, block_dim, n):
    x, y = uniform(rng, (n,), np.float16), uniform(rng, (n,), np.float16)
    np.testing.assert_array_equal(add_custom.run_add_custom(x, y, block_dim=block_dim),
                                  reference_add(x, y))


def test_block_dim_accepts_numpy_integers(rng):
    x, y = uniform(rng, (64,), np.float32), uniform(rng, (64,), np.float32)
    np.testing.assert_array_equal(add_custom.run_add_custom(x, y, np.int64(3)), reference_add(x, y))


def test_serial_mode_gives_the_same_result(rng):
    x, y = uniform(rng, (8, 2048), np.float32), uniform(rng, (8, 2048), np.float32)
    add_custom.set_serial(True)
    assert add_custom.get_serial()
    z_serial = add_custom.run_add_custom(x, y, block_dim=16)
    add_custom.set_serial(False)
    z_parallel = add_custom.run_add_custom(x, y, block_dim=16)
    np.testing.assert_array_equal(z_serial, z_parallel)
    np.testing.assert_array_equal(z_serial, reference_add(x, y))


def test_a_module_named_torch_without_tensors_does_not_break_launches(rng, monkeypatch):
    # A folder named torch on sys.path (examples/torch beside examples/benchmark.py) imports as
    # an empty namespace package; launches must not take it for PyTorch.
    import types
    monkeypatch.setitem(__import__("sys").modules, "torch", types.ModuleType("torch"))
    x, y = uniform(rng, (8, 2048), np.float16), uniform(rng, (8, 2048), np.float16)
    np.testing.assert_array_equal(add_custom.run_add_custom(x, y), reference_add(x, y))
