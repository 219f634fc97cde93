"""add_custom.testing: deliberately faulty kernels (kernel/testing/faulty_kernels.cpp) that drive
every error path of the simulator end to end from Python. Each carries a realistic kernel bug;
none is a usable operator.

They are the simulator's test surface, so they exist only in the CMake build tree
(PYTHONPATH=<build>/python): the kernels are a kernel module (bindings/testing/faulty_module.cpp)
built there, never installed and never put in the pip package.
"""
from __future__ import annotations

import os
from typing import Any, Optional

import numpy as np

from ascsim import InvalidArgumentError, Stream, _core

_LIBRARY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_faulty_kernels.so")
if not os.path.exists(_LIBRARY):
    raise ImportError(
        "add_custom.testing is not available in this installation: its deliberately faulty "
        "kernels are the simulator's test surface and are built only in the CMake build tree "
        "(cmake --build build --target ascsim_python_testing; then PYTHONPATH=build/python), "
        "never shipped in the pip package.", name="add_custom.testing", path=_LIBRARY)

_library = _core.KernelLibrary(_LIBRARY)
_index = {k["name"]: i for i, k in enumerate(_library.kernels())}
_UINT32_MAX = 0xFFFFFFFF


def _launch(entry: str, args: tuple, block_dim: Any, stream: Optional[Stream]) -> None:
    _library.launch(_index[entry], args, block_dim, stream)


def _block_dim(block_dim: Any, func: str) -> int:
    return _core.check_int(block_dim, func, "block_dim", 1, 65535)


def run_add_with_length(x: Any, y: Any, total_length: int, block_dim: int = 8,
                        stream: Optional[Stream] = None) -> np.ndarray:
    """The real add_custom kernel launched with a caller-given totalLength; a length larger than
    x.size reads past the arrays (KernelError, kind 'out of bounds')."""
    func = "testing.run_add_with_length"
    x = _core.as_input(x, func, "x")
    y = _core.as_input(y, func, "y")
    if x.dtype != y.dtype or x.shape != y.shape:
        raise InvalidArgumentError(
            f"{func}: x and y must have the same shape and dtype; got x {x.dtype} {x.shape} "
            f"and y {y.dtype} {y.shape}")
    total = _core.check_int(total_length, func, "total_length", 0, _UINT32_MAX)
    block_dim = _block_dim(block_dim, func)
    z = np.empty_like(x)
    entry = "add_with_length_half" if x.dtype == np.float16 else "add_with_length_float"
    _launch(entry, (x, y, z, total), block_dim, stream)
    return z


def run_dequeue_empty(block_dim: int = 1, stream: Optional[Stream] = None) -> None:
    """A kernel that DeQues a queue nothing was EnQued to (KernelError, kind 'queue misuse')."""
    _launch("dequeue_empty", (), _block_dim(block_dim, "testing.run_dequeue_empty"), stream)


def run_ub_overflow(block_dim: int = 1, stream: Optional[Stream] = None) -> None:
    """A kernel whose InitBuffer calls exceed the Unified Buffer (KernelError, kind
    'UB overflow')."""
    _launch("ub_overflow", (), _block_dim(block_dim, "testing.run_ub_overflow"), stream)


def run_spin_forever(block_dim: int = 1, stream: Optional[Stream] = None) -> None:
    """A kernel whose cores wait forever for a GM flag nobody sets (calling GetValue and Adds in
    the loop): it ends only by the launch timeout (set_timeout; TimeoutError, kind 'timeout') or
    by Ctrl-C (KeyboardInterrupt)."""
    _launch("spin_forever", (), _block_dim(block_dim, "testing.run_spin_forever"), stream)


def run_unaligned_copy(x: Any, count: int, block_dim: int = 1,
                       stream: Optional[Stream] = None) -> np.ndarray:
    """Block b copies x.flat[b*count:(b+1)*count] with plain DataCopy into a zero-filled flat
    output. A count whose byte length is not a multiple of 32 B is rounded down as the device
    does (SimulatorWarning), or fails in strict mode (KernelError, kind 'strict-mode
    warning')."""
    func = "testing.run_unaligned_copy"
    x = _core.as_input(x, func, "x")
    block_dim = _block_dim(block_dim, func)
    count = _core.check_int(count, func, "count", 1, x.size // block_dim)
    z = np.zeros(x.size, x.dtype)  # zero-filled: the elements the device drops show as zeros
    entry = "unaligned_copy_half" if x.dtype == np.float16 else "unaligned_copy_float"
    _launch(entry, (x, z, count), block_dim, stream)
    return z


__all__ = ["run_add_with_length", "run_dequeue_empty", "run_ub_overflow", "run_spin_forever",
           "run_unaligned_copy"]
