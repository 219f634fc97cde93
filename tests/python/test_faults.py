"""Kernel faults, warnings and strict mode, driven by the deliberately faulty kernels in
add_custom.testing (kernel/testing/faulty_kernels.cpp)."""
import warnings

import numpy as np
import pytest

import add_custom
from add_custom import testing as faulty
from conftest import uniform

N = 8 * 2048  # the seed's [8, 2048]


def assert_module_still_works(rng):
    x, y = uniform(rng, (8, 2048), np.float16), uniform(rng, (8, 2048), np.float16)
    np.testing.assert_array_equal(add_custom.run_add_custom(x, y), x + y)


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_add_with_the_right_length_is_the_real_kernel(rng, dtype):
    x, y = uniform(rng, (N,), dtype), uniform(rng, (N,), dtype)
    np.testing.assert_array_equal(faulty.run_add_with_length(x, y, N), x + y)
    # A shorter length leaves the rest of the output untouched by the kernel: only check the head.
    np.testing.assert_array_equal(faulty.run_add_with_length(x, y, 1000)[:1000], (x + y)[:1000])


def test_read_past_the_arrays_names_block_call_and_range(rng):
    x = np.ones(N, np.float16)
    # 8 blocks of 4608 elements: block 3 covers [13824, 18432), past the 16384-element arrays.
    with pytest.raises(add_custom.KernelError) as info:
        faulty.run_add_with_length(x, x, 8 * 4608)
    message = str(info.value)
    assert message.startswith("add_custom: block 3/8: DataCopy GM->UB read [0, 4608) of half")
    assert "runs outside its device allocation of 32768 B" in message
    assert "\n" not in message
    assert info.value.kind == "out of bounds"
    assert isinstance(info.value, add_custom.Error) and isinstance(info.value, RuntimeError)
    assert_module_still_works(rng)


@pytest.mark.parametrize("block_dim", [1, 4, 8, 100])
def test_first_failing_block_is_reported(block_dim):
    x = np.ones(N, np.float32)
    # Twice the real length: the first block whose slice starts past the arrays fails first.
    pattern = r"^add_custom: block (\d+)/%d: DataCopy GM->UB read \[" % block_dim
    with pytest.raises(add_custom.KernelError, match=pattern) as info:
        faulty.run_add_with_length(x, x, 2 * N, block_dim=block_dim)
    per_block = -(-2 * N // block_dim)
    per_block = -(-per_block // 8) * 8  # float32: 8 elements per 32 B
    first_bad = next(b for b in range(block_dim) if (b + 1) * per_block > N)
    assert str(info.value).startswith("add_custom: block %d/%d:" % (first_bad, block_dim))


def test_dequeue_of_empty_queue(rng):
    with pytest.raises(add_custom.KernelError,
                       match=r"^dequeue_empty_custom: block 0/3: "
                             r"DeQue on VECIN queue: the queue is empty") as info:
        faulty.run_dequeue_empty(3)
    assert info.value.kind == "queue misuse"
    assert "507014" in str(info.value)
    assert_module_still_works(rng)


def test_ub_overflow_names_sizes_and_soc(rng):
    with pytest.raises(add_custom.KernelError,
                       match=r"InitBuffer: .* exceeding the Unified Buffer "
                             r"\(196608 B on Ascend910B1\)") as info:
        faulty.run_ub_overflow(2)
    assert info.value.kind == "UB overflow"
    add_custom.set_soc("Ascend310P3")
    with pytest.raises(add_custom.KernelError, match=r"\(262144 B on Ascend310P3\)"):
        faulty.run_ub_overflow(2)
    assert_module_still_works(rng)


def test_unaligned_copy_warns_and_drops_the_tail_like_the_device():
    x = np.arange(1, 41, dtype=np.float16)
    with pytest.warns(add_custom.SimulatorWarning,
                      match=r"DataCopy GM->UB count 20 of half \(40 B\) is not a multiple of 32 B"):
        z = faulty.run_unaligned_copy(x, 20, block_dim=2)
    # Each block copies 32 B (16 elements) of its 20; the other 4 stay zero.
    expected = x.copy()
    expected[16:20] = 0
    expected[36:40] = 0
    np.testing.assert_array_equal(z, expected)


def test_aligned_copy_does_not_warn():
    x = np.arange(64, dtype=np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        z = faulty.run_unaligned_copy(x, 16, block_dim=4)
    np.testing.assert_array_equal(z, x)


def test_strict_mode_turns_the_warning_into_an_error(rng):
    x = np.arange(40, dtype=np.float32)
    add_custom.set_strict(True)
    assert add_custom.get_strict()
    with pytest.raises(add_custom.KernelError,
                       match=r"^unaligned_copy_custom: block 0/1: DataCopy GM->UB count 5 of "
                             r"float \(20 B\).*\[strict mode\]$") as info:
        faulty.run_unaligned_copy(x, 5)
    assert info.value.kind == "strict-mode warning"
    # The shipped kernels are clean under strict mode, for every length.
    for n in (1, 7, 31, 2048, 10001):
        a = uniform(rng, (n,), np.float16)
        np.testing.assert_array_equal(add_custom.run_add_custom(a, a), a + a)
        add_custom.run_gelu_custom(a)
    add_custom.set_strict(False)
    assert not add_custom.get_strict()
    with pytest.warns(add_custom.SimulatorWarning):
        faulty.run_unaligned_copy(x, 5)


def test_warning_from_a_stream_is_issued_at_synchronize():
    x = np.arange(40, dtype=np.float16)
    s = add_custom.Stream()
    z = faulty.run_unaligned_copy(x, 20, stream=s)
    with pytest.warns(add_custom.SimulatorWarning, match="UB->GM count 20 of half"):
        s.synchronize()
    np.testing.assert_array_equal(z[:16], x[:16])


def test_warnings_filter_error_raises_the_warning():
    x = np.arange(40, dtype=np.float16)
    with warnings.catch_warnings():
        warnings.simplefilter("error", add_custom.SimulatorWarning)
        with pytest.raises(add_custom.SimulatorWarning):
            faulty.run_unaligned_copy(x, 20)
    np.testing.assert_array_equal(add_custom.run_add_custom(x, x), x + x)


def test_testing_arguments_are_checked():
    x = np.ones(64, np.float16)
    with pytest.raises(add_custom.InvalidArgumentError, match=r"count must be an int in \[1, 32\]"):
        faulty.run_unaligned_copy(x, 33, block_dim=2)
    with pytest.raises(add_custom.InvalidArgumentError, match="total_length"):
        faulty.run_add_with_length(x, x, -1)
    with pytest.raises(add_custom.InvalidArgumentError, match="block_dim"):
        faulty.run_dequeue_empty(0)


def test_serial_mode_reports_the_same_fault():
    x = np.ones(N, np.float16)
    messages = []
    for serial in (True, False):
        add_custom.set_serial(serial)
        with pytest.raises(add_custom.KernelError) as info:
            faulty.run_add_with_length(x, x, 8 * 4608)
        messages.append(str(info.value).split(" at 0x")[0])
    assert messages[0] == messages[1]
