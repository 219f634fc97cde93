"""CPU tensors as device memory: NumPy views of a tensor's own memory (no copy), and back.

A kernel launch registers the memory of its NumPy arguments as device memory for the launch; a
tensor reaches it as a NumPy array over the tensor's storage, so the device-memory registry sees
a tensor exactly as it sees an array. When the tensor covers its whole storage that array is
``tensor.numpy()``; a view into a larger storage (``t[2:]``) becomes a slice of an array over the
whole storage, so the registry registers the storage once, whichever views of it are in flight
(as it does for NumPy views of one buffer).

bfloat16 has no NumPy dtype: a bfloat16 tensor travels as its uint16 bits (a ``__gm__
bfloat16_t*`` or ``GM_ADDR`` parameter takes any 2-byte array), and a uint16 result becomes a
bfloat16 tensor again with ``.view(torch.bfloat16)``; nothing is copied or converted.
"""
from __future__ import annotations

from typing import Any, Optional

import numpy as np
import torch

from .. import _core

# torch dtype -> the NumPy dtype its bytes travel as (bfloat16: its bits).
NUMPY_DTYPE = {
    torch.float16: np.dtype(np.float16),
    torch.bfloat16: np.dtype(np.uint16),
    torch.float32: np.dtype(np.float32),
    torch.float64: np.dtype(np.float64),
    torch.int8: np.dtype(np.int8),
    torch.int16: np.dtype(np.int16),
    torch.int32: np.dtype(np.int32),
    torch.int64: np.dtype(np.int64),
    torch.uint8: np.dtype(np.uint8),
    torch.uint16: np.dtype(np.uint16),
    torch.uint32: np.dtype(np.uint32),
    torch.uint64: np.dtype(np.uint64),
    torch.bool: np.dtype(np.bool_),
}
_BITS_VIEW = {torch.bfloat16: torch.uint16}
_TORCH_DTYPE = {np.dtype(np.float16): torch.float16, np.dtype(np.float32): torch.float32,
                np.dtype(np.float64): torch.float64, np.dtype(np.int8): torch.int8,
                np.dtype(np.int16): torch.int16, np.dtype(np.int32): torch.int32,
                np.dtype(np.int64): torch.int64, np.dtype(np.uint8): torch.uint8,
                np.dtype(np.uint16): torch.uint16, np.dtype(np.uint32): torch.uint32,
                np.dtype(np.uint64): torch.uint64, np.dtype(np.bool_): torch.bool}


def _where(func: str, name: str) -> str:
    return f"{func}: {name}" if func else name


def check_tensor(t: torch.Tensor, func: str = "", name: str = "tensor") -> None:
    """Raises ascsim.InvalidArgumentError unless `t` is a dense, contiguous CPU tensor of a dtype
    ascsim kernels take."""
    where = _where(func, name)
    if t.device.type != "cpu":
        raise _core.InvalidArgumentError(
            f"{where} is on device {t.device}; ascsim simulates the NPU on the host and takes "
            "CPU tensors only (move it with .cpu())")
    if t.layout != torch.strided:
        raise _core.InvalidArgumentError(
            f"{where} has layout {t.layout}; only dense (torch.strided) tensors are device memory")
    if t.dtype not in NUMPY_DTYPE:
        raise _core.InvalidArgumentError(
            f"{where} has dtype {t.dtype}; ascsim kernels take float16, bfloat16, float32, "
            "float64, int8/16/32/64, uint8/16/32/64 and bool")
    if not t.is_contiguous():
        raise _core.InvalidArgumentError(
            f"{where} is not contiguous (shape {tuple(t.shape)}, strides {t.stride()}); the "
            "kernel sees memory in row-major order: pass .contiguous()")
    if t.is_conj() or t.is_neg():
        raise _core.InvalidArgumentError(f"{where} has a lazy conj/neg bit; call .resolve_conj()")


def as_array(t: torch.Tensor, func: str = "", name: str = "tensor") -> np.ndarray:
    """A NumPy array over `t`'s memory (no copy): same shape, bytes and dtype (bfloat16: uint16
    bits). Writes through the array land in the tensor. `t` must pass check_tensor."""
    check_tensor(t, func, name)
    t = t.detach()
    bits = _BITS_VIEW.get(t.dtype)
    storage = t.untyped_storage()
    nbytes = t.numel() * t.element_size()
    if t.storage_offset() == 0 and nbytes == storage.nbytes():
        return (t.view(bits) if bits is not None else t).numpy()
    # A view into a larger storage: slice an array over the whole storage, so that the owner the
    # registry registers is the storage itself.
    whole = torch.empty(0, dtype=torch.uint8).set_(storage).numpy()
    start = t.storage_offset() * t.element_size()
    return whole[start:start + nbytes].view(NUMPY_DTYPE[t.dtype]).reshape(tuple(t.shape))


def as_tensor(a: np.ndarray, dtype: Optional[torch.dtype] = None) -> torch.Tensor:
    """A tensor over a NumPy array's memory (no copy; the tensor keeps the array alive).
    dtype=torch.bfloat16 reinterprets a 2-byte array's bits."""
    if dtype is torch.bfloat16:
        if a.dtype.itemsize != 2:
            raise _core.InvalidArgumentError(
                f"as_tensor: bfloat16 needs a 2-byte array, got {a.dtype}")
        return torch.from_numpy(a.view(np.uint16)).view(torch.bfloat16)
    t = torch.from_numpy(a)
    if dtype is not None and t.dtype != dtype:
        raise _core.InvalidArgumentError(f"as_tensor: array of {a.dtype} is not {dtype}")
    return t


def torch_dtype(dtype: Any) -> torch.dtype:
    """The torch dtype of a NumPy dtype (uint16 stays uint16: bfloat16 is said explicitly)."""
    return _TORCH_DTYPE[np.dtype(dtype)]


def kernel_arguments(kernel: Any, args: tuple) -> tuple:
    """The arguments of a loaded kernel's call with tensors replaced: a tensor for a GM pointer
    (or a struct's bytes) becomes a NumPy view of its memory, a one-element tensor for a scalar
    parameter its value."""
    params = kernel.params
    out = list(args)
    for i, value in enumerate(args):
        if not isinstance(value, torch.Tensor) or i >= len(params):
            continue  # a wrong count is reported by the launch, naming the parameters
        p = params[i]
        where = f"argument '{p['name']}' ({p['type']})"
        if p["kind"] in ("pointer", "struct"):  # GM memory, or tiling bytes
            out[i] = as_array(value, kernel.__name__, where)
        elif value.numel() == 1:
            out[i] = value.item()
    return tuple(out)
