"""Bad arguments raise InvalidArgumentError (a ValueError) naming what is wrong; never a crash."""
import numpy as np
import pytest

import add_custom

X16 = np.ones((8, 16), np.float16)


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.int64, np.uint8, np.bool_,
                                   np.complex64, object])
def test_rejects_other_dtypes_without_casting(dtype):
    x = np.ones(16, dtype)
    with pytest.raises(add_custom.InvalidArgumentError, match=np.dtype(dtype).name):
        add_custom.run_add_custom(x, x)
    with pytest.raises(ValueError, match="expected float16 or float32"):
        add_custom.run_gelu_custom(x)


def test_rejects_python_float_lists_which_become_float64():
    with pytest.raises(add_custom.InvalidArgumentError, match="float64 .from list."):
        add_custom.run_add_custom([1.0, 2.0], [3.0, 4.0])


def test_rejects_non_native_byte_order():
    x = np.ones(16, ">f4" if np.little_endian else "<f4")
    with pytest.raises(add_custom.InvalidArgumentError, match="f4"):
        add_custom.run_gelu_custom(x)


@pytest.mark.parametrize("bad", [None, "abc", {"a": 1}, object()])
def test_rejects_non_arrays(bad):
    with pytest.raises(add_custom.InvalidArgumentError):
        add_custom.run_add_custom(bad, X16)
    with pytest.raises(add_custom.Error):
        add_custom.run_gelu_custom(bad)


def test_shape_mismatch_names_both():
    y = np.ones((8, 15), np.float16)
    with pytest.raises(add_custom.InvalidArgumentError,
                       match=r"x and y must have the same shape and dtype; got x float16 "
                             r"\(8, 16\) and y float16 \(8, 15\)"):
        add_custom.run_add_custom(X16, y)


def test_dtype_mismatch_names_both():
    with pytest.raises(ValueError, match=r"got x float16 \(8, 16\) and y float32 \(8, 16\)"):
        add_custom.run_add_custom(X16, X16.astype(np.float32))


def test_same_size_different_shape_is_a_mismatch():
    with pytest.raises(add_custom.InvalidArgumentError):
        add_custom.run_add_custom(X16, X16.reshape(16, 8))


@pytest.mark.parametrize("block_dim", [0, 65536, -1, 2 ** 70, "8", 8.0, True, None, np.float32(8)])
def test_block_dim_out_of_range_or_not_an_int(block_dim):
    expected = r"block_dim must be an int in \[1, 65535\]"
    with pytest.raises(add_custom.InvalidArgumentError, match=expected):
        add_custom.run_add_custom(X16, X16, block_dim=block_dim)
    with pytest.raises(add_custom.InvalidArgumentError, match="block_dim"):
        add_custom.run_gelu_custom(X16, block_dim)


def test_stream_must_be_a_stream():
    with pytest.raises(add_custom.InvalidArgumentError,
                       match="stream must be an add_custom.Stream"):
        add_custom.run_add_custom(X16, X16, 8, "stream")


def test_exception_hierarchy():
    assert issubclass(add_custom.Error, RuntimeError)
    assert issubclass(add_custom.InvalidArgumentError, add_custom.Error)
    assert issubclass(add_custom.InvalidArgumentError, ValueError)
    assert issubclass(add_custom.OutOfBoundsError, IndexError)
    assert issubclass(add_custom.DeviceMemoryError, MemoryError)
    assert issubclass(add_custom.KernelError, add_custom.Error)
    assert issubclass(add_custom.SimulatorWarning, UserWarning)


def test_module_stays_usable_after_errors():
    for bad in (np.ones(3), "x", None):
        with pytest.raises(add_custom.Error):
            add_custom.run_gelu_custom(bad)
    np.testing.assert_array_equal(add_custom.run_add_custom(X16, X16), X16 + X16)



def test_host_memory_error_while_copying_a_huge_view_leaves_the_module_usable():
    huge = np.broadcast_to(np.float16(1), (1 << 45,))  # 64 TiB once made contiguous
    with pytest.raises(MemoryError):
        add_custom.run_gelu_custom(huge)
    np.testing.assert_array_equal(add_custom.run_add_custom(X16, X16), X16 + X16)


def test_total_length_beyond_uint32_is_rejected():
    with pytest.raises(add_custom.InvalidArgumentError,
                       match=r"total_length must be an int in \[0, 4294967295\]"):
        add_custom.testing.run_add_with_length(X16, X16, 1 << 32)


@pytest.mark.parametrize("block_dim", [np.bool_(True), np.bool_(False), True])
def test_block_dim_rejects_bools(block_dim):
    x = np.ones(64, np.float32)
    with pytest.raises(add_custom.InvalidArgumentError, match="block_dim must be an int"):
        add_custom.run_add_custom(x, x, block_dim=block_dim)


@pytest.mark.parametrize("func", ["add", "gelu"])
def test_stream_argument_checked_for_empty_inputs(func):
    x = np.ones(0, np.float32)
    run = ((lambda s: add_custom.run_add_custom(x, x, stream=s)) if func == "add"
           else (lambda s: add_custom.run_gelu_custom(x, stream=s)))
    with pytest.raises(add_custom.InvalidArgumentError, match="stream must be"):
        run("not a stream")
    closed = add_custom.Stream()
    closed.close()
    with pytest.raises(add_custom.InvalidArgumentError, match="closed"):
        run(closed)
    assert run(None).shape == (0,)


def test_masked_arrays_are_rejected():
    x = np.ma.masked_array(np.ones(64, np.float32), mask=[i % 2 for i in range(64)])
    with pytest.raises(add_custom.InvalidArgumentError, match="MaskedArray"):
        add_custom.run_add_custom(x, x.data)
    with pytest.raises(add_custom.InvalidArgumentError, match="MaskedArray"):
        add_custom.run_gelu_custom(x)
