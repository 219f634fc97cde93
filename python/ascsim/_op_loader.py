"""ascsim.load_op(): the operators of a custom-operator project (or of an installed operator
package) as Python callables.

A project in the official layout (op_host/*.cpp with the OpDef, TilingFunc and InferShape;
op_kernel/<op>.cpp) is built as its build.sh builds it, by the same tools: the op_host sources
compiled into the package's host library (C++11, the old libstdc++ ABI), op_build (the
operators' prototypes and kernel variants) and one opc compile per data-type combination, laid out
as an operator package (vendors/<vendor>/op_impl/...) in ascsim's cache. An installed package
(vendors/<vendor>, as the project's .run installs it) is used as it is. Each call runs the same
aclnn path as aclnn<Op>GetWorkspaceSize / aclnn<Op> (src/op/aclnn): validation against the
OpDef, InferShape / InferDataType (which shape and type the outputs), the TilingFunc, the kernel
variant and its launch. docs/custom_ops.md describes the whole chain.
"""
from __future__ import annotations

import hashlib
import inspect
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import types
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Dict, List, Optional, Union

import numpy as np

from . import _core, _loader, _settings

PathLike = Union[str, "os.PathLike[str]"]

# The build's recipe; a change rebuilds every cached package.
_RECIPE_VERSION = "2"
_KERNEL_DIR = os.path.join("op_impl", "ai_core", "tbe", "kernel")
_HOST_LIB = os.path.join("op_impl", "ai_core", "tbe", "op_tiling", "lib", "linux",
                         platform.machine() or "x86_64", "libcust_opmaster_rt2.0.so")
_CONFIG_DIR = os.path.join("op_impl", "ai_core", "tbe", "config")
_loaded: Dict[str, Any] = {}
_loaded_lock = threading.Lock()

# ge::DataType numbers (graph/types.h) -> names for messages and signatures.
_GE_TYPES = {0: "float32", 1: "float16", 2: "int8", 3: "int32", 4: "uint8", 6: "int16",
             7: "uint16", 8: "uint32", 9: "int64", 10: "uint64", 11: "float64", 12: "bool",
             27: "bfloat16"}
# Keyed by the attribute kinds the C++ side reports (src/op/op_resolve.cpp AttrKindName).
_ATTR_ANNOTATIONS = {"bool": bool, "float": float, "int": int, "str": str,
                     "listBool": List[bool], "listFloat": List[float], "listInt": List[int],
                     "listListInt": List[List[int]]}


def _error(message: str) -> Exception:
    return _core.InvalidArgumentError("ascsim.load_op: " + message)


def _short_soc(name: str) -> str:
    """Ascend910B1 -> ascend910b: the names AddConfig and the package's folders use."""
    s = name.lower()
    for prefix in ("ascend910_93", "ascend910b", "ascend910_95", "ascend310p", "ascend310b"):
        if s.startswith(prefix):
            return "ascend910b" if prefix == "ascend910_93" else prefix
    return "ascend910" if s.startswith("ascend910") else s


def _is_package(path: str) -> bool:
    return os.path.isdir(os.path.join(path, "op_impl", "ai_core", "tbe"))


def _is_project(path: str) -> bool:
    return os.path.isdir(os.path.join(path, "op_host")) and os.path.isdir(
        os.path.join(path, "op_kernel"))


def _tool(name: str, args: List[str], verbose: bool, what: str) -> str:
    """Runs the toolkit's op_build or opc (in libascsim) in a child interpreter: op_build loads
    the op_host library, which must not register its operators in this process."""
    cmd = [sys.executable, "-c",
           "import sys; from ascsim import _core; sys.exit(_core._op_tool(sys.argv[1], "
           "sys.argv[2:]))", name] + args
    if verbose:
        print("ascsim.load_op:", name, " ".join(args), file=sys.stderr)
    # The child imports the same _core, so it keeps this process's preloads (under the sanitizer
    # stage, the ASan/UBSan runtimes an instrumented _core needs first).
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.dirname(os.path.dirname(os.path.abspath(__file__)))]
        + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
    output = proc.stdout + proc.stderr
    if verbose and output:
        print(output, file=sys.stderr)
    if proc.returncode != 0:
        error = _core.BuildError(f"ascsim.load_op: {what} failed:\n"
                                 f"{_loader._first_error_lines(output)}")
        error.output = output
        raise error
    return output


def _cmake_sets(path: str) -> Dict[str, List[str]]:
    """The set(NAME values...) lines of op_build's ascsim_kernels.cmake."""
    out: Dict[str, List[str]] = {}
    with open(path, encoding="utf-8") as f:
        for m in re.finditer(r"^set\((\w+)((?:\s+(?:\"[^\"]*\"|[^\s)]+))*)\)", f.read(), re.M):
            out[m.group(1)] = [v.strip('"') for v in
                               re.findall(r"\"[^\"]*\"|[^\s\"]+", m.group(2))]
    return out


def _project_key(project: str, soc: str) -> str:
    cfg = _loader._build_config()
    h = hashlib.sha256()
    for item in [_core.__version__, _RECIPE_VERSION, soc, sys.platform, json.dumps(cfg),
                 _loader._compiler_id(_loader._compiler())]:
        h.update(item.encode() + b"\0")
    for sub in ("op_host", "op_kernel"):
        for dirpath, dirnames, filenames in os.walk(os.path.join(project, sub)):
            dirnames.sort()
            for name in sorted(filenames):
                p = os.path.join(dirpath, name)
                h.update(os.path.relpath(p, project).encode() + b"\0"
                         + _loader._sha256_file(p).encode() + b"\0")
    return h.hexdigest()[:16]


def _build_project(project: str, soc_short: str, soc_full: str, folder: str,
                   verbose: bool) -> Dict[str, Any]:
    cfg = _loader._build_config()
    work = tempfile.mkdtemp(prefix="build-", dir=folder)
    try:
        pkg = os.path.join(work, "vendors", "customize")
        host_lib = os.path.join(pkg, _HOST_LIB)
        os.makedirs(os.path.dirname(host_lib))
        sources = sorted(os.path.join(project, "op_host", f)
                         for f in os.listdir(os.path.join(project, "op_host"))
                         if f.endswith(".cpp"))
        if not sources:
            raise _error(f"{project}/op_host has no .cpp source (the OpDef and its TilingFunc)")
        lib = cfg["library_dir"]
        # As the project's build compiles op_host (CANN's opbuild(): C++11, the old ABI).
        _loader._run(_loader._compiler() + sources + [
            "-fPIC", "-shared", "-std=c++11", "-D_GLIBCXX_USE_CXX11_ABI=0", "-O1",
            f"-I{project}/op_host", f"-I{project}/op_kernel"]
            + [f"-I{d}" for d in cfg["include_dirs"]]
            + [f"-L{lib}", f"-Wl,-rpath,{lib}", "-lascsim", "-o", host_lib],
            verbose, "compiling op_host")
        autogen = os.path.join(work, "autogen")
        os.makedirs(autogen)
        _tool("op_build", [host_lib, autogen], verbose, "op_build")
        sets = _cmake_sets(os.path.join(autogen, "ascsim_kernels.cmake"))
        op_types = sets.get("ASCSIM_OP_TYPES", [])
        jobs = []
        for op in op_types:
            if soc_short not in sets.get(f"ASCSIM_OP_SOCS_{op}", []):
                continue
            file = sets[f"ASCSIM_OP_FILE_{op}"][0]
            src = os.path.join(project, "op_kernel", file + ".cpp")
            if not os.path.isfile(src):
                raise _error(f"the kernel of {op} must be op_kernel/{file}.cpp")
            out = os.path.join(pkg, _KERNEL_DIR, soc_short, file)
            os.makedirs(out, exist_ok=True)
            for b in sets.get(f"ASCSIM_KERNELS_{soc_short}_{op}", []):
                param = sets[f"ASCSIM_KERNEL_PARAM_{soc_short}_{b}"][0]
                args = [src, f"--main_func={file}", f"--input_param={param}",
                        f"--soc_version={soc_full}", f"--output={out}",
                        f"--ascsim-host-lib={host_lib}", f"--ascsim-libdir={lib}"]
                args += [f"--ascsim-include={d}" for d in cfg["include_dirs"]]
                if cfg["launch_transform"]:  # for a kernel file with a <<<>>> _do wrapper
                    args.append(f"--ascsim-launch-transform={cfg['launch_transform']}")
                jobs.append((args, f"compiling the kernel of {op} ({b})"))
        if not jobs:
            raise _error(f"{project} has no operator with AddConfig(\"{soc_short}\") "
                         f"(operators: {', '.join(op_types) or 'none'})")
        with ThreadPoolExecutor(max(1, min(len(jobs), os.cpu_count() or 1))) as pool:
            list(pool.map(lambda j: _tool("opc", j[0], verbose, j[1]), jobs))
        ini = os.path.join(autogen, f"aic-{soc_short}-ops-info.ini")
        if os.path.isfile(ini):
            os.makedirs(os.path.join(pkg, _CONFIG_DIR, soc_short))
            shutil.copy(ini, os.path.join(pkg, _CONFIG_DIR, soc_short))
        final = os.path.join(folder, "vendors")
        shutil.rmtree(final, ignore_errors=True)
        os.replace(os.path.join(work, "vendors"), final)
        manifest = {"package": os.path.join(final, "customize"), "op_types": op_types}
        with open(os.path.join(work, "manifest.json"), "w", encoding="utf-8") as f:
            json.dump(manifest, f)
        os.replace(os.path.join(work, "manifest.json"), os.path.join(folder, "manifest.json"))
        return manifest
    finally:
        if not verbose:
            shutil.rmtree(work, ignore_errors=True)


def _package_op_types(package: str, soc_short: str) -> List[str]:
    """The [OpType] sections of the package's ops-info for the SoC."""
    ini = os.path.join(package, _CONFIG_DIR, soc_short, f"aic-{soc_short}-ops-info.ini")
    if not os.path.isfile(ini):
        kernels = os.path.join(package, _KERNEL_DIR)
        has = sorted(os.listdir(kernels)) if os.path.isdir(kernels) else []
        raise _error(f"the package {package} has no operators for {soc_short} "
                     f"(it has kernels for: {', '.join(has) or 'none'})")
    with open(ini, encoding="utf-8") as f:
        return re.findall(r"^\[(\w+)\]", f.read(), re.M)


class Operator:
    """One operator of a loaded project or package:
    ``op(<inputs>, *, <attrs>, out=None, stream=None)`` -> the output array (a tuple for several).

    Inputs take C-contiguous NumPy arrays (copied to device memory), None for an absent optional
    input, a list or tuple of arrays for a dynamic input (a tensor list). NumPy has no bfloat16:
    a bfloat16 tensor is an ml_dtypes.bfloat16 array or the uint16 bits of one (for a parameter
    that takes bfloat16 and not uint16), and a bfloat16 output comes back as uint16 bits;
    attributes are keywords with the OpDef's defaults. The outputs are allocated from
    InferShape / InferDataType unless ``out`` gives them (a list, one array per output). Each call
    validates against the OpDef, runs the TilingFunc and launches the kernel variant of the
    inputs' data types, as aclnn<Op>GetWorkspaceSize / aclnn<Op> do; a bad argument raises
    InvalidArgumentError with the aclnn message naming the parameter; a kernel fault raises as
    for any launch. With an ascsim.Stream the call validates, runs the TilingFunc and returns at
    once; the kernel runs in order with the stream's other work, and the returned arrays hold
    the outputs after ``stream.synchronize()`` (which raises a kernel fault).
    """

    def __init__(self, package: str, op_type: str, soc: Optional[str]):
        self._package = package
        self._soc = soc
        self.__name__ = self.__qualname__ = op_type
        self.op_type = op_type
        with self._on_soc():
            self.spec = _core._op_signature(package, op_type)
        params = []
        for p in self.spec["inputs"]:
            params.append(inspect.Parameter(
                p["name"], inspect.Parameter.POSITIONAL_OR_KEYWORD,
                annotation=List[np.ndarray] if p["kind"] == "dynamic" else np.ndarray,
                default=None if p["kind"] == "optional" else inspect.Parameter.empty))
        for a in self.spec["attrs"]:
            params.append(inspect.Parameter(
                a["name"], inspect.Parameter.KEYWORD_ONLY,
                annotation=_ATTR_ANNOTATIONS.get(a["kind"], Any),
                default=(a["default"] if a["default"] is not None or not a["required"]
                         else inspect.Parameter.empty)))
        params.append(inspect.Parameter("out", inspect.Parameter.KEYWORD_ONLY, default=None))
        params.append(inspect.Parameter("stream", inspect.Parameter.KEYWORD_ONLY, default=None,
                                        annotation=Optional[_core.Stream]))
        self.__signature__ = inspect.Signature(params)
        lines = [f"{op_type}{self.__signature__}", ""]
        for kind in ("inputs", "outputs"):
            for p in self.spec[kind]:
                types_ = sorted({_GE_TYPES.get(t, str(t)) for t in p["types"]})
                lines.append(f"  {kind[:-1]} {p['name']} ({p['kind']}): {', '.join(types_)}")
        for a in self.spec["attrs"]:
            lines.append(f"  attr {a['name']}: {a['kind']} = {a['default']!r}")
        self.__doc__ = "\n".join(lines) + "\n\n" + (Operator.__doc__ or "")

    def _on_soc(self):
        if self._soc is None:
            import contextlib
            return contextlib.nullcontext()
        return _settings.settings(soc=self._soc)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            bound = self.__signature__.bind(*args, **kwargs)
        except TypeError as e:
            raise _core.InvalidArgumentError(f"{self.op_type}: {e}") from None
        bound.apply_defaults()
        values = bound.arguments
        inputs = [values[p["name"]] for p in self.spec["inputs"]]
        attrs = []
        for a in self.spec["attrs"]:
            v = values[a["name"]]
            if v is None:
                raise _core.InvalidArgumentError(
                    f"{self.op_type}: attribute {a['name']} is required (no default)")
            attrs.append(v)
        out = values["out"]
        if out is not None and isinstance(out, np.ndarray):
            out = [out]
        with self._on_soc():
            result = _core._op_call(self._package, self.op_type, self.op_type, inputs, attrs,
                                    None if out is None else list(out), values["stream"])
        return result[0] if len(result) == 1 else tuple(result)

    def __repr__(self) -> str:
        return f"<ascsim operator {self.op_type} from {self._package}>"


def load_op(path: PathLike, *, soc: Optional[str] = None, verbose: bool = False,
            build_dir: Optional[PathLike] = None) -> Any:
    """The operators of a custom-operator project or an installed operator package.

    path: a project in the official layout (op_host/, op_kernel/: what msopgen generates), built
        here as its build.sh would build it and cached (rebuilt when a file of op_host/ or
        op_kernel/ changes); or an installed package (vendors/<vendor>, with op_impl/).
    soc: the SoC to build for and run on (default: the active one, ascsim.get_soc()); calls then
        run under that SoC.
    verbose: print the build's commands and output.
    build_dir: where builds are cached (default: ascsim.load's, $ASCSIM_CACHE_DIR).

    Returns the Operator when there is one, else a module with one Operator per type. Raises
    InvalidArgumentError for a path that is neither, BuildError with the compiler's or the tool's
    first error lines when the build fails.
    """
    path = os.path.abspath(os.fspath(path))
    if not os.path.isdir(path):
        raise _error(f"no such folder: {path}")
    soc_full = soc if soc is not None else _settings.get_soc()["name"]
    if soc is not None:
        with _settings.settings(soc=soc):  # validates the name
            pass
    soc_short = _short_soc(soc_full)
    if _is_package(path):
        package = path
        op_types = _package_op_types(path, soc_short)
    elif _is_project(path):
        root = os.fspath(build_dir) if build_dir is not None else _loader.default_build_root()
        name = os.path.basename(path.rstrip(os.sep)) or "op"
        folder = os.path.join(root, f"op-{name}-{_project_key(path, soc_short)}")
        os.makedirs(folder, exist_ok=True)
        manifest = _loader._read_manifest(folder)
        if manifest is None:
            with _loader._file_lock(os.path.join(folder, "lock")):
                manifest = _loader._read_manifest(folder)
                if manifest is None:
                    manifest = _build_project(path, soc_short, soc_full, folder, verbose)
        elif verbose:
            print(f"ascsim.load_op: {name}: cached in {folder}", file=sys.stderr)
        package = manifest["package"]
        op_types = manifest["op_types"]
    else:
        raise _error(f"{path} is neither a custom-operator project (op_host/ and op_kernel/) "
                     f"nor an installed operator package (op_impl/ai_core/tbe)")
    with _loaded_lock:
        ops = []
        for t in op_types:
            key = f"{package}\0{t}\0{soc}"
            if key not in _loaded:
                _loaded[key] = Operator(package, t, soc)
            ops.append(_loaded[key])
    if len(ops) == 1:
        return ops[0]
    module = types.ModuleType(os.path.basename(path), f"ascsim operators of {path}")
    for op in ops:
        setattr(module, op.op_type, op)
    module.__all__ = [op.op_type for op in ops]
    return module
