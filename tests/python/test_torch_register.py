"""ascsim.torch.register / register_autograd (python/ascsim/torch/_register.py): kernels loaded
with ascsim.load as torch operators with CPU and fake implementations, opcheck, autograd through a
backward kernel or function, in-place operators functionalized by torch.compile, and the errors."""
import pytest

torch = pytest.importorskip("torch")

import ascsim  # noqa: E402
import ascsim.torch  # noqa: E402
import torch_kernels  # noqa: E402
from torch.library import opcheck  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:Input #:UserWarning")

NS = torch.ops.ascsim_test


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    return torch_kernels.load(tmp_path_factory)


@pytest.fixture(scope="module")
def axpy(kernels):
    op = ascsim.torch.register(
        "ascsim_test::axpy(Tensor x, Tensor y, float a=1.0) -> Tensor", kernels.axpy_custom,
        outputs=lambda x, y, a: torch.empty(x.shape, dtype=x.dtype),
        launch_args=lambda x, y, a, z: (x, y, z, a, x.numel()),
        block_dim=lambda x, y, a: 4 if x.numel() >= 64 else 1)
    ascsim.torch.register_autograd(
        op, backward=kernels.axpy_backward_custom,
        launch_args=lambda g, x, y, a, dx, dy: (g, x, y, a, dx, dy, x.numel()), block_dim=2)
    return op


@pytest.fixture(scope="module")
def scale_bf16(kernels):
    op = ascsim.torch.register(
        "ascsim_test::scale_bf16(Tensor x, float s) -> Tensor", kernels.scale_bf16_custom,
        outputs=lambda x, s: torch.empty(x.shape, dtype=x.dtype),
        launch_args=lambda x, s, y: (x, y, s, x.numel()), block_dim=2)
    ascsim.torch.register_autograd(op, backward=lambda g, x, s: op(g, s))
    return op


@pytest.fixture(scope="module")
def scale_(kernels):
    return ascsim.torch.register("ascsim_test::scale_(Tensor(a!) x, float s) -> ()",
                                 kernels.scale_inplace_custom,
                                 launch_args=lambda x, s: (x, s, x.numel()), block_dim=2)


@pytest.fixture(scope="module")
def add_one_(kernels):
    # default launch_args: the op's arguments then the outputs (none) = (x, n)
    return ascsim.torch.register("ascsim_test::add_one_(Tensor(a!) x, int n) -> ()",
                                 kernels.add_one_i32_custom, block_dim=1)


def test_a_kernel_becomes_an_operator(axpy):
    x, y = torch.randn(100), torch.randn(100)
    assert axpy is NS.axpy
    torch.testing.assert_close(NS.axpy(x, y, 0.5), 0.5 * x + y)
    torch.testing.assert_close(NS.axpy(x, y), x + y)  # the schema's default
    torch.testing.assert_close(NS.axpy(x.view(10, 10).t(), y.view(10, 10), 2.0),
                               2 * x.view(10, 10).t() + y.view(10, 10))  # made contiguous
    assert str(NS.axpy.default._schema) == \
        "ascsim_test::axpy(Tensor x, Tensor y, float a=1.) -> Tensor"


def test_opcheck_passes(axpy, scale_bf16, scale_, add_one_):
    x, y = torch.randn(64), torch.randn(64)
    for op, args in [(NS.axpy, (x, y, 0.5)),
                     (NS.axpy, (x.clone().requires_grad_(), y.clone().requires_grad_(), 0.5)),
                     (NS.scale_bf16, (torch.randn(32).bfloat16(), 3.0)),
                     (NS.scale_, (torch.randn(48), 2.0)),
                     (NS.add_one_, (torch.arange(16, dtype=torch.int32), 16))]:
        result = opcheck(op, args)
        assert set(result.values()) == {"SUCCESS"}, (op, result)


def test_autograd_through_a_backward_kernel(axpy):
    x = torch.randn(64, requires_grad=True)
    y = torch.randn(64, requires_grad=True)
    g = torch.randn(64)
    NS.axpy(x, y, 3.0).backward(g)
    torch.testing.assert_close(x.grad, 3 * g)
    torch.testing.assert_close(y.grad, g)
    assert hasattr(NS, "axpy_backward")  # the backward kernel's operator
    dx, dy = NS.axpy_backward(g, x.detach(), y.detach(), 3.0)
    torch.testing.assert_close(dx, 3 * g)
    assert torch.autograd.gradcheck(lambda a, b: NS.axpy(a, b, -1.5),
                                    (torch.randn(16, requires_grad=True),
                                     torch.randn(16, requires_grad=True)),
                                    eps=1e-2, atol=1e-3, rtol=1e-3)


def test_bfloat16_operator_with_a_function_backward(scale_bf16):
    x = torch.randn(64).bfloat16().requires_grad_()
    out = NS.scale_bf16(x, 3.0)
    assert out.dtype == torch.bfloat16 and torch.equal(out, (x.detach().float() * 3).bfloat16())
    out.backward(torch.ones_like(out))
    assert torch.equal(x.grad, torch.full_like(x.grad, 3.0))


def test_in_place_operators(scale_, add_one_):
    x = torch.arange(48, dtype=torch.float32)
    assert NS.scale_(x, 2.0) is None
    assert torch.equal(x, torch.arange(48, dtype=torch.float32) * 2)
    m = torch.arange(48, dtype=torch.float32).view(6, 8).t()  # not contiguous: written back
    NS.scale_(m, -1.0)
    assert torch.equal(m, -torch.arange(48, dtype=torch.float32).view(6, 8).t())
    n = torch.arange(5, dtype=torch.int32)
    NS.add_one_(n, 5)
    assert torch.equal(n, torch.arange(1, 6, dtype=torch.int32))


def test_compile_functionalizes_in_place_operators(axpy, scale_):
    from torch._dynamo.backends.common import aot_autograd

    graphs = []

    def record(gm, example_inputs):
        graphs.append(gm.code)
        return gm.forward

    def f(x, y):
        z = NS.axpy(x, y, 2.0)
        NS.scale_(z, 0.5)
        return z + 1

    torch._dynamo.reset()
    x, y = torch.randn(64), torch.randn(64)
    eager = f(x, y)
    for backend in (aot_autograd(fw_compiler=record), "aot_eager", "inductor"):
        torch._dynamo.reset()
        torch.testing.assert_close(torch.compile(f, fullgraph=True, backend=backend)(x, y), eager)
    # the graph after AOT autograd holds the in-place op as a functional one
    assert any("auto_functionalized" in code for code in graphs), graphs


def test_compile_with_autograd_through_the_backward_kernel(axpy, scale_bf16):
    def f(x, y):
        return (NS.axpy(x, y, 2.0) * x).sum()

    x = torch.randn(64, requires_grad=True)
    y = torch.randn(64, requires_grad=True)
    f(x, y).backward()
    want = x.grad.clone(), y.grad.clone()
    x.grad = y.grad = None
    torch._dynamo.reset()
    torch.compile(f, fullgraph=True, backend="aot_eager")(x, y).backward()
    torch.testing.assert_close(x.grad, want[0])
    torch.testing.assert_close(y.grad, want[1])


def test_kernel_faults_surface_as_kernel_errors(kernels):
    bad = ascsim.torch.register(
        "ascsim_test::overrun(Tensor x) -> Tensor", kernels.scale_bf16_custom,
        outputs=lambda x: torch.empty(x.shape, dtype=x.dtype),
        launch_args=lambda x, y: (x, y, 1.0, 4 * x.numel()), block_dim=1)
    with pytest.raises(ascsim.KernelError, match="scale_bf16_custom: block 0/1: .*outside its "
                                                 "device allocation"):
        bad(torch.zeros(16, dtype=torch.bfloat16))


def test_registration_errors(kernels):
    err = ascsim.InvalidArgumentError
    k = kernels.axpy_custom
    with pytest.raises(err, match="schema 'axpy\\(Tensor x\\) -> Tensor' must read "
                                  "'namespace::name"):
        ascsim.torch.register("axpy(Tensor x) -> Tensor", k)
    with pytest.raises(err, match="schema 'ascsim_test::e0\\(Tensor x -> Tensor' does not parse"):
        ascsim.torch.register("ascsim_test::e0(Tensor x -> Tensor", k)
    with pytest.raises(err, match="kernel must be a kernel of a module from ascsim.load"):
        ascsim.torch.register("ascsim_test::e1(Tensor x) -> Tensor", lambda x: x)
    with pytest.raises(err, match=r"ascsim_test::e2 has 2 argument\(s\) and 1 output\(s\) but "
                                  r"kernel axpy_custom takes 5 \(x, y, z, a, n\): pass "
                                  "launch_args="):
        ascsim.torch.register("ascsim_test::e2(Tensor x, Tensor y) -> Tensor", k,
                              outputs=lambda x, y: torch.empty_like(x))
    with pytest.raises(err, match=r"returns 1 tensor\(s\): pass outputs="):
        ascsim.torch.register("ascsim_test::e3(Tensor x) -> Tensor", k, launch_args=lambda *a: a)
    with pytest.raises(err, match=r"argument xs \(List\[Tensor\]\) is a list"):
        ascsim.torch.register("ascsim_test::e4(Tensor[] xs) -> ()", k, launch_args=lambda *a: a)
    with pytest.raises(err, match="returns must be tensors, got int"):
        ascsim.torch.register("ascsim_test::e5(Tensor x) -> int", k, launch_args=lambda *a: a)
    ascsim.torch.register("ascsim_test::e6(Tensor x) -> Tensor", kernels.copy_bytes_custom,
                          outputs=lambda x: torch.empty(x.shape, dtype=x.dtype),
                          launch_args=lambda x, y: (x, y, x.numel() * x.element_size()))
    with pytest.raises(err, match="cannot define ascsim_test::e6"):
        ascsim.torch.register("ascsim_test::e6(Tensor x) -> Tensor", kernels.copy_bytes_custom,
                              outputs=lambda x: torch.empty_like(x), launch_args=lambda *a: a)
    wrong = ascsim.torch.register("ascsim_test::e7(Tensor x) -> Tensor", kernels.copy_bytes_custom,
                                  outputs=lambda x: (torch.empty_like(x), torch.empty_like(x)),
                                  launch_args=lambda *a: a)
    with pytest.raises(err, match=r"outputs\(\) must return 1 tensor\(s\)"):
        wrong(torch.zeros(4))
    strided = ascsim.torch.register(
        "ascsim_test::e8(Tensor x) -> Tensor", kernels.copy_bytes_custom,
        outputs=lambda x: torch.empty(4, 4).t(), launch_args=lambda *a: a)
    with pytest.raises(err, match=r"outputs\(\) must allocate contiguous CPU tensors"):
        strided(torch.zeros(4, 4))


def test_register_autograd_errors(kernels, scale_, axpy):
    err = ascsim.InvalidArgumentError
    with pytest.raises(err, match="writes its inputs in place; only functional operators"):
        ascsim.torch.register_autograd(NS.scale_, backward=lambda g, x, s: g)
    with pytest.raises(err, match="is not a torch operator"):
        ascsim.torch.register_autograd(len, backward=lambda g: g)
    with pytest.raises(err, match="backward must be an operator, a kernel or a function"):
        ascsim.torch.register_autograd(NS.e6, backward=3)
    with pytest.raises(err, match="launch_args is for a backward kernel"):
        ascsim.torch.register_autograd(NS.e6, backward=lambda g, x: g, launch_args=lambda *a: a)
    ascsim.torch.register_autograd("ascsim_test::e6", backward=lambda g, x: (g, g))
    x = torch.zeros(4, requires_grad=True)
    with pytest.raises(err, match=r"backward returned 2 gradient\(s\); the operator has 1 Tensor"):
        NS.e6(x).sum().backward()


def test_autograd_registered_after_the_first_call_holds_under_compile(kernels):
    op = ascsim.torch.register(
        "ascsim_test::late(Tensor x, float s) -> Tensor", kernels.scale_bf16_custom,
        outputs=lambda x, s: torch.empty(x.shape, dtype=x.dtype),
        launch_args=lambda x, s, y: (x, y, s, x.numel()), block_dim=1)
    x = torch.randn(32).bfloat16()
    assert set(opcheck(op, (x, 2.0)).values()) == {"SUCCESS"}  # dispatch decisions cached here
    ascsim.torch.register_autograd(op, backward=lambda g, x, s: op(g, s))
    xg = x.clone().requires_grad_()
    torch._dynamo.reset()
    torch.compile(lambda t: op(t, 2.0).float().sum(), fullgraph=True, backend="aot_eager")(
        xg).backward()
    assert xg.grad is not None and torch.equal(xg.grad, torch.full_like(xg, 2.0))


def test_the_seeds_scenario_on_a_new_kernel_pair(tmp_path):
    import torch_scenario
    torch_scenario.run(str(tmp_path))
