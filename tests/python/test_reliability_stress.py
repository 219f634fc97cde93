"""Stress: many Python threads, each with its own streams, mixing good and faulty launches; and
resident memory staying flat over many launches."""
import gc
import os
import threading

import numpy as np
import pytest

import add_custom

THREADS = 8
STREAMS_PER_THREAD = 4
LAUNCHES_PER_STREAM = 500

# The faulty kernels of add_custom.testing, with the error each must raise.
FAULTS = {
    "dequeue_empty": ("dequeue_empty_custom: block 0/", "queue misuse"),
    "ub_overflow": ("ub_overflow_custom: block 0/", "UB overflow"),
    "out_of_bounds": ("add_custom: block ", "out of bounds"),
}


def launch_fault(name, stream, rng):
    if name == "dequeue_empty":
        add_custom.testing.run_dequeue_empty(int(rng.integers(1, 4)), stream=stream)
    elif name == "ub_overflow":
        add_custom.testing.run_ub_overflow(int(rng.integers(1, 4)), stream=stream)
    else:
        x = np.ones(256, np.float32)
        add_custom.testing.run_add_with_length(x, x, 4096, 4, stream=stream)


def expect_fault(error, name):
    prefix, kind = FAULTS[name]
    assert isinstance(error, add_custom.KernelError), repr(error)
    assert error.kind == kind, (name, str(error))
    assert str(error).startswith(prefix), (name, str(error))


def stream_worker(seed, failures, counts):
    """One thread: its own streams, LAUNCHES_PER_STREAM launches on each, in batches that end in
    a synchronize; a batch holds at most one faulty launch, which that synchronize must report
    (and nothing else must be reported)."""
    rng = np.random.default_rng(seed)
    streams = [add_custom.Stream() for _ in range(STREAMS_PER_THREAD)]
    try:
        for s_index, s in enumerate(streams):
            done = 0
            while done < LAUNCHES_PER_STREAM:
                batch = min(int(rng.integers(1, 12)), LAUNCHES_PER_STREAM - done)
                fault_at = int(rng.integers(0, batch)) if rng.random() < 0.3 else -1
                fault = str(rng.choice(list(FAULTS)))
                results = []
                for i in range(batch):
                    if i == fault_at:
                        launch_fault(fault, s, rng)
                        continue
                    dtype = np.float16 if rng.random() < 0.5 else np.float32
                    n = int(rng.integers(1, 3000))
                    x = (rng.standard_normal(n) * 8).astype(dtype)
                    y = np.full(n, seed + s_index, dtype)
                    z = add_custom.run_add_custom(x, y, int(rng.integers(1, 9)), stream=s)
                    results.append((x, y, z))
                done += batch
                counts[seed] += batch
                try:
                    s.synchronize()
                    if fault_at >= 0:
                        failures.append(f"stream {s_index}: {fault} not reported")
                except add_custom.KernelError as e:
                    if fault_at < 0:
                        failures.append(f"stream {s_index}: unexpected {e}")
                    else:
                        expect_fault(e, fault)
                        counts[THREADS + seed] += 1
                for x, y, z in results:
                    expected = (x.astype(np.float64) + y.astype(np.float64)).astype(x.dtype)
                    if not np.array_equal(z, expected):
                        failures.append(f"stream {s_index}: wrong result for n={x.size}")
                assert s.pending == 0 and s.idle()
            # A synchronous launch between streams: its fault is its own.
            try:
                launch_fault("dequeue_empty", None, rng)
                failures.append("synchronous fault not raised")
            except add_custom.KernelError as e:
                expect_fault(e, "dequeue_empty")
    except Exception as e:  # noqa: BLE001 - reported by the main thread
        failures.append(f"thread {seed}: {type(e).__name__}: {e}")
    finally:
        for s in streams:
            s.synchronize()  # nothing left pending, no error left unreported
            if s.pending or not s.idle():
                failures.append("stream left pending work")


def test_threads_streams_good_and_faulty_launches():
    failures = []
    counts = [0] * (2 * THREADS)  # launches per thread, then faults seen per thread
    threads = [threading.Thread(target=stream_worker, args=(seed, failures, counts))
               for seed in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
        assert not t.is_alive(), "a stress thread hung"
    assert failures == []
    assert counts[:THREADS] == [STREAMS_PER_THREAD * LAUNCHES_PER_STREAM] * THREADS
    assert all(f > 10 for f in counts[THREADS:]), counts  # every thread met faults
    # total: THREADS * STREAMS_PER_THREAD * LAUNCHES_PER_STREAM launches (+1 sync each stream)
    x = np.ones(100, np.float32)
    np.testing.assert_array_equal(add_custom.run_add_custom(x, x), 2 * x)


def resident_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


LAUNCHES_FOR_MEMORY = 10_000
RESIDENT_GROWTH_LIMIT = 64 << 20


def under_asan():
    try:
        with open("/proc/self/maps") as f:
            return "libasan" in f.read()
    except OSError:
        return False


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs Linux /proc")
@pytest.mark.skipif(under_asan(), reason="ASan's quarantine keeps freed memory resident (256 MiB "
                    "by default): RSS says nothing about leaks there")
def test_resident_memory_stays_flat_over_many_launches():
    rng = np.random.default_rng(7)
    sizes = rng.integers(1, 20000, 64)
    inputs = [(np.ones(n, np.float32), np.ones(n, np.float16)) for n in sizes]
    s = add_custom.Stream()

    def run(count):
        for i in range(count):
            x32, x16 = inputs[i % len(inputs)]
            kind = i % 8
            if kind == 0:
                add_custom.run_add_custom(x16, x16, 4, stream=s)
            elif kind == 1:
                add_custom.run_gelu_custom(x32, 4)
            elif kind == 2:
                try:
                    add_custom.testing.run_dequeue_empty(1)
                except add_custom.KernelError:
                    pass
            elif kind == 3:
                try:
                    add_custom.run_add_custom(x32, x16)
                except add_custom.InvalidArgumentError:
                    pass
            else:
                add_custom.run_add_custom(x32, x32, 8)
            if i % 64 == 63:
                s.synchronize()
        s.synchronize()

    run(1000)  # warm-up: pool threads, caches, allocator size classes
    gc.collect()
    before = resident_bytes()
    stats_before = add_custom.memory_stats()
    run(LAUNCHES_FOR_MEMORY)
    gc.collect()
    growth = resident_bytes() - before
    stats = add_custom.memory_stats()
    assert growth < RESIDENT_GROWTH_LIMIT, f"resident memory grew by {growth >> 20} MiB"
    # Device memory: every output was freed with its array (in_use back where it was), the cache
    # keeps at most what the largest size classes need, and the peak is what one batch needs.
    assert stats["in_use_bytes"] == stats_before["in_use_bytes"]
    assert stats["allocations"] == stats_before["allocations"]
    assert stats["cached_bytes"] <= 64 << 20
    assert stats["peak_bytes"] >= stats["in_use_bytes"]
