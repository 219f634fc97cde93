"""add_custom.Stream: queued launches, synchronize, errors per stream, lifetimes."""
import gc
import threading

import numpy as np
import pytest

import add_custom
from conftest import uniform


def test_many_launches_then_one_synchronize(rng):
    s = add_custom.Stream()
    pairs = [(uniform(rng, (8, 2048), np.float16), uniform(rng, (8, 2048), np.float16))
             for _ in range(20)]
    outs = [add_custom.run_add_custom(x, y, stream=s) for x, y in pairs]
    assert s.pending == 20
    s.synchronize()
    assert s.pending == 0 and s.idle()
    for (x, y), z in zip(pairs, outs):
        np.testing.assert_array_equal(z, x + y)


def test_results_of_mixed_kernels_and_dtypes(rng):
    x32 = uniform(rng, (5000,), np.float32, -3, 3)
    x16 = x32.astype(np.float16)
    with add_custom.Stream() as s:
        g32 = add_custom.run_gelu_custom(x32, stream=s)
        g16 = add_custom.run_gelu_custom(x16, 3, s)
        a16 = add_custom.run_add_custom(x16, x16, stream=s)
    np.testing.assert_array_equal(g32, add_custom.run_gelu_custom(x32))
    np.testing.assert_array_equal(g16, add_custom.run_gelu_custom(x16))
    np.testing.assert_array_equal(a16, x16 + x16)


def test_inputs_dropped_by_caller_stay_alive_until_synchronize(rng):
    s = add_custom.Stream()
    expected, outs = [], []
    for _ in range(10):
        x = uniform(rng, (1 << 16,), np.float32)
        expected.append(x + x)
        outs.append(add_custom.run_add_custom(x, x[::1], stream=s))
        del x
    gc.collect()
    s.synchronize()
    for z, e in zip(outs, expected):
        np.testing.assert_array_equal(z, e)


def test_output_dropped_before_synchronize_is_safe(rng):
    s = add_custom.Stream()
    x = uniform(rng, (1 << 18,), np.float16)
    for _ in range(5):
        add_custom.run_add_custom(x, x, stream=s)  # result discarded at once
    keep = add_custom.run_add_custom(x, x, stream=s)
    s.synchronize()
    np.testing.assert_array_equal(keep, x + x)


def test_non_contiguous_input_copy_lives_until_synchronize(rng):
    base = uniform(rng, (512, 256), np.float32)
    s = add_custom.Stream()
    z = add_custom.run_gelu_custom(base.T, stream=s)
    s.synchronize()
    np.testing.assert_array_equal(z, add_custom.run_gelu_custom(np.ascontiguousarray(base.T)))


def test_error_raised_at_synchronize_not_at_call(rng):
    x = np.ones(16384, np.float16)
    s = add_custom.Stream()
    z = add_custom.testing.run_add_with_length(x, x, 2 * 16384, stream=s)  # returns at once
    assert z.shape == x.shape
    with pytest.raises(add_custom.KernelError,
                       match=r"^add_custom: block 4/8: DataCopy GM->UB read \[") as info:
        s.synchronize()
    assert info.value.kind == "out of bounds"
    # The error was reported once; the stream keeps working.
    s.synchronize()
    ok = add_custom.run_add_custom(x, x, stream=s)
    s.synchronize()
    np.testing.assert_array_equal(ok, x + x)


def test_first_error_wins_and_later_launches_still_run(rng):
    x = uniform(rng, (4096,), np.float32)
    s = add_custom.Stream()
    add_custom.testing.run_dequeue_empty(2, stream=s)
    add_custom.testing.run_ub_overflow(stream=s)
    after = add_custom.run_add_custom(x, x, stream=s)
    with pytest.raises(add_custom.KernelError,
                       match="^dequeue_empty_custom: block 0/2: DeQue") as info:
        s.synchronize()
    assert info.value.kind == "queue misuse"
    np.testing.assert_array_equal(after, x + x)


def test_error_on_one_stream_does_not_leak_to_another(rng):
    x = uniform(rng, (8, 2048), np.float16)
    bad, good = add_custom.Stream(), add_custom.Stream()
    add_custom.testing.run_ub_overflow(4, stream=bad)
    z = add_custom.run_add_custom(x, x, stream=good)
    good.synchronize()  # must not raise
    np.testing.assert_array_equal(z, x + x)
    with pytest.raises(add_custom.KernelError, match="UB"):
        bad.synchronize()
    add_custom.run_add_custom(x, x)  # synchronous calls are unaffected too


def test_same_array_on_two_streams_at_once(rng):
    x = uniform(rng, (1 << 20,), np.float32)
    streams = [add_custom.Stream() for _ in range(3)]
    outs = [add_custom.run_add_custom(x, x, stream=s) for s in streams for _ in range(4)]
    for s in streams:
        s.synchronize()
    for z in outs:
        np.testing.assert_array_equal(z, x + x)


def test_context_manager_synchronizes_and_raises():
    with pytest.raises(add_custom.KernelError):
        with add_custom.Stream() as s:
            add_custom.testing.run_dequeue_empty(stream=s)
    # An exception already leaving the block is not replaced by the stream's error.
    with pytest.raises(KeyError):
        with add_custom.Stream() as s:
            add_custom.testing.run_dequeue_empty(stream=s)
            raise KeyError("mine")


def test_destroying_a_busy_stream_waits_and_drops_the_error(rng):
    x = uniform(rng, (1 << 18,), np.float32)
    s = add_custom.Stream()
    z = add_custom.run_gelu_custom(x, stream=s)
    add_custom.testing.run_dequeue_empty(stream=s)
    del s
    gc.collect()
    np.testing.assert_array_equal(z, add_custom.run_gelu_custom(x))


def test_argument_errors_raise_at_call_time_and_queue_nothing():
    s = add_custom.Stream()
    with pytest.raises(add_custom.InvalidArgumentError):
        add_custom.run_add_custom(np.ones(4), np.ones(4), stream=s)
    with pytest.raises(add_custom.InvalidArgumentError):
        add_custom.run_gelu_custom(np.ones(4, np.float32), 0, s)
    assert s.pending == 0
    s.synchronize()


def test_python_threads_share_a_stream_and_sync_calls_run_concurrently(rng):
    x = uniform(rng, (1 << 16,), np.float32)
    s = add_custom.Stream()
    results, errors = [], []

    def worker():
        try:
            for _ in range(10):
                results.append(add_custom.run_add_custom(x, x, stream=s))
                results.append(add_custom.run_gelu_custom(x))  # synchronous, GIL released
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    s.synchronize()
    assert not errors
    gelu = add_custom.run_gelu_custom(x)
    adds = [r for r in results if np.array_equal(r, x + x)]
    gelus = [r for r in results if np.array_equal(r, gelu)]
    assert len(adds) == 40 and len(gelus) == 40


def test_overlapping_views_of_one_buffer_on_two_streams(rng):
    x = uniform(rng, (20000,), np.float32)
    s1, s2 = add_custom.Stream(), add_custom.Stream()
    z1 = add_custom.run_add_custom(x[:10000], x[:10000], stream=s1)
    z2 = add_custom.run_add_custom(x[5000:15000], x[5000:15000], stream=s2)
    z3 = add_custom.run_gelu_custom(x[::-1], stream=s2)  # a copy: its own buffer
    s2.synchronize()
    s1.synchronize()
    np.testing.assert_array_equal(z1, x[:10000] + x[:10000])
    np.testing.assert_array_equal(z2, x[5000:15000] + x[5000:15000])
    np.testing.assert_array_equal(z3, add_custom.run_gelu_custom(np.ascontiguousarray(x[::-1])))


def test_two_threads_synchronize_one_stream_while_others_queue(rng):
    x = uniform(rng, (1 << 15,), np.float32)
    s = add_custom.Stream()
    outs, errors = [], []

    def producer():
        try:
            for _ in range(30):
                outs.append(add_custom.run_add_custom(x, x, stream=s))
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    def syncer():
        try:
            for _ in range(30):
                s.synchronize()
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=f) for f in (producer, producer, syncer, syncer)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    s.synchronize()
    assert not errors and s.pending == 0
    for z in outs:
        np.testing.assert_array_equal(z, x + x)


def test_kernel_error_wins_over_a_warning_turned_error():
    import warnings
    s = add_custom.Stream()
    add_custom.testing.run_unaligned_copy(np.ones(64, np.float16), 7, stream=s)
    add_custom.testing.run_dequeue_empty(stream=s)
    with warnings.catch_warnings():
        warnings.simplefilter("error", add_custom.SimulatorWarning)
        with pytest.raises(add_custom.KernelError, match="DeQue"):
            s.synchronize()
