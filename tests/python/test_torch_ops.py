"""The shipped kernels as torch operators (python/ascsim/torch/_shipped.py): torch.ops.ascsim.
add_custom, gelu_custom, gelu_custom_backward, rms_norm_custom against PyTorch's own functions,
torch.library.opcheck, autograd (gradcheck against gelu(approximate="tanh") and rms_norm), and
torch.compile(fullgraph=True) with the aot_eager and inductor backends."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

import ascsim  # noqa: E402
import ascsim.torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402
from torch.library import opcheck  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:Input #:UserWarning")  # gradcheck in float32

ops = torch.ops.ascsim
FLOATS = [torch.float16, torch.float32]


def randn(*shape, dtype=torch.float32, seed=0, scale=1.0):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(shape, generator=g, dtype=torch.float64) * scale).to(dtype)


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
@pytest.mark.parametrize("shape", [(), (1,), (7,), (8, 2048), (3, 5, 7)], ids=str)
def test_values_match_pytorch(dtype, shape):
    x, y = randn(*shape, dtype=dtype, seed=1), randn(*shape, dtype=dtype, seed=2)
    assert torch.equal(ops.add_custom(x, y), x + y)
    # GELU: computed in float32 and rounded once (PyTorch's float16 CPU gelu rounds the same way)
    ref = F.gelu(x.double(), approximate="tanh")
    torch.testing.assert_close(ops.gelu_custom(x).double(), ref,
                               **({"rtol": 1e-3, "atol": 1e-3} if dtype == torch.float16 else
                                  {"rtol": 2e-6, "atol": 1e-6}))
    # GELU backward: against autograd of PyTorch's gelu in float64
    xd = x.double().requires_grad_()
    F.gelu(xd, approximate="tanh").backward(y.double())
    torch.testing.assert_close(ops.gelu_custom_backward(y, x).double(), xd.grad,
                               **({"rtol": 1e-3, "atol": 1e-3} if dtype == torch.float16 else
                                  {"rtol": 1e-5, "atol": 4e-6}))


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
@pytest.mark.parametrize("shape", [(7,), (4, 64), (2, 3, 100), (16, 4096)], ids=str)
def test_rms_norm_matches_pytorch(dtype, shape):
    x = randn(*shape, dtype=dtype, seed=3, scale=2)
    gamma = randn(shape[-1], dtype=dtype, seed=4)
    ref = F.rms_norm(x.double(), (shape[-1],), gamma.double(), eps=1e-6)
    torch.testing.assert_close(ops.rms_norm_custom(x, gamma, 1e-6).double(), ref,
                               **({"rtol": 1e-3, "atol": 1e-3} if dtype == torch.float16 else
                                  {"rtol": 1e-5, "atol": 1e-6}))
    # eps defaults to 1e-6, as CANN's aclnnRmsNorm
    assert torch.equal(ops.rms_norm_custom(x, gamma), ops.rms_norm_custom(x, gamma, 1e-6))


def test_non_contiguous_inputs_are_made_contiguous():
    x = randn(64, 48, seed=5).t()
    assert torch.equal(ops.add_custom(x, x), x + x)
    out = ops.gelu_custom(x)
    assert out.is_contiguous() and torch.equal(out, ops.gelu_custom(x.contiguous()))


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_opcheck(dtype):
    x = randn(5, 33, dtype=dtype, seed=6)
    y = randn(5, 33, dtype=dtype, seed=7)
    gamma = randn(33, dtype=dtype, seed=8)
    cases = [(ops.add_custom, (x, y)), (ops.gelu_custom, (x,)),
             (ops.gelu_custom_backward, (y, x)), (ops.rms_norm_custom, (x, gamma, 1e-5))]
    for op, args in cases:
        result = opcheck(op, args)
        assert set(result.values()) == {"SUCCESS"}, (op, result)
        grad_args = tuple(a.clone().requires_grad_() if isinstance(a, torch.Tensor) else a
                          for a in args)
        if op is not ops.gelu_custom_backward:
            assert set(opcheck(op, grad_args).values()) == {"SUCCESS"}


def test_bfloat16_operators():
    x = randn(4, 300, dtype=torch.bfloat16, seed=20, scale=3)
    y = randn(4, 300, dtype=torch.bfloat16, seed=21)
    assert torch.equal(ops.add_custom(x, y), x + y)
    # computed in float32, rounded once: PyTorch's bfloat16 CPU gelu does the same
    torch.testing.assert_close(ops.gelu_custom(x), F.gelu(x.float(), approximate="tanh").bfloat16(),
                               rtol=0.008, atol=1e-5)
    for op, args in [(ops.add_custom, (x, y)), (ops.gelu_custom, (x,)),
                     (ops.gelu_custom_backward, (y, x))]:
        assert set(opcheck(op, args).values()) == {"SUCCESS"}
    xg = x.clone().requires_grad_()
    ops.gelu_custom(xg).backward(y)
    assert xg.grad.dtype == torch.bfloat16
    assert torch.equal(xg.grad, ops.gelu_custom_backward(y, x))
    with pytest.raises(ascsim.InvalidArgumentError, match="ascsim::rms_norm_custom: x has dtype "
                                                          "torch.bfloat16; expected float16 or "
                                                          "float32"):
        ops.rms_norm_custom(x, x[0])


def test_gelu_gradcheck_float32():
    x = randn(40, seed=9, scale=3).requires_grad_()
    # float32 forward: central differences of step 1e-3 are good to ~1e-4
    assert torch.autograd.gradcheck(ops.gelu_custom, (x,), eps=1e-3, atol=2e-3, rtol=1e-2,
                                    fast_mode=False)


class GeluWithAscsimBackward(torch.autograd.Function):
    """PyTorch's own gelu(approximate="tanh") in float64 forward; ascsim's backward kernel."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return F.gelu(x, approximate="tanh")

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return ops.gelu_custom_backward(grad.float(), x.float()).to(grad.dtype)


def test_gelu_backward_gradcheck_float64_against_pytorchs_gelu():
    # gradcheck compares the backward kernel's gradient with float64 central differences of
    # PyTorch's own tanh GELU: the kernel (float32 math) must be within rtol 1e-3 / atol 1e-5.
    x = randn(64, dtype=torch.float64, seed=10, scale=3).requires_grad_()
    assert torch.autograd.gradcheck(GeluWithAscsimBackward.apply, (x,))


def test_gelu_custom_gradient_equals_pytorchs_in_float32():
    x = randn(1000, seed=11, scale=4).requires_grad_()
    ops.gelu_custom(x).backward(torch.ones_like(x))
    x2 = x.detach().clone().requires_grad_()
    F.gelu(x2, approximate="tanh").backward(torch.ones_like(x2))
    torch.testing.assert_close(x.grad, x2.grad, rtol=1e-5, atol=2e-6)


def test_rms_norm_gradcheck_and_gradients_match_pytorch():
    x = randn(6, 40, seed=12).requires_grad_()
    gamma = randn(40, seed=13).requires_grad_()
    assert torch.autograd.gradcheck(lambda a, b: ops.rms_norm_custom(a, b, 1e-5), (x, gamma),
                                    eps=1e-3, atol=3e-3, rtol=1e-2)
    g = randn(6, 40, seed=14)
    ops.rms_norm_custom(x, gamma, 1e-5).backward(g)
    x2 = x.detach().clone().requires_grad_()
    gamma2 = gamma.detach().clone().requires_grad_()
    F.rms_norm(x2, (40,), gamma2, eps=1e-5).backward(g)
    torch.testing.assert_close(x.grad, x2.grad, rtol=1e-4, atol=1e-5)
    torch.testing.assert_close(gamma.grad, gamma2.grad, rtol=1e-4, atol=1e-5)
    # the backward itself, in float64, against PyTorch's autograd
    xd = x.detach().double().requires_grad_()
    gd = gamma.detach().double().requires_grad_()
    F.rms_norm(xd, (40,), gd, eps=1e-5).backward(g.double())
    dx, dgamma = ascsim.torch.rms_norm_backward(g.double(), xd.detach(), gd.detach(), 1e-5)
    torch.testing.assert_close(dx.double(), xd.grad, rtol=1e-5, atol=1e-6)
    torch.testing.assert_close(dgamma.double(), gd.grad, rtol=1e-5, atol=1e-6)


def test_add_custom_is_differentiable():
    x = randn(10, seed=15).requires_grad_()
    y = randn(10, seed=16).requires_grad_()
    (ops.add_custom(x, y) * torch.arange(10.0)).sum().backward()
    assert torch.equal(x.grad, torch.arange(10.0)) and torch.equal(y.grad, torch.arange(10.0))


def test_errors_are_raised_when_run_and_when_traced():
    err = ascsim.InvalidArgumentError
    with pytest.raises(err, match="ascsim::add_custom: x and y must have the same shape and "
                                  r"dtype; got x torch.float32 \(3,\) and y torch.float32 \(4,\)"):
        ops.add_custom(torch.zeros(3), torch.zeros(4))
    with pytest.raises(err, match="ascsim::gelu_custom: x has dtype torch.float64; expected "
                                  "float16 or float32 or bfloat16"):
        ops.gelu_custom(torch.zeros(3, dtype=torch.float64))
    with pytest.raises(err, match=r"gamma must be torch.float32 of shape \(8,\)"):
        ops.rms_norm_custom(torch.zeros(2, 8), torch.zeros(4))
    with pytest.raises(err, match="eps must be >= 0"):
        ops.rms_norm_custom(torch.zeros(2, 8), torch.zeros(8), -1.0)
    from torch._subclasses.fake_tensor import FakeTensorMode
    with FakeTensorMode():
        with pytest.raises(err, match="x and y must have the same shape"):
            ops.add_custom(torch.empty(3), torch.empty(4))
        assert ops.rms_norm_custom(torch.empty(2, 8), torch.empty(8)).shape == (2, 8)
    assert torch.equal(ops.add_custom(torch.ones(2), torch.ones(2)), torch.full((2,), 2.0))


def test_block_dim_setting():
    assert ascsim.torch.get_block_dim() == 8
    x = randn(8, 2048, seed=17)
    try:
        ascsim.torch.set_block_dim(3)
        with ascsim.profile() as prof:
            ops.gelu_custom(x)
        assert prof.summary()[0]["block_dim"] == 3
        with pytest.raises(ascsim.InvalidArgumentError, match=r"block_dim must be an int in \[1"):
            ascsim.torch.set_block_dim(0)
    finally:
        ascsim.torch.set_block_dim(8)


class Block(torch.nn.Module):
    def __init__(self, dim=64):
        super().__init__()
        g = torch.Generator().manual_seed(18)
        self.gamma = torch.nn.Parameter(torch.rand(dim, generator=g) + 0.5)
        self.w = torch.nn.Parameter(torch.randn(dim, dim, generator=g) / dim ** 0.5)

    def forward(self, x):
        h = torch.ops.ascsim.rms_norm_custom(x, self.gamma, 1e-6)
        h = torch.ops.ascsim.gelu_custom(h @ self.w)
        return torch.ops.ascsim.add_custom(x, h)


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_compile_fullgraph_gives_the_eager_result(backend):
    torch._dynamo.reset()
    model = Block()
    x = randn(16, 64, seed=19).requires_grad_()
    eager = model(x)
    eager.sum().backward()
    grads = [p.grad.clone() for p in model.parameters()] + [x.grad.clone()]
    model.zero_grad()
    x.grad = None
    compiled = torch.compile(model, fullgraph=True, backend=backend)
    out = compiled(x)
    out.sum().backward()
    torch.testing.assert_close(out, eager, rtol=1e-6, atol=1e-6)
    for got, want in zip([p.grad for p in model.parameters()] + [x.grad], grads):
        torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-6)


def test_torch_errors_keep_their_type_and_message_after_import_ascsim():
    # PyTorch's own C++ errors (pybind11) are not ascsim's to translate.
    with pytest.raises(RuntimeError, match=r"size of tensor a \(3\) must match") as caught:
        torch.ones(3) + torch.ones(4)
    assert not isinstance(caught.value, ascsim.Error)
    with pytest.raises(RuntimeError, match="mat1 and mat2 shapes cannot be multiplied") as caught:
        torch.ops.aten.mm(torch.ones(2, 3), torch.ones(4, 5))
    assert not isinstance(caught.value, ascsim.Error)
    # ... also when raised inside an operator ascsim registered, around an ascsim launch.
    x = torch.ones(4, requires_grad=True)
    y = ops.gelu_custom(x)
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar") as c:
        y.backward()
    assert not isinstance(c.value, ascsim.Error)
