#!/usr/bin/env python3
"""GELU forward and backward kernels in PyTorch three ways, as the GELU sample pairs them:
1. the direct calls add_custom.run_gelu_custom / run_gelu_custom_backward on tensors,
2. a torch.autograd.Function whose forward and backward launch the two kernels,
3. torch.ops.ascsim.gelu_custom, registered by ascsim.torch (differentiable through
   gelu_custom_backward, with a fake implementation for torch.compile),
each against PyTorch's own gelu(approximate="tanh"), forward and backward, with gradcheck.

    PYTHONPATH=build/python python examples/torch/test_gelu.py   # in a venv with torch
"""
import unittest
import warnings

import torch
import torch.nn.functional as F

import add_custom
import ascsim.torch  # noqa: F401  (registers torch.ops.ascsim.*)


class GeluFunction(torch.autograd.Function):
    """y = gelu(x) by the gelu_custom kernel; dx = dy * gelu'(x) by gelu_custom_backward."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return add_custom.run_gelu_custom(x.contiguous())

    @staticmethod
    def backward(ctx, grad_y):
        (x,) = ctx.saved_tensors
        return add_custom.run_gelu_custom_backward(grad_y.contiguous(), x)


class TorchGeluAscsimBackward(torch.autograd.Function):
    """PyTorch's gelu(approximate="tanh") forward; the gelu_custom_backward kernel backward."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return F.gelu(x, approximate="tanh")

    @staticmethod
    def backward(ctx, grad_y):
        (x,) = ctx.saved_tensors
        return torch.ops.ascsim.gelu_custom_backward(grad_y.float(), x.float()).to(grad_y.dtype)


WAYS = {
    "direct": None,  # forward and backward called by hand
    "autograd_function": GeluFunction.apply,
    "torch_ops": torch.ops.ascsim.gelu_custom,
}


def tolerances(dtype):
    return {"rtol": 1e-3, "atol": 1e-3} if dtype == torch.float16 else {"rtol": 1e-5, "atol": 2e-6}


class TestGelu(unittest.TestCase):
    def check(self, way, dtype):
        x = (torch.randn(8, 2048, dtype=torch.float32) * 3).to(dtype)
        dy = torch.randn(8, 2048, dtype=torch.float32).to(dtype)
        xr = x.double().requires_grad_()
        yr = F.gelu(xr, approximate="tanh")
        yr.backward(dy.double())
        if way == "direct":
            y = add_custom.run_gelu_custom(x)
            dx = add_custom.run_gelu_custom_backward(dy, x)
        else:
            xg = x.clone().requires_grad_()
            y = WAYS[way](xg)
            y.backward(dy)
            dx = xg.grad
        self.assertEqual((y.dtype, dx.dtype, y.shape), (dtype, dtype, x.shape))
        torch.testing.assert_close(y.double(), yr.detach(), **tolerances(dtype))
        torch.testing.assert_close(dx.double(), xr.grad, **tolerances(dtype))

    def test_direct(self):
        for dtype in (torch.float16, torch.float32):
            self.check("direct", dtype)

    def test_autograd_function(self):
        for dtype in (torch.float16, torch.float32):
            self.check("autograd_function", dtype)

    def test_torch_ops(self):
        for dtype in (torch.float16, torch.float32):
            self.check("torch_ops", dtype)

    def test_gradcheck_float32(self):
        # float32 kernels: central differences with a 1e-3 step are good to ~1e-4
        for fn in (GeluFunction.apply, torch.ops.ascsim.gelu_custom):
            x = (torch.randn(32) * 3).requires_grad_()
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", "Input #0 requires gradient", UserWarning)
                self.assertTrue(torch.autograd.gradcheck(fn, (x,), eps=1e-3, atol=2e-3, rtol=1e-2))

    def test_gradcheck_float64_against_pytorchs_gelu(self):
        # float64 central differences of PyTorch's own tanh GELU against the gradient of the
        # backward kernel (float32 math), with gradcheck's default tolerances.
        x = (torch.randn(64, dtype=torch.float64) * 3).requires_grad_()
        self.assertTrue(torch.autograd.gradcheck(TorchGeluAscsimBackward.apply, (x,)))

    def test_torch_ops_compiled(self):
        def f(x):
            return torch.ops.ascsim.gelu_custom(x * 0.5).sum()

        x = torch.randn(4, 256, requires_grad=True)
        f(x).backward()
        want = x.grad.clone()
        x.grad = None
        torch.compile(f, fullgraph=True, backend="aot_eager")(x).backward()
        torch.testing.assert_close(x.grad, want)


if __name__ == "__main__":
    unittest.main(verbosity=2)
