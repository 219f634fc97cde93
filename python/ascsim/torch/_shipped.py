"""The shipped kernels as operators: torch.ops.ascsim.add_custom, gelu_custom (differentiable
through gelu_custom_backward), gelu_custom_backward (these three in float16, bfloat16, float32)
and rms_norm_custom (float16, float32; differentiable), each with a fake implementation for
torch.compile.

The fake implementations check what the kernels check (dtype, shapes) and raise the same
ascsim.InvalidArgumentError, so a graph that would fail when run fails when traced.
"""
from __future__ import annotations

from typing import Any, Tuple

import torch

import add_custom

from .. import _core
from . import _register

# blocks per launch of the shipped operators (the run_* functions' default).
BLOCK_DIM = 8

_FLOATS = (torch.float16, torch.float32)
_WITH_BF16 = (torch.float16, torch.float32, torch.bfloat16)


def _check_float(func: str, name: str, t: torch.Tensor,
                 dtypes: Tuple[Any, ...] = _WITH_BF16) -> None:
    if t.dtype not in dtypes:
        names = " or ".join(str(d).replace("torch.", "") for d in dtypes)
        raise _core.InvalidArgumentError(
            f"{func}: {name} has dtype {t.dtype}; expected {names} (the kernel's; inputs are "
            "never cast implicitly)")
    if t.device.type not in ("cpu", "meta"):
        raise _core.InvalidArgumentError(
            f"{func}: {name} is on {t.device}; ascsim operators run on CPU tensors")


def _check_same(func: str, a_name: str, a: torch.Tensor, b_name: str, b: torch.Tensor) -> None:
    _check_float(func, a_name, a)
    _check_float(func, b_name, b)
    if a.dtype != b.dtype or a.shape != b.shape:
        raise _core.InvalidArgumentError(
            f"{func}: {a_name} and {b_name} must have the same shape and dtype; got {a_name} "
            f"{a.dtype} {tuple(a.shape)} and {b_name} {b.dtype} {tuple(b.shape)}")


def _new(like: torch.Tensor) -> torch.Tensor:
    # Contiguous, as the kernels' outputs are, whatever the input's strides.
    return torch.empty(like.shape, dtype=like.dtype, device=like.device)


# add_custom ------------------------------------------------------------------------------------

def _add_cpu(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    _check_same("ascsim::add_custom", "x", x, "y", y)
    return add_custom.run_add_custom(x.contiguous(), y.contiguous(), block_dim=BLOCK_DIM)


def _add_fake(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    _check_same("ascsim::add_custom", "x", x, "y", y)
    return _new(x)


# gelu_custom, gelu_custom_backward --------------------------------------------------------------

def _gelu_cpu(x: torch.Tensor) -> torch.Tensor:
    _check_float("ascsim::gelu_custom", "x", x)
    return add_custom.run_gelu_custom(x.contiguous(), block_dim=BLOCK_DIM)


def _gelu_fake(x: torch.Tensor) -> torch.Tensor:
    _check_float("ascsim::gelu_custom", "x", x)
    return _new(x)


def _gelu_backward_cpu(grad_y: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    _check_same("ascsim::gelu_custom_backward", "grad_y", grad_y, "x", x)
    return add_custom.run_gelu_custom_backward(grad_y.contiguous(), x.contiguous(),
                                               block_dim=BLOCK_DIM)


def _gelu_backward_fake(grad_y: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    _check_same("ascsim::gelu_custom_backward", "grad_y", grad_y, "x", x)
    return _new(x)


# rms_norm_custom -------------------------------------------------------------------------------

def _check_rms(x: torch.Tensor, gamma: torch.Tensor, eps: float) -> None:
    func = "ascsim::rms_norm_custom"
    _check_float(func, "x", x, _FLOATS)
    _check_float(func, "gamma", gamma, _FLOATS)
    if x.dim() < 1:
        raise _core.InvalidArgumentError(f"{func}: x must have at least one axis")
    if gamma.dtype != x.dtype or tuple(gamma.shape) != (x.shape[-1],):
        raise _core.InvalidArgumentError(
            f"{func}: gamma must be {x.dtype} of shape ({x.shape[-1]},) (x's last axis); got "
            f"{gamma.dtype} {tuple(gamma.shape)}")
    if not eps >= 0:
        raise _core.InvalidArgumentError(f"{func}: eps must be >= 0, got {eps}")


def _rms_cpu(x: torch.Tensor, gamma: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    _check_rms(x, gamma, eps)
    return add_custom.run_rms_norm_custom(x.contiguous(), gamma.contiguous(), eps,
                                          block_dim=BLOCK_DIM)


def _rms_fake(x: torch.Tensor, gamma: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    _check_rms(x, gamma, eps)
    return _new(x)


def rms_norm_backward(grad_y: torch.Tensor, x: torch.Tensor, gamma: torch.Tensor,
                      eps: float) -> Tuple[torch.Tensor, torch.Tensor]:
    """The gradients of y = x * rstd * gamma, rstd = 1 / sqrt(mean(x^2) + eps), in float32
    PyTorch, with the formulas of CANN's RmsNormGrad (ops-nn norm/rms_norm_grad, README
    "算子公式"): with xhat = x * rstd and dxhat = grad_y * gamma, grad_x = rstd * (dxhat - xhat *
    mean(dxhat * xhat)) and grad_gamma = the sum over rows of grad_y * xhat."""
    xf, gf, dyf = x.float(), gamma.float(), grad_y.float()
    rstd = torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + eps)
    xhat = xf * rstd
    dxhat = dyf * gf
    grad_x = rstd * (dxhat - xhat * (dxhat * xhat).mean(-1, keepdim=True))
    grad_gamma = (dyf * xhat).reshape(-1, x.shape[-1]).sum(0)
    return grad_x.to(x.dtype), grad_gamma.to(gamma.dtype)


def _register_all() -> None:
    ops = torch.ops.ascsim
    _register.define("ascsim::add_custom(Tensor x, Tensor y) -> Tensor", _add_cpu, _add_fake)
    _register.define("ascsim::gelu_custom(Tensor x) -> Tensor", _gelu_cpu, _gelu_fake)
    _register.define("ascsim::gelu_custom_backward(Tensor grad_y, Tensor x) -> Tensor",
                     _gelu_backward_cpu, _gelu_backward_fake)
    _register.define("ascsim::rms_norm_custom(Tensor x, Tensor gamma, float eps=1e-06) -> Tensor",
                     _rms_cpu, _rms_fake)

    def add_backward(grad: torch.Tensor, x: Any, y: Any) -> Tuple[torch.Tensor, torch.Tensor]:
        return grad, grad

    _register.register_autograd(ops.add_custom, add_backward)
    _register.register_autograd(ops.gelu_custom, ops.gelu_custom_backward)
    _register.register_autograd(ops.rms_norm_custom, rms_norm_backward)
