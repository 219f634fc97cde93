"""add_custom: Ascend C kernels (add_custom, gelu_custom, gelu_custom_backward, rms_norm_custom,
matmul_custom) on ascsim's simulated NPU, over NumPy arrays or CPU torch tensors.

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

import sys
from typing import Any, Optional, Sequence, Tuple

import numpy as np

from ascsim import (DeviceMemoryError, Error, InvalidArgumentError, KernelError,
                    OutOfBoundsError, Profile, QueueMisuseError, SimulatorWarning, Stream,
                    StrictWarningError, SyncMisuseError, TimeoutError, UbOverflowError,
                    __version__, get_sanitize, get_serial, get_soc, get_strict, get_timeout,
                    list_socs, memory_stats, profile, release_cached_memory, sanitize,
                    set_sanitize, set_serial, set_soc, set_strict, set_timeout, settings,
                    worker_count)
from ascsim import _core


def _tensor_call(func: str, names: Sequence[str], inputs: Tuple[Any, ...], launch: Any,
                 dtypes: Sequence[str] = (), bf16: Any = None) -> Any:
    """Runs launch(*arrays) on the inputs; when any input is a torch tensor, tensors are passed as
    NumPy views of their memory (no copy) and the results come back as tensors over the output
    buffers. bfloat16 tensors, which NumPy cannot hold, go to bf16(*uint16 bit arrays) when the
    kernel has a bfloat16 variant. Without torch imported nothing is checked beyond an isinstance
    per input."""
    torch = sys.modules.get("torch")
    # getattr: a folder named torch on sys.path (examples/torch beside a script) imports as an
    # empty namespace package.
    tensor = getattr(torch, "Tensor", None)
    if tensor is None or not any(isinstance(v, tensor) for v in inputs):
        return launch(*inputs)
    from ascsim.torch import _tensors
    is_bf16 = [isinstance(v, torch.Tensor) and v.dtype == torch.bfloat16 for v in inputs]
    if any(is_bf16) and bf16 is not None:
        for name, value, flag in zip(names, inputs, is_bf16):
            if not flag:
                kind = value.dtype if isinstance(value, torch.Tensor) else type(value).__name__
                raise InvalidArgumentError(
                    f"{func}: {', '.join(names)} must all be bfloat16 tensors when one is; "
                    f"{name} is {kind}")
        arrays = [_tensors.as_array(v, func, n) for n, v in zip(names, inputs)]
        return _tensors.as_tensor(bf16(*arrays), torch.bfloat16)
    arrays = []
    for name, value in zip(names, inputs):
        if isinstance(value, torch.Tensor):
            _tensors.check_tensor(value, func, name)
            if value.dtype == torch.bfloat16 or (
                    dtypes and value.dtype not in tuple(getattr(torch, d) for d in dtypes)):
                raise InvalidArgumentError(
                    f"{func}: {name} has dtype {value.dtype}; expected "
                    + (" or ".join(dtypes) or "float16 or float32")
                    + " (inputs are never cast implicitly; a bfloat16 tensor reaches your own "
                    "kernels through ascsim.load, see ascsim.torch)")
            value = _tensors.as_array(value, func, name)
        arrays.append(value)
    out = launch(*arrays)
    if isinstance(out, tuple):
        return tuple(_tensors.as_tensor(o) for o in out)
    return _tensors.as_tensor(out)


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
    Tensors: CPU float16/float32/bfloat16 contiguous torch tensors are used in place and the
    result is a tensor (see the module's doc); bfloat16 runs the kernel's bfloat16 variant
    (computed in float32, rounded to nearest even; not on the 310P, which has no bfloat16).
    """
    if type(x) is np.ndarray and type(y) is np.ndarray:  # no tensor: skip _tensor_call (~0.4 us)
        return _core.run_add_custom(x, y, block_dim, stream)
    return _tensor_call("run_add_custom", ("x", "y"), (x, y),
                        lambda a, b: _core.run_add_custom(a, b, block_dim, stream),
                        ("float16", "float32"),
                        lambda a, b: _core.run_elementwise_bf16("add_custom", (a, b), block_dim,
                                                                stream))


def run_gelu_custom(x: Any, block_dim: int = 8, stream: Optional[Stream] = None) -> np.ndarray:
    """y = gelu(x) element-wise (tanh approximation) on the simulated NPU (the gelu_custom
    kernel).

    Same argument rules as run_add_custom (bfloat16 tensors included); float16 and bfloat16
    inputs are computed in float32 inside the kernel and rounded once on the way out.
    """
    if type(x) is np.ndarray:  # no tensor: skip _tensor_call
        return _core.run_gelu_custom(x, block_dim, stream)
    return _tensor_call("run_gelu_custom", ("x",), (x,),
                        lambda a: _core.run_gelu_custom(a, block_dim, stream),
                        ("float16", "float32"),
                        lambda a: _core.run_elementwise_bf16("gelu_custom", (a,), block_dim,
                                                             stream))


def run_gelu_custom_backward(grad_y: Any, x: Any, block_dim: int = 8,
                             stream: Optional[Stream] = None) -> np.ndarray:
    """grad_x = grad_y * gelu'(x) element-wise on the simulated NPU (the gelu_custom_backward
    kernel): the derivative of run_gelu_custom's tanh form, computed in float32 as CANN's GeluGrad
    does (float16 inputs are rounded once on the way out).

    grad_y, x: float16 or float32 arrays (or tensors, also bfloat16) of the same shape and dtype;
    the other argument rules are run_add_custom's. Returns grad_x of x's shape and dtype.
    """
    return _tensor_call("run_gelu_custom_backward", ("grad_y", "x"), (grad_y, x),
                        lambda g, a: _core.run_gelu_custom_backward(g, a, block_dim, stream),
                        ("float16", "float32"),
                        lambda g, a: _core.run_elementwise_bf16("gelu_custom_backward", (g, a),
                                                                block_dim, stream))


def run_rms_norm_custom(x: Any, gamma: Any, eps: float = 1e-6, block_dim: int = 8,
                        stream: Optional[Stream] = None, return_rstd: bool = False) -> Any:
    """y = x / sqrt(mean(x^2 over the last axis) + eps) * gamma on the simulated NPU (the
    rms_norm_custom kernel, CANN's RmsNorm: float16 or float32 in and out, the sum of squares and
    the products in float32).

    x: float16 or float32, at least 1-D; gamma: x's dtype, shape (x.shape[-1],); eps: a float
    >= 0. Each block normalises whole rows, which must fit in the Unified Buffer (at most
    rms_norm_custom_max_cols(dtype) elements: about 8,700 float16 on a 192 KiB UB).
    block_dim: at most this many blocks (never more than there are rows).
    Returns y (x's shape and dtype), or (y, rstd) with return_rstd=True, rstd float32 of
    x.shape[:-1] = 1 / sqrt(mean(x^2) + eps) (the operator's second output).
    """
    y, rstd = _tensor_call("run_rms_norm_custom", ("x", "gamma"), (x, gamma),
                           lambda a, g: _core.run_rms_norm_custom(a, g, eps, block_dim, stream),
                           ("float16", "float32"))
    return (y, rstd) if return_rstd else y


def rms_norm_custom_max_cols(dtype: Any) -> int:
    """The longest row run_rms_norm_custom takes for dtype (float16 or float32) on the active
    SoC: the kernel keeps a row, its float copy and x^2 in the Unified Buffer."""
    try:
        name = np.dtype(dtype).name
    except TypeError:
        name = str(dtype).replace("torch.", "")  # torch.float16
    return _core.rms_norm_custom_max_cols(name)


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
    if not isinstance(out_dtype, (str, np.dtype, type)):
        out_dtype = str(out_dtype).replace("torch.", "")  # torch.float16 -> "float16"
    return _tensor_call("run_matmul_custom", ("a", "b", "bias"), (a, b, bias),
                        lambda x, y, z: _core.run_matmul_custom(x, y, z, out_dtype, block_dim,
                                                                stream))


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
    "__version__", "run_add_custom", "run_gelu_custom", "run_gelu_custom_backward",
    "run_rms_norm_custom", "rms_norm_custom_max_cols", "run_matmul_custom", "Stream", "profile",
    "Profile",
    "set_soc", "get_soc", "list_socs", "set_strict", "get_strict", "set_serial", "get_serial",
    "set_timeout", "get_timeout", "set_sanitize", "get_sanitize", "sanitize", "settings",
    "memory_stats", "release_cached_memory", "worker_count",
    "Error", "InvalidArgumentError", "OutOfBoundsError", "DeviceMemoryError", "UbOverflowError",
    "QueueMisuseError", "SyncMisuseError", "StrictWarningError", "TimeoutError", "KernelError",
    "SimulatorWarning",
]
