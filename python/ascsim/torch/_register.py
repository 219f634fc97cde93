"""torch.library registration of ascsim kernels: register() and register_autograd().

An operator is defined in a FRAGMENT torch.library.Library of its namespace (kept alive here, so
the operator lives as long as the process), with a CPU implementation that launches the kernel on
the tensors' own memory and a fake (meta) implementation that only allocates the outputs, which
is what torch.compile traces with.
"""
from __future__ import annotations

import re
import threading
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

import torch

from .. import _core
from .._loader import Kernel

_lock = threading.Lock()
_libraries: Dict[str, "torch.library.Library"] = {}

_SCHEMA = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)::([A-Za-z_][A-Za-z0-9_.]*)\s*(\(.*)$", re.S)


def _error(message: str) -> Exception:
    return _core.InvalidArgumentError(message)


def library(namespace: str) -> "torch.library.Library":
    """The FRAGMENT library of a namespace that ascsim defines its operators in."""
    with _lock:
        lib = _libraries.get(namespace)
        if lib is None:
            lib = torch.library.Library(namespace, "FRAGMENT")
            _libraries[namespace] = lib
        return lib


def split_schema(schema: str) -> Tuple[str, str, str]:
    """'ns::name(args) -> ret' -> (ns, name, '(args) -> ret')."""
    m = _SCHEMA.match(schema)
    if m is None:
        raise _error(f"ascsim.torch.register: schema {schema!r} must read "
                     "'namespace::name(Tensor x, ...) -> Tensor'")
    return m.group(1), m.group(2), m.group(3).strip()


def op_packet(namespace: str, name: str) -> Any:
    return getattr(getattr(torch.ops, namespace), name.split(".")[0])


def _qualname(op: Any) -> Tuple[str, Any]:
    """(qualname, OpOverload) of an operator given as 'ns::name', torch.ops.ns.name or .default."""
    if isinstance(op, str):
        ns, _, name = op.partition("::")
        if not name:
            raise _error(f"ascsim.torch: operator {op!r} must be written 'namespace::name'")
        op = op_packet(ns, name)
    if isinstance(op, torch._ops.OpOverloadPacket):
        op = op.default
    if not isinstance(op, torch._ops.OpOverload):
        raise _error(f"ascsim.torch: {op!r} is not a torch operator (torch.ops.<ns>.<name>)")
    schema = op._schema
    return schema.name + ("" if not schema.overload_name else "." + schema.overload_name), op


def is_tensor_type(t: Any) -> bool:
    return isinstance(t, torch.TensorType)


def _mutated(arg: Any) -> bool:
    return arg.alias_info is not None and arg.alias_info.is_write


def bind(schema: Any, args: Sequence[Any], kwargs: Dict[str, Any]) -> List[Any]:
    """The operator's arguments in schema order (keyword-only ones and defaults filled in)."""
    values = list(args)
    for a in schema.arguments[len(args):]:
        if a.name in kwargs:
            values.append(kwargs[a.name])
        elif a.has_default_value():
            values.append(a.default_value)
        else:
            raise TypeError(f"{schema.name}() missing argument {a.name!r}")
    return values


class _KernelOp:
    """The CPU and fake implementations of an operator over an ascsim.load kernel."""

    def __init__(self, qualname: str, schema: Any, kernel: Kernel, outputs: Optional[Callable],
                 launch_args: Optional[Callable], block_dim: Union[int, Callable]):
        self.qualname = qualname
        self.schema = schema
        self.kernel = kernel
        self.outputs = outputs
        self.launch_args = launch_args
        self.block_dim = block_dim
        self.returns = len(schema.returns)
        self.mutated = [_mutated(a) for a in schema.arguments]

    def _outputs(self, values: List[Any]) -> Tuple[torch.Tensor, ...]:
        if self.returns == 0:
            return ()
        outs = self.outputs(*values)
        if isinstance(outs, torch.Tensor):
            outs = (outs,)
        outs = tuple(outs)
        if len(outs) != self.returns or not all(isinstance(o, torch.Tensor) for o in outs):
            raise _error(f"{self.qualname}: outputs() must return {self.returns} tensor(s) "
                         f"(the schema's returns), got {outs!r:.200}")
        return outs

    @staticmethod
    def _result(outs: Tuple[torch.Tensor, ...]) -> Any:
        if not outs:
            return None
        return outs[0] if len(outs) == 1 else outs

    def cpu(self, *args: Any, **kwargs: Any) -> Any:
        values = bind(self.schema, args, kwargs)
        write_back = []
        for i, v in enumerate(values):
            if isinstance(v, torch.Tensor) and not v.is_contiguous():
                c = v.contiguous()  # the kernel sees row-major memory
                if self.mutated[i]:
                    write_back.append((v, c))
                values[i] = c
        outs = self._outputs(values)
        for o in outs:
            if not o.is_contiguous() or o.device.type != "cpu":
                raise _error(f"{self.qualname}: outputs() must allocate contiguous CPU tensors "
                             f"(torch.empty(shape, dtype=...)), got one of strides {o.stride()} "
                             f"on {o.device}")
        kargs = (self.launch_args(*values, *outs) if self.launch_args is not None
                 else (*values, *outs))
        block_dim = self.block_dim(*values) if callable(self.block_dim) else self.block_dim
        self.kernel(*kargs, block_dim=block_dim)
        for original, copy in write_back:
            original.copy_(copy)
        return self._result(outs)

    def fake(self, *args: Any, **kwargs: Any) -> Any:
        return self._result(self._outputs(bind(self.schema, args, kwargs)))


def define(schema: str, cpu: Callable, fake: Callable, tags: Sequence[Any] = ()) -> Any:
    """Defines 'ns::name(...) -> ...' with a CPU and a fake implementation; returns
    torch.ops.ns.name."""
    ns, name, signature = split_schema(schema)
    lib = library(ns)
    try:
        lib.define(name + signature, tags=tuple(tags))
    except RuntimeError as e:
        raise _error(f"ascsim.torch.register: cannot define {ns}::{name}: {e}") from None
    lib.impl(name, cpu, "CPU")
    torch.library.register_fake(f"{ns}::{name}", fake, lib=lib)
    return op_packet(ns, name)


def register(schema: str, kernel: Any, *, outputs: Optional[Callable] = None,
             launch_args: Optional[Callable] = None,
             block_dim: Union[int, Callable, None] = None, tags: Sequence[Any] = ()) -> Any:
    """Turns a kernel loaded with ascsim.load, or an operator loaded with ascsim.load_op, into
    the operator torch.ops.<ns>.<name>.

    An operator of a custom-operator project (ascsim.load_op(...)): ``register("mylib::sq", op)``
    (or ``register("mylib", op)``: the name is then the operator type in snake case). Its schema
    comes from the OpDef (inputs, ``Tensor?`` for optional ones, the attributes as keyword-only
    arguments with their types and defaults, one Tensor per output), its outputs' shapes and
    dtypes from InferShape / InferDataType, which is also its fake implementation; the inputs'
    dtypes must be ones the OpDef lists, and tensors must be contiguous. outputs, launch_args and
    block_dim are for kernels only (the operator's TilingFunc sets its block dim).

    For a kernel:

    schema: 'ns::name(Tensor x, Tensor y, float alpha=1.0) -> Tensor' (torch's schema language;
        an in-place operator marks what it writes, 'ns::scale_(Tensor(a!) x, float s) -> ()').
    kernel: the kernel, e.g. ascsim.load("axpy.cpp").axpy_custom.
    outputs: outputs(*op_args) -> the new output tensor(s), e.g. ``lambda x, y, alpha:
        torch.empty_like(x)``. It is also the fake implementation torch.compile traces with, so it
        may use only shapes and dtypes, never values. Not needed when the schema returns nothing.
    launch_args: launch_args(*op_args, *outputs) -> the kernel's arguments (tensors for GM
        pointers, numbers, tiling bytes). Default: the op's arguments then the outputs.
    block_dim: an int, or block_dim(*op_args) -> int.

    The CPU implementation passes the tensors' memory to the kernel without a copy (an input that
    is not contiguous is made so first; a non-contiguous tensor the operator writes is written
    back). Returns the operator, torch.ops.<ns>.<name>.
    """
    from .._op_loader import Operator
    if isinstance(kernel, Operator):
        if outputs is not None or launch_args is not None or block_dim is not None:
            raise _error(f"ascsim.torch.register: {kernel.op_type} is an operator from "
                         "ascsim.load_op: its OpDef, InferShape and TilingFunc give the outputs, "
                         "arguments and block dim (outputs, launch_args, block_dim are for "
                         "kernels from ascsim.load)")
        from ._load_op import register_operator
        return register_operator(schema, kernel, tags)
    if block_dim is None:
        block_dim = 8
    if not isinstance(kernel, Kernel):
        raise _error("ascsim.torch.register: kernel must be a kernel of a module from "
                     "ascsim.load (module.<kernel>) or an operator from ascsim.load_op, got "
                     f"{type(kernel).__name__}")
    ns, name, signature = split_schema(schema)
    try:
        parsed = torch._C.parse_schema(f"{ns}::{name}{signature}")
    except RuntimeError as e:
        raise _error(f"ascsim.torch.register: schema {schema!r} does not parse: {e}") from None
    for a in parsed.arguments:
        if isinstance(a.type, torch.ListType):
            raise _error(f"ascsim.torch.register: {ns}::{name}: argument {a.name} ({a.type}) "
                         "is a list; kernels take tensors, optional tensors and scalars")
    for r in parsed.returns:
        if not is_tensor_type(r.type):
            raise _error(f"ascsim.torch.register: {ns}::{name}: returns must be tensors, got "
                         f"{r.type}")
    if parsed.returns and outputs is None:
        raise _error(f"ascsim.torch.register: {ns}::{name} returns {len(parsed.returns)} "
                     "tensor(s): pass outputs=lambda *args: <new tensors>")
    count = len(parsed.arguments) + len(parsed.returns)
    if launch_args is None and count != len(kernel.params):
        raise _error(
            f"ascsim.torch.register: {ns}::{name} has {len(parsed.arguments)} argument(s) and "
            f"{len(parsed.returns)} output(s) but kernel {kernel.__name__} takes "
            f"{len(kernel.params)} ({', '.join(p['name'] for p in kernel.params)}): pass "
            "launch_args=lambda *args_then_outputs: (<the kernel's arguments>)")
    impl = _KernelOp(f"{ns}::{name}", parsed, kernel, outputs, launch_args, block_dim)
    return define(schema, impl.cpu, impl.fake, tags)


def _backward_from_kernel(qualname: str, op: Any, kernel: Kernel,
                          launch_args: Optional[Callable], block_dim: Union[int, Callable]) -> Any:
    """Registers a kernel as the operator '<qualname>_backward(grad..., <op's args>) ->
    (grad of each tensor argument)': by default the kernel takes the output gradients, the op's
    arguments, then the input gradients it writes."""
    schema = op._schema
    text = str(schema)
    args = text[text.index("(") + 1:text.rindex(") ->")]
    grads = ", ".join(f"Tensor grad_{i}" for i in range(len(schema.returns)))
    tensor_args = [a for a in schema.arguments if is_tensor_type(a.type)]
    rets = ", ".join("Tensor" for _ in tensor_args)
    name = qualname.replace(".", "_") + "_backward"
    outputs = (lambda *values: tuple(
        torch.empty(v.shape, dtype=v.dtype) for v, a in
        zip(values[len(schema.returns):], schema.arguments) if is_tensor_type(a.type)))
    return register(f"{name}({grads}{', ' if grads and args else ''}{args}) -> ({rets})", kernel,
                    outputs=outputs, launch_args=launch_args, block_dim=block_dim)


def _tensor_argument(a: Any) -> bool:
    """A Tensor or an optional Tensor (Tensor?) argument."""
    return is_tensor_type(a.type) or (isinstance(a.type, torch.OptionalType)
                                      and is_tensor_type(a.type.getElementType()))


def _backward_from_operator(qualname: str, op: Any, operator: Any) -> Callable:
    """Registers an ascsim.load_op operator (a CANN-style <Op>Grad: the output gradients, then
    the forward's Tensor arguments, in; a gradient per Tensor argument out; attributes shared by
    name) as '<qualname>_backward' and returns the call register_autograd makes of it."""
    from ._load_op import register_operator
    schema = op._schema
    names = [a.name for a in schema.arguments]
    tensors = [i for i, a in enumerate(schema.arguments)
               if not a.kwarg_only and _tensor_argument(a)]
    n_grads = len(schema.returns)
    spec = operator.spec
    if len(spec["inputs"]) != n_grads + len(tensors) or len(spec["outputs"]) != len(tensors):
        raise _error(
            f"ascsim.torch.register_autograd: {qualname}: the backward operator "
            f"{operator.op_type} takes {len(spec['inputs'])} input(s) and returns "
            f"{len(spec['outputs'])}; it must take the {n_grads} output gradient(s) then the "
            f"{len(tensors)} Tensor argument(s), and return a gradient for each of those")
    shared = [a["name"] for a in spec["attrs"] if a["name"] in names]
    ns, name = qualname.split("::")
    grad_op = register_operator(f"{ns}::{name.replace('.', '_')}_backward", operator)

    def call(*args: Any) -> Any:
        grads, values = args[:n_grads], args[n_grads:]  # values: the schema's order
        return grad_op(*grads, *(values[i] for i in tensors),
                       **{n: values[names.index(n)] for n in shared})
    return call


def register_autograd(op: Any, backward: Any, *, launch_args: Optional[Callable] = None,
                      block_dim: Union[int, Callable] = 8) -> None:
    """Makes an operator differentiable with a backward operator, kernel or function.

    op: torch.ops.<ns>.<name> (or 'ns::name'); its Tensor arguments get gradients.
    backward: called as backward(*grad_outputs, *op_args) and returns the gradient of each Tensor
        argument of op, in order (one tensor when there is one; None for one that needs none).
        A registered operator fits as it is (GELU: torch.ops.ascsim.gelu_custom_backward(grad_y,
        x)). A kernel from ascsim.load is registered first as the operator
        '<ns>::<name>_backward', whose outputs are the gradients (new tensors shaped like the
        Tensor arguments); its launch_args and block_dim are as in register(), launch_args
        receiving (*grad_outputs, *op_args, *gradients) and returning the kernel's arguments
        (default: those, in that order). An operator from ascsim.load_op (a CANN-style
        <Op>Grad) is registered as '<ns>::<name>_backward' from its OpDef and called with the
        output gradients, then op's Tensor arguments, and op's attributes of the same names as
        keywords; it returns a gradient per Tensor argument. op_args are op's arguments in its
        schema's order (keyword-only attributes last); an optional (Tensor?) argument gets a
        gradient too, except from a backward kernel.
    """
    qualname, overload = _qualname(op)
    schema = overload._schema
    if any(_mutated(a) for a in schema.arguments):
        raise _error(f"ascsim.torch.register_autograd: {qualname} writes its inputs in place; "
                     "only functional operators take a backward")
    # An optional tensor (Tensor?) gets a gradient too, unless the backward is a kernel, whose
    # operator allocates gradients for the Tensor arguments only.
    grad_optional = not isinstance(backward, Kernel)
    from .._op_loader import Operator
    if isinstance(backward, Operator):
        if launch_args is not None:
            raise _error("ascsim.torch.register_autograd: launch_args is for a backward kernel "
                         "(from ascsim.load), not an operator from ascsim.load_op")
        backward = _backward_from_operator(qualname, overload, backward)
    elif isinstance(backward, Kernel):
        backward = _backward_from_kernel(qualname, overload, backward, launch_args, block_dim)
    elif launch_args is not None:
        raise _error("ascsim.torch.register_autograd: launch_args is for a backward kernel "
                     "(from ascsim.load); an operator or function takes its own arguments")
    if not callable(backward):
        raise _error(f"ascsim.torch.register_autograd: backward must be an operator, a kernel or "
                     f"a function, got {type(backward).__name__}")
    # torch's autograd formula takes the positional arguments as `inputs` and the keyword-only
    # ones (no tensors among them) as `keyword_only_inputs`; gradients are for the former
    # (torch.library.register_autograd's docstring and torch/_library/autograd.py, torch 2.13).
    positional = [a for a in schema.arguments if not a.kwarg_only]
    keyword_names = [a.name for a in schema.arguments if a.kwarg_only]
    tensor_positions = [i for i, a in enumerate(positional)
                        if (_tensor_argument(a) if grad_optional else is_tensor_type(a.type))]
    n_args = len(positional)

    def setup_context(ctx: Any, inputs: Tuple[Any, ...], output: Any,
                      keyword_only_inputs: Optional[Dict[str, Any]] = None) -> None:
        ctx.save_for_backward(*(inputs[i] for i in tensor_positions))
        ctx.values = [None if i in tensor_positions else v for i, v in enumerate(inputs)]
        ctx.values += [keyword_only_inputs[n] for n in keyword_names]

    def backward_fn(ctx: Any, *grads: Any) -> Tuple[Any, ...]:
        values = list(ctx.values)
        for i, t in zip(tensor_positions, ctx.saved_tensors):
            values[i] = t
        # An output gradient may be expanded (that of a .sum()): operators read row-major memory.
        grads = tuple(g.contiguous() if isinstance(g, torch.Tensor) else g for g in grads)
        result = backward(*grads, *values)
        if isinstance(result, torch.Tensor) or result is None:
            result = (result,)
        result = tuple(result)
        if len(result) != len(tensor_positions):
            raise _error(f"{qualname}: backward returned {len(result)} gradient(s); the "
                         f"operator has {len(tensor_positions)} Tensor argument(s)")
        full: List[Any] = [None] * n_args
        for i, g in zip(tensor_positions, result):
            full[i] = g
        return tuple(full)

    ns = qualname.split("::")[0]
    torch.library.register_autograd(qualname, backward_fn, setup_context=setup_context,
                                    lib=library(ns))
    # An operator called before (opcheck, a first forward) keeps the dispatch decision it cached
    # per key, AutogradCPU included, and would go on bypassing the new autograd formula under
    # torch.compile (torch 2.13; the gradients come back None): drop those cached decisions.
    packet = op_packet(ns, qualname.split("::")[1])
    for name in packet.overloads():
        cache = getattr(getattr(packet, name), "_dispatch_cache", None)
        if cache is not None:
            cache.clear()
