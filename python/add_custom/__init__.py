"""add_custom: Ascend C kernels (add_custom, gelu_custom) on ascsim's simulated NPU, over NumPy.

    import numpy as np, add_custom
    x = np.random.uniform(-1, 1, [8, 2048]).astype(np.float16)
    y = np.random.uniform(-1, 1, [8, 2048]).astype(np.float16)
    z = add_custom.run_add_custom(x, y)          # == x + y

The seed's pybind module, on the same runtime as the `ascsim` package: Stream, profile(), the
settings, errors and warnings are ascsim's own objects (add_custom.KernelError is
ascsim.KernelError). Errors derive from add_custom.Error (RuntimeError); kernel faults raise
add_custom.KernelError; non-fatal device traps are issued as add_custom.SimulatorWarning.
"""
from __future__ import annotations

from typing import Any, Optional

import numpy as np

from ascsim import (DeviceMemoryError, Error, InvalidArgumentError, KernelError,
                    OutOfBoundsError, Profile, QueueMisuseError, SimulatorWarning, Stream,
                    StrictWarningError, SyncMisuseError, TimeoutError, UbOverflowError,
                    __version__, get_sanitize, get_serial, get_soc, get_strict, get_timeout,
                    list_socs, memory_stats, profile, release_cached_memory, sanitize,
                    set_sanitize, set_serial, set_soc, set_strict, set_timeout, settings,
                    worker_count)
from ascsim import _core


def run_add_custom(x: Any, y: Any, block_dim: int = 8,
                   stream: Optional[Stream] = None) -> np.ndarray:
    """z = x + y element-wise on the simulated NPU (the add_custom Ascend C kernel).

    x, y: NumPy arrays (or anything np.asarray turns into one) of dtype float16 or float32, of
    the same shape and dtype; any shape, including 0-d and empty. Other dtypes raise
    InvalidArgumentError (no implicit cast). Non-contiguous inputs are copied to contiguous ones.
    block_dim: number of logical AI-core blocks, an int in [1, 65535].
    stream: None runs synchronously and raises KernelError on a kernel fault; an
    add_custom.Stream queues the launch and returns at once (the result is valid after
    stream.synchronize()).
    Returns a new array of x's shape and dtype whose memory is the device output buffer.
    """
    return _core.run_add_custom(x, y, block_dim, stream)


def run_gelu_custom(x: Any, block_dim: int = 8, stream: Optional[Stream] = None) -> np.ndarray:
    """y = gelu(x) element-wise (tanh approximation) on the simulated NPU (the gelu_custom
    kernel).

    Same argument rules as run_add_custom; float16 inputs are computed in float32 inside the
    kernel and rounded once on the way out.
    """
    return _core.run_gelu_custom(x, block_dim, stream)


def run_matmul_custom(a: Any, b: Any, bias: Any = None, out_dtype: Any = np.float32,
                      block_dim: int = 0, stream: Optional[Stream] = None) -> np.ndarray:
    """C = a @ b (+ bias) on the simulated NPU's Cube unit (the matmul_custom kernel: a mixed
    AIC + AIV kernel with the high-level Matmul API and host tiling).

    a: (m, k) float16, b: (k, n) float16, bias: (n,) float32 or None; 1 <= m, n, k <= 65535.
    The products are accumulated in float32 (L0C) and C is returned as out_dtype (float32, or
    float16 rounded once on the way out). block_dim: the number of AI cores (AICs) to use, 0 for
    every AIC of the active SoC; the tiling may use fewer. Like the other kernels, with a stream
    the result is valid after stream.synchronize().
    """
    return _core.run_matmul_custom(a, b, bias, out_dtype, block_dim, stream)


def __getattr__(name: str) -> Any:
    # add_custom.testing (the deliberately faulty kernels) is imported on first use: it exists
    # only in the CMake build tree.
    if name == "testing":
        import importlib
        try:
            return importlib.import_module("add_custom.testing")
        except ImportError as e:
            raise AttributeError(str(e)) from e
    raise AttributeError(f"module 'add_custom' has no attribute {name!r}")


__all__ = [
    "__version__", "run_add_custom", "run_gelu_custom", "run_matmul_custom", "Stream", "profile", "Profile",
    "set_soc", "get_soc", "list_socs", "set_strict", "get_strict", "set_serial", "get_serial",
    "set_timeout", "get_timeout", "set_sanitize", "get_sanitize", "sanitize", "settings",
    "memory_stats", "release_cached_memory", "worker_count",
    "Error", "InvalidArgumentError", "OutOfBoundsError", "DeviceMemoryError", "UbOverflowError",
    "QueueMisuseError", "SyncMisuseError", "StrictWarningError", "TimeoutError", "KernelError",
    "SimulatorWarning",
]
