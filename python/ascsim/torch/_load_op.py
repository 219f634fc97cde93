"""torch.library registration of the operators of a custom-operator project (ascsim.load_op).

The schema comes from the operator's OpDef as the active SoC sees it: inputs in order (an
OPTIONAL one is ``Tensor?``), then the attributes as keyword-only arguments with their types and
the OpDef's defaults, and one Tensor per output. The CPU implementation hands NumPy views of the
tensors' memory (no copy on the torch side) to the operator's aclnn path (validation, InferShape /
InferDataType, TilingFunc, kernel); the fake implementation runs only InferShape /
InferDataType on the inputs' shapes and data types (ascsim._core._op_infer_meta), never the
kernel, so torch.compile traces what the call would produce.

torch's schema language: https://github.com/pytorch/pytorch/blob/main/aten/src/ATen/native/README.md
(``Tensor?``, ``*`` before keyword-only arguments, ``int[]``/``float[]``/``bool[]``, defaults).
"""
from __future__ import annotations

import keyword
import re
from typing import Any, Dict, List, Sequence, Tuple

import numpy as np
import torch

from .. import _core
from .._op_loader import Operator
from ._tensors import as_array

# torch dtype -> CANN data type number (ge::DataType, graph/types.h; aclDataType agrees).
GE_DTYPE = {torch.float32: 0, torch.float16: 1, torch.int8: 2, torch.int32: 3, torch.uint8: 4,
            torch.int16: 6, torch.uint16: 7, torch.uint32: 8, torch.int64: 9, torch.uint64: 10,
            torch.float64: 11, torch.bool: 12, torch.bfloat16: 27}
TORCH_DTYPE = {v: k for k, v in GE_DTYPE.items()}

# OpDef attribute types (AttrKindName) -> torch schema types.
_ATTR_TYPES = {"bool": "bool", "float": "float", "int": "int", "str": "str",
               "listBool": "bool[]", "listFloat": "float[]", "listInt": "int[]"}
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# Words torch's schema parser reads as types or keywords, not as argument names.
_RESERVED = {"Tensor", "Scalar", "int", "float", "bool", "str", "None", "True", "False",
             "SymInt", "Device", "Layout", "ScalarType", "MemoryFormat", "Generator", "Storage",
             "Stream", "Dimname", "complex"}


def _error(message: str) -> Exception:
    return _core.InvalidArgumentError(message)


def _type_names(types: Sequence[int]) -> str:
    return ", ".join(sorted({str(TORCH_DTYPE[t]).replace("torch.", "") if t in TORCH_DTYPE
                             else f"data type {t}" for t in types}))


def _literal(kind: str, value: Any) -> str:
    """An attribute default as a schema literal."""
    if kind == "bool":
        return "True" if value else "False"
    if kind == "float":  # a float32 on the device: its shortest decimal form round-trips
        return repr(float(str(np.float32(value))))
    if kind == "int":
        return str(int(value))
    if kind == "str":
        return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'
    item = {"listBool": "bool", "listFloat": "float", "listInt": "int"}[kind]
    return "[" + ", ".join(_literal(item, v) for v in value) + "]"


def schema_of(spec: Dict[str, Any], qualname: str) -> str:
    """'ns::name(<inputs>, *, <attrs>) -> <outputs>' for an OpDef as ascsim.load_op sees it
    (Operator.spec). Raises InvalidArgumentError naming what torch's schema cannot say."""
    op_type = spec["op_type"]
    where = f"ascsim.torch.register: {qualname} ({op_type})"
    names = set()

    def check_name(what: str, name: str) -> None:
        if not _NAME.match(name) or keyword.iskeyword(name) or name in _RESERVED:
            raise _error(f"{where}: {what} name {name!r} is not an identifier a torch schema "
                         "takes")
        if name in names:
            raise _error(f"{where}: the name {name!r} is both an input and an attribute")
        names.add(name)

    inputs = spec["inputs"]
    args: List[str] = []
    for i, p in enumerate(inputs):
        check_name("input", p["name"])
        if p["kind"] == "dynamic":
            raise _error(f"{where}: input {p['name']} is dynamic (a tensor list), which "
                         "ascsim.load_op does not take")
        if p["kind"] == "optional":
            # A default only when no required input follows (a schema's positional arguments
            # with defaults come last).
            rest_optional = all(q["kind"] == "optional" for q in inputs[i + 1:])
            args.append(f"Tensor? {p['name']}" + ("=None" if rest_optional else ""))
        else:
            args.append(f"Tensor {p['name']}")
    attrs = []
    for a in spec["attrs"]:
        check_name("attribute", a["name"])
        t = _ATTR_TYPES.get(a["kind"])
        if t is None:
            raise _error(f"{where}: attribute {a['name']} is {a['kind']}, which a torch schema "
                         "has no type for")
        default = a["default"]
        attrs.append(f"{t} {a['name']}" + ("" if default is None
                                            else "=" + _literal(a["kind"], default)))
    if attrs:
        args.append("*")
        args.extend(attrs)
    for p in spec["outputs"]:
        if p["kind"] == "dynamic":
            raise _error(f"{where}: output {p['name']} is dynamic (a tensor list), which "
                         "ascsim.load_op does not return")
    n = len(spec["outputs"])
    returns = "()" if n == 0 else "Tensor" if n == 1 else "(" + ", ".join(["Tensor"] * n) + ")"
    return f"{qualname}({', '.join(args)}) -> {returns}"


class OperatorOp:
    """The CPU and fake implementations of a torch operator over an ascsim.load_op operator."""

    def __init__(self, qualname: str, operator: Operator, schema: Any):
        self.qualname = qualname
        self.operator = operator
        self.schema = schema
        self.spec = operator.spec
        self.n_inputs = len(self.spec["inputs"])

    def _bind(self, args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Tuple[List[Any], List[Any]]:
        from ._register import bind
        values = bind(self.schema, args, kwargs)
        inputs, attrs = values[:self.n_inputs], values[self.n_inputs:]
        for p, t in zip(self.spec["inputs"], inputs):
            if t is None:
                if p["kind"] != "optional":
                    raise _error(f"{self.qualname}: input {p['name']} is required, got None")
                continue
            where = f"{self.qualname}: input {p['name']}"
            if t.device.type not in ("cpu", "meta"):
                raise _error(f"{where} is on {t.device}; ascsim operators take CPU tensors")
            if GE_DTYPE.get(t.dtype) not in p["types"]:
                raise _error(f"{where} has dtype {t.dtype}; {self.spec['op_type']} takes "
                             f"{_type_names(p['types'])} for it (inputs are never cast)")
            if not t.is_contiguous():
                raise _error(f"{where} is not contiguous (shape {tuple(t.shape)}, strides "
                             f"{t.stride()}); the operator reads row-major memory: pass "
                             ".contiguous()")
        for a, v in zip(self.spec["attrs"], attrs):
            if v is None:
                raise _error(f"{self.qualname}: attribute {a['name']} is required (no default)")
        return inputs, attrs

    @staticmethod
    def _result(outs: Sequence[torch.Tensor]) -> Any:
        if not outs:
            return None
        return outs[0] if len(outs) == 1 else tuple(outs)

    def cpu(self, *args: Any, **kwargs: Any) -> Any:
        inputs, attrs = self._bind(args, kwargs)
        arrays = []
        for p, t in zip(self.spec["inputs"], inputs):
            if t is not None and t.dtype == torch.bfloat16:
                raise _error(f"{self.qualname}: input {p['name']} is bfloat16, which "
                             "ascsim.load_op does not take through NumPy yet")
            arrays.append(None if t is None else
                          as_array(t, self.qualname, f"input {p['name']}"))
        result = self.operator(*arrays, **{a["name"]: v for a, v in
                                           zip(self.spec["attrs"], attrs)})
        if isinstance(result, np.ndarray):
            result = (result,)
        return self._result([torch.from_numpy(np.ascontiguousarray(r)) for r in result])

    def fake(self, *args: Any, **kwargs: Any) -> Any:
        inputs, attrs = self._bind(args, kwargs)
        # InferShape runs in C++ on concrete sizes: a symbolic size is specialized to its hint.
        metas = [None if t is None else ([int(d) for d in t.shape], GE_DTYPE[t.dtype])
                 for t in inputs]
        with self.operator._on_soc():
            outs = _core._op_infer_meta(self.operator._package, self.spec["op_type"],
                                        self.qualname, metas, attrs)
        device = next((t.device for t in inputs if t is not None), torch.device("cpu"))
        results = []
        for p, (shape, dtype) in zip(self.spec["outputs"], outs):
            if dtype not in TORCH_DTYPE:
                raise _error(f"{self.qualname}: output {p['name']} has data type {dtype}, which "
                             "torch has no dtype for")
            results.append(torch.empty(shape, dtype=TORCH_DTYPE[dtype], device=device))
        return self._result(results)


def register_operator(name: str, operator: Operator, tags: Sequence[Any] = ()) -> Any:
    """torch.ops.<ns>.<name> over a load_op operator; `name` is 'ns::name' or 'ns' (the name is
    then the operator type in snake case: SquaredDiffCustom -> squared_diff_custom)."""
    from ._register import define
    ns, sep, op_name = name.partition("::")
    if not sep:
        op_name = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_",
                         operator.op_type).lower()
    if not _NAME.match(ns) or not _NAME.match(op_name):
        raise _error(f"ascsim.torch.register: {name!r} must read 'namespace::name' or "
                     "'namespace' (identifiers) for an operator from ascsim.load_op")
    qualname = f"{ns}::{op_name}"
    schema = schema_of(operator.spec, qualname)
    try:
        parsed = torch._C.parse_schema(schema)
    except RuntimeError as e:  # a name or default the checks above let through
        raise _error(f"ascsim.torch.register: {operator.op_type}'s OpDef gives the schema "
                     f"{schema!r}, which torch does not parse: {e}") from None
    impl = OperatorOp(qualname, operator, parsed)
    return define(schema, impl.cpu, impl.fake, tags)

