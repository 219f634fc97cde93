"""Reliability: the launch timeout, Ctrl-C, fork, stream lifetime and interpreter exit.

A kernel developer runs buggy kernels from pytest, threads and multiprocessing and presses
Ctrl-C: the module must fail the right call with the documented error and stay usable.
"""
import gc
import multiprocessing
import os
import select
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import add_custom

ENV = dict(os.environ)


# The timeout each test sets is restored by conftest's restore_settings (ascsim.settings()).


def check_add(stream=None, n=5000, block_dim=8):
    x = np.arange(n, dtype=np.float32)
    z = add_custom.run_add_custom(x, x, block_dim=block_dim, stream=stream)
    if stream is not None:
        stream.synchronize()
    np.testing.assert_array_equal(z, 2 * x)


# ---- timeout -----------------------------------------------------------------------------------

def test_default_timeout_is_generous_and_documented():
    out = run_python("import add_custom as a; print(a.get_timeout())", ASCSIM_TIMEOUT="")
    assert out.stdout.strip() == "300.0", out.stderr


def test_stuck_kernel_fails_with_timeout_naming_kernel_block_and_limit():
    add_custom.set_timeout(0.25)
    start = time.monotonic()
    with pytest.raises(add_custom.TimeoutError) as info:
        add_custom.testing.run_spin_forever(4)
    took = time.monotonic() - start
    assert 0.24 <= took < 5
    assert isinstance(info.value, TimeoutError) and isinstance(info.value, add_custom.Error)
    assert info.value.kind == "timeout"
    message = str(info.value)
    assert message.startswith("spin_forever_custom: block 0/4: launch timed out")
    assert "0.25 s" in message
    check_add()  # the next launch works


def test_timeout_on_a_stream_is_reported_there_and_later_launches_run():
    add_custom.set_timeout(0.1)
    s = add_custom.Stream()
    x = np.ones(1000, np.float32)
    before = add_custom.run_add_custom(x, x, stream=s)
    add_custom.testing.run_spin_forever(2, stream=s)
    after = add_custom.run_add_custom(x, x, stream=s)
    with pytest.raises(add_custom.TimeoutError, match="block 0/2"):
        s.synchronize()
    np.testing.assert_array_equal(before, 2 * x)
    np.testing.assert_array_equal(after, 2 * x)
    s.synchronize()  # the error was reported once


@pytest.mark.parametrize("bad", [-1.0, float("nan"), float("inf")])
def test_bad_timeouts_are_refused(bad):
    add_custom.set_timeout(2.0)
    with pytest.raises(add_custom.InvalidArgumentError, match="timeout"):
        add_custom.set_timeout(bad)
    assert add_custom.get_timeout() == 2.0


@pytest.mark.parametrize("seconds", [1e10, 1e12, 1e300])
def test_huge_timeout_is_no_timeout(seconds):
    add_custom.set_timeout(seconds)
    x = np.arange(5000, dtype=np.float32)
    np.testing.assert_array_equal(add_custom.run_add_custom(x, x), 2 * x)
    s = add_custom.Stream()
    z = add_custom.run_gelu_custom(x, stream=s)
    s.synchronize()
    assert np.isfinite(z).all()


def run_python(code, timeout=60, **env):
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=timeout, env={**ENV, **env})


def test_timeout_from_environment_and_zero_turns_it_off():
    out = run_python("""
        import add_custom as a
        print(a.get_timeout())
        try:
            a.testing.run_spin_forever(2)
        except a.TimeoutError as e:
            print(e.kind)
        """, ASCSIM_TIMEOUT="0.2")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["0.2", "timeout"]
    out = run_python("import add_custom as a; print(a.get_timeout())", ASCSIM_TIMEOUT="0")
    assert out.stdout.strip() == "0.0"
    out = run_python("import add_custom as a; print(a.get_timeout())", ASCSIM_TIMEOUT="soon")
    assert out.stdout.strip() == "300.0" and "ASCSIM_TIMEOUT=soon" in out.stderr


# ---- Ctrl-C ------------------------------------------------------------------------------------

# Every child that gets a SIGINT installs Python's handler itself: a process started in the
# background by a non-interactive shell inherits SIGINT ignored, and Python then leaves it so.
INTERRUPTED_CHILD = """
    import signal; signal.signal(signal.SIGINT, signal.default_int_handler)
    import sys, numpy as np, add_custom as a
    a.set_timeout(0)  # only Ctrl-C can end these launches
    x = np.ones(4096, np.float32)
    print("ready", flush=True)
    try:
        {launch}
    except KeyboardInterrupt:
        print("KeyboardInterrupt", flush=True)
    # usable afterwards, on the same stream too
    np.testing.assert_array_equal(a.run_add_custom(x, x), 2 * x)
    s = a.Stream()
    z = a.run_add_custom(x, x, stream=s)
    s.synchronize()
    np.testing.assert_array_equal(z, 2 * x)
    print("usable", flush=True)
"""


@pytest.mark.parametrize("launch", [
    "a.testing.run_spin_forever(4)",
    "a.testing.run_spin_forever(1, stream=None)",
    "s0 = a.Stream(); a.testing.run_spin_forever(2, stream=s0); s0.synchronize()",
], ids=["sync", "sync-one-block", "stream-synchronize"])
def test_ctrl_c_interrupts_a_long_launch_promptly(launch):
    child = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(INTERRUPTED_CHILD).replace("{launch}", launch)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(0.3)  # the launch is running
        start = time.monotonic()
        child.send_signal(signal.SIGINT)
        # Bounded: a lost SIGINT fails the test instead of hanging it.
        if not select.select([child.stdout], [], [], 30)[0]:
            pytest.fail("no KeyboardInterrupt 30 s after SIGINT (the launch ran on)")
        line = child.stdout.readline().strip()
        took = time.monotonic() - start
        out, err = child.communicate(timeout=30)
    finally:
        child.kill()
    assert line == "KeyboardInterrupt", err
    assert took < 2.0
    assert out.strip() == "usable", err
    assert child.returncode == 0, err


# A SIGINT that arrives after the interpreter's last look at its signals but before the launch's
# own handler is in place only sets Python's flag. The launch must look at that flag once its
# handler is in place, or nothing would until the launch returns (never, with timeout 0). The child
# makes that moment exact: its profile function is PyErr_SetInterrupt itself (C, no Python frame,
# so no check follows it), called on the "c_call" event of the launch, just before the launch's C++
# code runs.
CTRL_C_BEFORE_THE_HANDLER = """
    import signal; signal.signal(signal.SIGINT, signal.default_int_handler)
    import ctypes, sys, numpy as np, add_custom as a
    a.set_timeout(0)
    x = np.ones(64, np.float32)
    a.run_add_custom(x, x)  # first launch: whatever Python the bindings call once is done
    trip = ctypes.pythonapi.PyErr_SetInterrupt
    trip.argtypes = [ctypes.py_object] * 3  # called as a profile function: (frame, event, arg)
    trip.restype = ctypes.c_int
    launch, index = a.testing._library.launch, a.testing._index["spin_forever"]
    result = "returned"
    try:
        try:
            sys.setprofile(trip)
            launch(index, (), 1, None)
        finally:
            sys.setprofile(None)  # trips once more (its own call event): caught below too
    except KeyboardInterrupt:
        result = "KeyboardInterrupt"
    print(result, flush=True)
"""


def test_ctrl_c_just_before_the_launch_installs_its_handler_is_not_lost():
    child = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(CTRL_C_BEFORE_THE_HANDLER)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    try:
        out, err = child.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        child.kill()
        pytest.fail("the launch ran on with a SIGINT pending (lost Ctrl-C)")
    assert out.split() == ["KeyboardInterrupt"], err
    assert child.returncode == 0, err


def test_ctrl_c_not_caught_ends_the_program_with_keyboard_interrupt():
    child = subprocess.Popen(
        [sys.executable, "-c",
         "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
         "import add_custom as a; a.set_timeout(0); print('ready', flush=True); "
         "a.testing.run_spin_forever(2)"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(0.2)
        start = time.monotonic()
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=30)
        took = time.monotonic() - start
    finally:
        child.kill()
    assert took < 2.0
    assert "KeyboardInterrupt" in err
    # Python exits from an uncaught KeyboardInterrupt by re-raising SIGINT (not SIGSEGV/SIGABRT).
    assert child.returncode == -signal.SIGINT, err
    assert "Fatal Python error" not in err


# ---- fork --------------------------------------------------------------------------------------

def _add_in_worker(i):
    x = np.full(30000, i, np.float32)
    return float(add_custom.run_add_custom(x, x, block_dim=4)[-1])


def test_os_fork_child_launches_and_pre_fork_stream_fails_cleanly():
    check_add()  # pool threads and the watchdog exist before the fork
    before = add_custom.Stream()
    check_add(before)
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: report through the pipe, never return into pytest
        code = 1
        try:
            os.close(r)
            check_add()
            try:
                add_custom.run_add_custom(np.ones(8, np.float32), np.ones(8, np.float32),
                                          stream=before)
                msg = "pre-fork stream accepted a launch"
            except add_custom.InvalidArgumentError as e:
                msg = "ok" if "before fork()" in str(e) else str(e)
            check_add(add_custom.Stream())
            add_custom.set_timeout(0.1)
            try:
                add_custom.testing.run_spin_forever(2)
                msg = "no timeout in the child"
            except add_custom.TimeoutError:
                pass
            os.write(w, msg.encode())
            code = 0
        finally:
            os._exit(code)
    os.close(w)
    _, status = os.waitpid(pid, 0)
    msg = os.read(r, 1000).decode()
    os.close(r)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
    assert msg == "ok"
    check_add(before)  # the parent's stream is unaffected


def test_multiprocessing_fork_pool_runs_kernels():
    check_add()
    ctx = multiprocessing.get_context("fork")
    with ctx.Pool(3) as pool:
        results = pool.map(_add_in_worker, range(24))
    assert results == [2.0 * i for i in range(24)]
    check_add()


# ---- stream lifetime and exit ------------------------------------------------------------------

def test_closed_stream_refuses_use_with_invalid_argument():
    s = add_custom.Stream()
    x = np.ones(256, np.float32)
    z = add_custom.run_add_custom(x, x, stream=s)
    s.close()  # synchronizes first
    np.testing.assert_array_equal(z, 2 * x)
    for use in (lambda: add_custom.run_add_custom(x, x, stream=s), s.synchronize, s.idle,
                lambda: add_custom.testing.run_dequeue_empty(stream=s)):
        with pytest.raises(add_custom.InvalidArgumentError, match="closed"):
            use()
    s.close()  # twice is fine
    with s:
        pass  # __exit__ of a closed stream does nothing


def test_close_raises_the_pending_error_then_closes():
    s = add_custom.Stream()
    add_custom.testing.run_dequeue_empty(stream=s)
    with pytest.raises(add_custom.KernelError):
        s.close()
    with pytest.raises(add_custom.InvalidArgumentError):
        s.synchronize()


def test_dropping_a_stream_with_queued_work_keeps_results_valid():
    x = np.arange(1 << 16, dtype=np.float32)
    s = add_custom.Stream()
    outs = [add_custom.run_add_custom(x, x, stream=s) for _ in range(8)]
    del s  # waits for the queued launches
    gc.collect()
    for z in outs:
        np.testing.assert_array_equal(z, 2 * x)


CLOSE_WHILE_SYNCHRONIZING = """
    import threading, time, numpy as np, add_custom as a
    a.set_timeout(0.25)  # the stuck launch ends by timeout
    for i in range(10):
        s = a.Stream()
        a.testing.run_spin_forever(2, stream=s)
        x = np.ones(4096, np.float32)
        z = a.run_add_custom(x, x, stream=s)
        outcome = []
        def wait():
            try:
                s.synchronize()
                outcome.append("ok")
            except (a.TimeoutError, a.InvalidArgumentError) as e:
                outcome.append(type(e).__name__)
        t = threading.Thread(target=wait)
        t.start()
        time.sleep(0.01 * (i % 5))  # the waiter is inside synchronize(), GIL released
        try:
            s.close()
        except a.TimeoutError:
            pass
        t.join(30)
        assert not t.is_alive(), "synchronize() never returned"
        assert outcome, outcome
        np.testing.assert_array_equal(z, 2 * x)  # the queued add ran before the stream went away
        try:
            s.synchronize()
            raise AssertionError("a closed stream must refuse synchronize()")
        except a.InvalidArgumentError:
            pass
    print("done", flush=True)
"""


def test_close_while_another_thread_synchronizes():
    out = run_python(CLOSE_WHILE_SYNCHRONIZING, timeout=30)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "done"


DEL_STUCK_STREAM = """
    import signal; signal.signal(signal.SIGINT, signal.default_int_handler)  # even if inherited ignored
    import time, numpy as np, add_custom as a
    a.set_timeout(0)  # only Ctrl-C can end this launch
    s = a.Stream()
    a.testing.run_spin_forever(2, stream=s)
    print("ready", flush=True)
    try:
        del s
        for _ in range(200):
            time.sleep(0.05)
        print("no interrupt", flush=True)
    except KeyboardInterrupt:
        print("KeyboardInterrupt", flush=True)
    x = np.ones(4096, np.float32)
    np.testing.assert_array_equal(a.run_add_custom(x, x), 2 * x)
    print("usable", flush=True)
"""


def test_ctrl_c_during_del_of_a_stuck_stream():
    child = subprocess.Popen([sys.executable, "-c", textwrap.dedent(DEL_STUCK_STREAM)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV)
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(0.3)  # inside `del s`, waiting for the launch
        start = time.monotonic()
        child.send_signal(signal.SIGINT)
        # Bounded: a child that ignores SIGINT fails the test instead of hanging it.
        out, err = child.communicate(timeout=10)
        took = time.monotonic() - start
    except subprocess.TimeoutExpired:
        child.kill()
        pytest.fail("the child ignored SIGINT while destroying the stream")
    finally:
        child.kill()
    assert out.split() == ["KeyboardInterrupt", "usable"], err
    assert took < 5.0
    assert child.returncode == 0, err


def test_exit_with_a_stuck_kernel_queued_is_prompt_and_clean():
    out = run_python("""
        import numpy as np, add_custom as a
        a.set_timeout(0)
        s = a.Stream()
        a.testing.run_spin_forever(2, stream=s)
        a.run_add_custom(np.ones(64, np.float32), np.ones(64, np.float32), stream=s)
        print("done", flush=True)
        """, timeout=30)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "done"


# ---- overlapping views (registry) --------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_overlapping_views_of_one_array_are_not_false_out_of_bounds(dtype):
    base = np.arange(3000).astype(dtype)
    x, y = base[:2000], base[1000:3000]  # contiguous views: registered without a copy
    z = add_custom.run_add_custom(x, y, block_dim=8)
    expected = (x.astype(np.float64) + y.astype(np.float64)).astype(dtype)
    np.testing.assert_array_equal(z, expected)
    s = add_custom.Stream()
    zs = [add_custom.run_add_custom(base[i:i + 1000], base[i + 500:i + 1500], stream=s)
          for i in range(0, 1500, 250)]
    s.synchronize()
    for i, zi in zip(range(0, 1500, 250), zs):
        np.testing.assert_array_equal(
            zi, (base[i:i + 1000].astype(np.float64) + base[i + 500:i + 1500]).astype(dtype))
