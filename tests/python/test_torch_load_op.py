"""ascsim.torch.register over operators loaded with ascsim.load_op
(python/ascsim/torch/_load_op.py): the custom-operator projects of tests/customop (official msopgen layout) as torch.ops.ascsim_op.*,
with the schema from the OpDef, outputs from InferShape / InferDataType (also the fake
implementation), opcheck, autograd, torch.compile, and the errors; against torch in float64."""
import os

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import ascsim  # noqa: E402
import ascsim.torch  # noqa: E402
from ascsim.torch._load_op import schema_of  # noqa: E402
from torch.library import opcheck  # noqa: E402

PROJECTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "customop")
pytestmark = pytest.mark.filterwarnings("ignore:Input #:UserWarning")  # gradcheck in float32

NS = torch.ops.ascsim_op
ERR = ascsim.InvalidArgumentError


@pytest.fixture(scope="module")
def build_dir(tmp_path_factory):
    return str(tmp_path_factory.mktemp("torch_load_op_cache"))


def _load(build_dir, folder, name):
    return ascsim.load_op(os.path.join(PROJECTS, folder, name), build_dir=build_dir)


@pytest.fixture(scope="module")
def squared_diff(build_dir):
    op = _load(build_dir, "SquaredDiff", "SquaredDiffCustom")
    return ascsim.torch.register("ascsim_op", op)  # named after the type: squared_diff_custom


@pytest.fixture(scope="module")
def scale_shift(build_dir):
    op = ascsim.torch.register("ascsim_op::scale_shift",
                               _load(build_dir, "ScaleShift", "ScaleShiftCustom"))

    def backward(g, x, bias, scale, relu):
        # y = act(x * scale + bias): the gradient of x is the operator itself on the masked
        # gradient (scale, no bias, no ReLU); that of bias is the masked gradient.
        if relu:
            g = g * (op(x, bias, scale=scale) > 0)
        return op(g.contiguous(), scale=scale), (g if bias is not None else None)

    ascsim.torch.register_autograd(op, backward=backward)
    return op


@pytest.fixture(scope="module")
def matmul_bias(build_dir):
    return ascsim.torch.register("ascsim_op::matmul_bias",
                                 _load(build_dir, "MatmulBias", "MatmulBiasCustom"))


@pytest.fixture(scope="module")
def poly(build_dir):
    """tests/customop/Poly: PolyCustom (y = p(x); attributes float[] coeffs, str order, int
    blocks) and its backward PolyGradCustom (dx = dy * p'(x)), one project."""
    module = _load(build_dir, "Poly", "PolyCustom")
    op = ascsim.torch.register("ascsim_op::poly", module.PolyCustom)
    ascsim.torch.register_autograd(op, backward=module.PolyGradCustom)
    return op


def test_the_schema_comes_from_the_opdef(squared_diff, scale_shift, matmul_bias):
    assert squared_diff is NS.squared_diff_custom
    assert str(NS.squared_diff_custom.default._schema) == \
        "ascsim_op::squared_diff_custom(Tensor x, Tensor y) -> Tensor"
    assert str(NS.scale_shift.default._schema) == (
        "ascsim_op::scale_shift(Tensor x, Tensor? bias=None, *, float scale=1., "
        "bool relu=False) -> Tensor")
    assert str(NS.matmul_bias.default._schema) == \
        "ascsim_op::matmul_bias(Tensor a, Tensor b, Tensor bias) -> Tensor"


def test_list_string_and_int_attributes(poly):
    assert str(NS.poly.default._schema) == (
        'ascsim_op::poly(Tensor x, *, float[] coeffs=[0., 1.], str order="ascending", '
        "int blocks=0) -> Tensor")
    assert str(NS.poly_backward.default._schema) == (  # the backward operator's own OpDef
        'ascsim_op::poly_backward(Tensor dy, Tensor x, *, float[] coeffs=[0., 1.], '
        'str order="ascending", int blocks=0) -> Tensor')
    g = torch.Generator().manual_seed(17)
    for dtype, tol in [(torch.float32, 1e-5), (torch.float16, 4e-3)]:
        x = (torch.rand((6, 128), generator=g, dtype=torch.float64) * 2 - 1).to(dtype)
        x64 = x.double()
        torch.testing.assert_close(NS.poly(x).double(), x64, rtol=0, atol=0)  # defaults: p = x
        for coeffs, order, blocks in [([0.5, -1.0, 2.0], "ascending", 0),
                                      ([0.25, 0.5, -1.0, 2.0], "descending", 3),
                                      ([3.0], "ascending", 1)]:
            want = torch.from_numpy(np.polyval(coeffs if order == "descending" else coeffs[::-1],
                                               x64.numpy()))
            y = NS.poly(x, coeffs=coeffs, order=order, blocks=blocks)
            assert y.dtype == dtype
            torch.testing.assert_close(y.double(), want, rtol=tol, atol=tol)
    with pytest.raises(ERR, match="TilingFunc failed"):  # an order it does not know
        NS.poly(torch.ones(64), order="sideways")


def test_a_load_op_backward_operator(poly):
    g = torch.Generator().manual_seed(19)
    coeffs = [0.5, -1.0, 0.75, 2.0]
    x = (torch.rand(256, generator=g) * 2 - 1).requires_grad_()
    dy = torch.rand(256, generator=g)
    NS.poly(x, coeffs=coeffs, order="descending").backward(dy)
    x64 = x.detach().double().requires_grad_()
    sum(c * x64 ** (3 - k) for k, c in enumerate(coeffs)).backward(dy.double())
    torch.testing.assert_close(x.grad.double(), x64.grad, rtol=1e-5, atol=1e-5)
    assert torch.autograd.gradcheck(lambda t: NS.poly(t, coeffs=[1.0, -0.5, 0.25]),
                                    (torch.rand(64, requires_grad=True),),
                                    eps=1e-2, atol=2e-3, rtol=2e-3)
    assert set(opcheck(NS.poly, (x.detach().clone().requires_grad_(),),
                       {"coeffs": coeffs, "blocks": 2}).values()) == {"SUCCESS"}

    def f(t):
        return NS.poly(t, coeffs=[0.0, 0.0, 1.0]).sum()  # sum of squares

    t = torch.randn(4, 64, requires_grad=True)
    torch._dynamo.reset()
    torch.compile(f, fullgraph=True, backend="aot_eager")(t).backward()
    torch.testing.assert_close(t.grad, 2 * t.detach(), rtol=1e-5, atol=1e-5)


def test_a_backward_operator_of_the_wrong_shape_is_refused(build_dir, poly):
    module = _load(build_dir, "Poly", "PolyCustom")
    with pytest.raises(ERR, match=r"ascsim_op::scale_shift: the backward operator PolyCustom "
                                  r"takes 1 input\(s\) and returns 1; it must take the 1 output "
                                  r"gradient\(s\) then the 2 Tensor argument\(s\)"):
        ascsim.torch.register_autograd("ascsim_op::scale_shift", backward=module.PolyCustom)


def test_schema_of_every_attribute_type():
    spec = {"op_type": "ProbeCustom",
            "inputs": [{"name": "x", "kind": "required", "types": [0]},
                       {"name": "mask", "kind": "optional", "types": [12]},
                       {"name": "y", "kind": "required", "types": [1]},
                       {"name": "z", "kind": "optional", "types": [1]}],
            "outputs": [{"name": "out", "kind": "required", "types": [0]},
                        {"name": "idx", "kind": "required", "types": [9]}],
            "attrs": [{"name": "alpha", "kind": "float", "required": False, "default": 0.1},
                      {"name": "n", "kind": "int", "required": True, "default": None},
                      {"name": "flag", "kind": "bool", "required": False, "default": True},
                      {"name": "mode", "kind": "str", "required": False,
                       "default": 'a "b"\\'},
                      {"name": "dims", "kind": "listInt", "required": False, "default": [1, -2]},
                      {"name": "ws", "kind": "listFloat", "required": False,
                       "default": [0.5, 1e-6]},
                      {"name": "bs", "kind": "listBool", "required": False, "default": []}]}
    text = schema_of(spec, "ns::probe")
    assert text == ('ns::probe(Tensor x, Tensor? mask, Tensor y, Tensor? z=None, *, '
                    'float alpha=0.1, int n, bool flag=True, str mode="a \\"b\\"\\\\", '
                    'int[] dims=[1, -2], float[] ws=[0.5, 1e-06], bool[] bs=[]) -> '
                    '(Tensor, Tensor)')
    parsed = torch._C.parse_schema(text)  # torch reads it back with the same defaults
    defaults = {a.name: a.default_value for a in parsed.arguments if a.has_default_value()}
    assert defaults == {"z": None, "alpha": 0.1, "flag": True, "mode": 'a "b"\\',
                        "dims": [1, -2], "ws": [0.5, 1e-6], "bs": []}
    assert [a.kwarg_only for a in parsed.arguments] == [False] * 4 + [True] * 7


@pytest.mark.parametrize("change,message", [
    (lambda s: s["attrs"].append({"name": "pads", "kind": "listListInt", "required": True,
                                  "default": None}),
     r"attribute pads is listListInt, which a torch schema has no "
     "type for"),
    (lambda s: s["inputs"].append({"name": "xs", "kind": "dynamic", "types": [0]}),
     r"input xs is dynamic \(a tensor list\)"),
    (lambda s: s["outputs"].append({"name": "ys", "kind": "dynamic", "types": [0]}),
     r"output ys is dynamic"),
    (lambda s: s["attrs"].append({"name": "x", "kind": "int", "required": True,
                                  "default": None}),
     "the name 'x' is both an input and an attribute"),
    (lambda s: s["attrs"].append({"name": "float", "kind": "int", "required": True,
                                  "default": None}),
     "attribute name 'float' is not an identifier a torch schema takes"),
])
def test_an_opdef_no_schema_can_say_is_refused(change, message):
    spec = {"op_type": "ProbeCustom", "inputs": [{"name": "x", "kind": "required", "types": [0]}],
            "outputs": [{"name": "y", "kind": "required", "types": [0]}], "attrs": []}
    change(spec)
    with pytest.raises(ERR, match=r"ascsim.torch.register: ns::probe \(ProbeCustom\): " + message):
        schema_of(spec, "ns::probe")


@pytest.mark.parametrize("dtype,tol", [(torch.float32, 1e-6), (torch.float16, 2e-3)])
@pytest.mark.parametrize("shape", [(8, 2048), (3, 48), (1008,)])
def test_squared_diff_against_float64(squared_diff, dtype, tol, shape):
    g = torch.Generator().manual_seed(5)
    x = (torch.rand(shape, generator=g, dtype=torch.float64) * 2 - 1).to(dtype)
    y = (torch.rand(shape, generator=g, dtype=torch.float64) * 2 - 1).to(dtype)
    z = NS.squared_diff_custom(x, y)
    assert z.shape == shape and z.dtype == dtype  # InferShape / InferDataType
    torch.testing.assert_close(z.double(), (x.double() - y.double()) ** 2, rtol=tol, atol=tol)


@pytest.mark.parametrize("bias,scale,relu", [(True, 0.5, True), (False, 2.0, False),
                                             (True, -1.5, False), (False, 0.25, True)])
def test_scale_shift_attributes_are_keywords(scale_shift, bias, scale, relu):
    g = torch.Generator().manual_seed(7)
    x = torch.rand((16, 256), generator=g) * 6 - 3
    b = torch.rand((16, 256), generator=g) * 2 - 1 if bias else None
    y = NS.scale_shift(x, b, scale=scale, relu=relu)
    ref = x.double() * scale + (b.double() if bias else 0.0)
    if relu:
        ref = ref.clamp_min(0)
    torch.testing.assert_close(y.double(), ref, rtol=1e-6, atol=1e-6)
    # the OpDef's defaults: scale 1.0, relu false, bias absent
    torch.testing.assert_close(NS.scale_shift(x), x, rtol=0, atol=0)


def test_matmul_bias_float16_in_float_out(matmul_bias):
    g = torch.Generator().manual_seed(3)
    a = (torch.rand((128, 64), generator=g) * 2 - 1).half()
    b = (torch.rand((64, 96), generator=g) * 2 - 1).half()
    bias = torch.rand(96, generator=g) * 2 - 1
    c = NS.matmul_bias(a, b, bias)
    assert c.shape == (128, 96) and c.dtype == torch.float32  # the OpDef's output type
    torch.testing.assert_close(c.double(), a.double() @ b.double() + bias.double(),
                               rtol=1e-3, atol=1e-3)


def test_opcheck_passes(squared_diff, scale_shift, matmul_bias):
    x, y = torch.randn(4, 64), torch.randn(4, 64)
    for op, args, kwargs in [
            (NS.squared_diff_custom, (x, y), {}),
            (NS.squared_diff_custom, (x.half(), y.half()), {}),
            (NS.scale_shift, (x, y), {"scale": 0.5, "relu": True}),
            (NS.scale_shift, (x.clone().requires_grad_(), None), {"scale": 3.0}),
            (NS.matmul_bias, (torch.randn(32, 16).half(), torch.randn(16, 48).half(),
                              torch.randn(48)), {})]:
        result = opcheck(op, args, kwargs)
        assert set(result.values()) == {"SUCCESS"}, (op, result)


def test_the_fake_implementation_runs_infer_shape_only(squared_diff, matmul_bias):
    from torch._subclasses.fake_tensor import FakeTensorMode
    # On the meta device there is no memory a kernel could read.
    z = NS.matmul_bias(torch.empty(40, 24, dtype=torch.float16, device="meta"),
                       torch.empty(24, 8, dtype=torch.float16, device="meta"),
                       torch.empty(8, device="meta"))
    assert z.device.type == "meta" and z.shape == (40, 8) and z.dtype == torch.float32
    with FakeTensorMode():
        w = NS.squared_diff_custom(torch.empty(5, 7, dtype=torch.float16),
                                   torch.empty(5, 7, dtype=torch.float16))
    assert w.shape == (5, 7) and w.dtype == torch.float16
    # a size the TilingFunc would refuse still traces (no TilingFunc, no kernel) ...
    assert NS.squared_diff_custom(torch.empty(3, device="meta"),
                                  torch.empty(3, device="meta")).shape == (3,)
    # ... and fails when run, with the operator's message
    with pytest.raises(ERR, match="TilingFunc failed"):
        NS.squared_diff_custom(torch.ones(3), torch.ones(3))


def test_autograd_through_the_operator(scale_shift):
    g = torch.Generator().manual_seed(11)
    for relu in (False, True):
        x = (torch.rand((4, 64), generator=g) * 2 - 1).requires_grad_()
        b = (torch.rand((4, 64), generator=g) * 2 - 1).requires_grad_()
        dy = torch.rand((4, 64), generator=g)
        NS.scale_shift(x, b, scale=-1.25, relu=relu).backward(dy)
        x64, b64 = x.detach().double().requires_grad_(), b.detach().double().requires_grad_()
        ref = x64 * -1.25 + b64
        (ref.clamp_min(0) if relu else ref).backward(dy.double())
        torch.testing.assert_close(x.grad.double(), x64.grad, rtol=1e-6, atol=1e-6)
        torch.testing.assert_close(b.grad.double(), b64.grad, rtol=1e-6, atol=1e-6)
    assert torch.autograd.gradcheck(
        lambda a, c: NS.scale_shift(a, c, scale=0.75),
        (torch.randn(64, requires_grad=True), torch.randn(64, requires_grad=True)),
        eps=1e-2, atol=1e-3, rtol=1e-3)
    # an expanded output gradient (that of .sum()) reaches the backward contiguous
    x = torch.randn(8, 32, requires_grad=True)
    NS.scale_shift(x, scale=2.0).sum().backward()
    torch.testing.assert_close(x.grad, torch.full_like(x, 2.0))


@pytest.mark.parametrize("backend", ["aot_eager", "inductor"])
def test_compile_a_model_that_calls_the_operators(squared_diff, scale_shift, backend):
    def model(x, y, b):
        h = NS.scale_shift(x, b, scale=0.5, relu=True)
        return NS.squared_diff_custom(h, y).sum(dim=1)

    g = torch.Generator().manual_seed(13)
    x, y, b = (torch.rand((8, 128), generator=g) - 0.5 for _ in range(3))
    eager = model(x, y, b)
    ref = ((x.double() * 0.5 + b.double()).clamp_min(0) - y.double()) ** 2
    torch.testing.assert_close(eager.double(), ref.sum(dim=1), rtol=1e-5, atol=1e-5)
    torch._dynamo.reset()
    torch.testing.assert_close(torch.compile(model, fullgraph=True, backend=backend)(x, y, b),
                               eager)


def test_compile_with_autograd(scale_shift):
    def f(x, b):
        return (NS.scale_shift(x, b, scale=3.0) * x).sum()

    x = torch.randn(4, 64, requires_grad=True)
    b = torch.randn(4, 64, requires_grad=True)
    torch._dynamo.reset()
    torch.compile(f, fullgraph=True, backend="aot_eager")(x, b).backward()
    torch.testing.assert_close(x.grad, 6 * x.detach() + b.detach(), rtol=1e-5, atol=1e-5)
    torch.testing.assert_close(b.grad, x.detach())


def test_bad_calls_name_the_operator_and_the_input(squared_diff, scale_shift):
    x = torch.ones(64)
    with pytest.raises(ERR, match=r"^ascsim_op::squared_diff_custom: input y has dtype "
                                  r"torch.float64; SquaredDiffCustom takes float16, float32 for "
                                  r"it \(inputs are never cast\)$"):
        NS.squared_diff_custom(x, x.double())
    with pytest.raises(ERR, match="SquaredDiffCustom takes no"):  # no dtype combination
        NS.squared_diff_custom(x, x.half())
    with pytest.raises(ERR, match=r"^ascsim_op::squared_diff_custom: input x is not contiguous "
                                  r"\(shape \(8, 8\), strides \(1, 8\)\)"):
        NS.squared_diff_custom(x.view(8, 8).t(), x.view(8, 8))
    with pytest.raises(ERR, match="input x has dtype torch.bfloat16; SquaredDiffCustom takes"):
        NS.squared_diff_custom(x.bfloat16(), x.bfloat16())
    # the schema's own checks come first, from torch, naming the operator and the argument
    with pytest.raises(RuntimeError, match=r"squared_diff_custom\(\) is missing value for "
                                           "argument 'y'"):
        NS.squared_diff_custom(x)
    with pytest.raises(RuntimeError, match=r"squared_diff_custom\(\) expected at most 2 "
                                           r"argument\(s\) but received 3"):
        NS.squared_diff_custom(x, x, x)
    with pytest.raises(RuntimeError, match=r"scale_shift\(\) takes 2 positional argument\(s\) "
                                           "but 3 was/were given"):
        NS.scale_shift(x, None, 2.0)  # an attribute is a keyword
    with pytest.raises(ERR, match="^ascsim_op::squared_diff_custom: input x is required, got "
                                  "None$"):
        NS.squared_diff_custom(None, x)
    with pytest.raises(ERR, match="TilingFunc failed"):
        NS.scale_shift(torch.ones(3, 5))  # a shape its TilingFunc refuses
    torch.testing.assert_close(NS.squared_diff_custom(x, x), torch.zeros(64))  # still usable


def test_registration_errors(build_dir):
    op = _load(build_dir, "SquaredDiff", "SquaredDiffCustom")
    with pytest.raises(ERR, match="SquaredDiffCustom is an operator from ascsim.load_op: its "
                                  "OpDef, InferShape and TilingFunc give"):
        ascsim.torch.register("ascsim_op::sd2", op, outputs=lambda x, y: torch.empty_like(x))
    with pytest.raises(ERR, match="SquaredDiffCustom is an operator from ascsim.load_op"):
        ascsim.torch.register("ascsim_op::sd2", op, block_dim=2)
    with pytest.raises(ERR, match="'a::b::c' must read 'namespace::name' or 'namespace'"):
        ascsim.torch.register("a::b::c", op)
    with pytest.raises(ERR, match="cannot define ascsim_op::squared_diff_custom"):
        ascsim.torch.register("ascsim_op", op)  # defined by the fixture already
