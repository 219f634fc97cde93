"""Reliability round 2 (issue 11): the Python-side findings and rough edges.

Stream close() racing synchronize() on another thread, `del` of a stream whose launch never ends,
huge timeouts, GELU at +-inf and NaN, and the argument checks that used to accept nonsense.
Crash- or hang-prone cases run in a child process with a deadline, so a regression fails the
test instead of killing or hanging pytest.
"""
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import add_custom

ENV = dict(os.environ)


@pytest.fixture(autouse=True)
def restore_timeout():
    previous = add_custom.get_timeout()
    yield
    add_custom.set_timeout(previous)


def run_child(code, timeout=60):
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=timeout, env=ENV)


# ---- 1. close() on one thread while another is inside synchronize() --------------------------

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
    out = run_child(CLOSE_WHILE_SYNCHRONIZING, timeout=30)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "done"


# ---- 5. del of a stream whose launch never ends ------------------------------------------------

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


# ---- 6. a huge timeout ---------------------------------------------------------------------------

@pytest.mark.parametrize("seconds", [1e10, 1e12, 1e300])
def test_huge_timeout_is_no_timeout(seconds):
    add_custom.set_timeout(seconds)
    x = np.arange(5000, dtype=np.float32)
    np.testing.assert_array_equal(add_custom.run_add_custom(x, x), 2 * x)
    s = add_custom.Stream()
    z = add_custom.run_gelu_custom(x, stream=s)
    s.synchronize()
    assert np.isfinite(z).all()


# ---- 13. GELU at the special values --------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_gelu_of_infinities_and_nan(dtype):
    x = np.array([-np.inf, np.inf, np.nan, -1e4 if dtype == np.float32 else -6e4, -30, -20.5,
                  -20, -19.5, -11, -3, 0, 3, 30], dtype)
    y = add_custom.run_gelu_custom(x)
    assert y[0] == 0 and not np.isnan(y[0])       # GELU(-inf) = 0
    assert y[1] == np.inf                         # GELU(+inf) = +inf
    assert np.isnan(y[2])                         # NaN stays NaN
    assert (y[3:7] == 0).all()                    # far left: 0 (signed zero either way)
    with np.errstate(over="ignore"):
        exact = 0.5 * x[7:].astype(np.float64) * (
            1 + np.tanh(np.sqrt(2 / np.pi) * (x[7:].astype(np.float64)
                                              + 0.044715 * x[7:].astype(np.float64) ** 3)))
    np.testing.assert_allclose(y[7:], exact.astype(dtype), rtol=2e-3 if dtype == np.float16
                               else 2e-6, atol=1e-30)
    # The same inputs in a long array (full repeats, tails, several tiles and blocks).
    big = np.resize(x, 50021).astype(dtype)
    np.testing.assert_array_equal(np.isnan(add_custom.run_gelu_custom(big, block_dim=7)),
                                  np.isnan(big))
    assert not np.isnan(add_custom.run_gelu_custom(big)[~np.isnan(big)]).any()


# ---- rough edges ---------------------------------------------------------------------------------

@pytest.mark.parametrize("value", [None, 2, 0, 1.0, "yes"])
def test_flags_must_be_bools(value):
    for setter in (add_custom.set_strict, add_custom.set_serial):
        with pytest.raises(add_custom.InvalidArgumentError, match="must be a bool"):
            setter(value)


def test_flags_accept_numpy_bools():
    add_custom.set_strict(np.bool_(True))
    assert add_custom.get_strict() is True
    add_custom.set_strict(np.bool_(False))
    assert add_custom.get_strict() is False


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


def test_a_stopped_profile_cannot_be_reentered():
    x = np.ones(4096, np.float32)
    with add_custom.profile() as prof:
        add_custom.run_add_custom(x, x)
    assert len(prof.summary()) == 1
    with pytest.raises(add_custom.InvalidArgumentError, match="stopped"):
        with prof:
            add_custom.run_add_custom(x, x)
    assert len(prof.summary()) == 1
