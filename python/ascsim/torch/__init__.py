"""ascsim.torch: your Ascend C kernels as PyTorch operators, on CPU tensors.

    import torch, ascsim, ascsim.torch
    y = torch.ops.ascsim.gelu_custom(x)                   # the shipped kernels, differentiable
    mod = ascsim.load("scale.cpp")
    scale = ascsim.torch.register(                        # your kernel as torch.ops.mylib.scale
        "mylib::scale(Tensor x, float alpha) -> Tensor", mod.scale_custom,
        outputs=lambda x, alpha: torch.empty_like(x),
        launch_args=lambda x, alpha, out: (x, out, alpha, x.numel()))
    ascsim.torch.register_autograd(scale, backward=lambda g, x, alpha: scale(g, alpha))
    poly = ascsim.load_op("Poly/PolyCustom")                # a custom-operator project
    ascsim.torch.register("mylib::poly", poly.PolyCustom)  # schema from the OpDef
    ascsim.torch.register_autograd("mylib::poly", backward=poly.PolyGradCustom)
    torch.compile(model, fullgraph=True)(inputs)           # fake implementations trace them

Importing it registers torch.ops.ascsim.add_custom, gelu_custom (differentiable through
gelu_custom_backward), gelu_custom_backward and rms_norm_custom (differentiable), each with a
fake implementation. Tensors stay in host memory: a kernel reads and writes the tensors' own
memory (no copy; bfloat16 as its bits), the device-memory registry sees them as NumPy arrays,
and ascsim.profile() estimates the device time of every launch. There is no NPU device, no
torch_npu and no C++ built against torch: PyTorch is an optional dependency,
`pip install 'ascsim[torch]'`.
"""
from __future__ import annotations

try:
    import torch as _torch
except ImportError as _e:  # pragma: no cover - depends on the environment
    raise ImportError(
        "ascsim.torch needs PyTorch: pip install 'ascsim[torch]' (or pip install torch==2.13.0, "
        "the CPU build)") from _e

from ._register import register, register_autograd
from ._tensors import as_array, as_tensor, check_tensor
from . import _shipped
from ._shipped import rms_norm_backward

_shipped._register_all()


def set_block_dim(block_dim: int) -> None:
    """Blocks per launch of the shipped operators (torch.ops.ascsim.*; default 8)."""
    from .. import _core
    _core.check_int(block_dim, "ascsim.torch.set_block_dim", "block_dim", 1, 65535)
    _shipped.BLOCK_DIM = int(block_dim)


def get_block_dim() -> int:
    """Blocks per launch of the shipped operators."""
    return _shipped.BLOCK_DIM


__all__ = ["register", "register_autograd", "as_array", "as_tensor", "check_tensor",
           "rms_norm_backward", "set_block_dim", "get_block_dim"]
