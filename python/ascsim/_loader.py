"""ascsim.load(): a user's own Ascend C kernel file(s) as a Python module.

The sources are compiled with the system g++ against ascsim's headers and libascsim.so into a
plain shared library (a "kernel module", ascsim/kernel_module.h) whose generated table describes
every `extern "C" __global__ __aicore__` kernel; _core opens it with dlopen and launches its
kernels from Python arguments. Builds are cached by the contents of the sources and of every
header they include, the flags and the ascsim version.
"""
from __future__ import annotations

import contextlib
import fcntl
import hashlib
import inspect
import json
import os
import shlex
import subprocess
import sys
import tempfile
import threading
import types
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Dict, Iterable, List, Optional, Sequence, Union

import numpy as np

from . import _codegen, _core

PathLike = Union[str, "os.PathLike[str]"]

_PKG_DIR = os.path.dirname(os.path.abspath(__file__))
_loaded: Dict[str, types.ModuleType] = {}  # by built library path: one module per library
_loaded_lock = threading.Lock()


def _build_config() -> Dict[str, Any]:
    from . import _build_config as cfg  # written by CMake (build tree) or setup.py (package)

    def absolute(path: str) -> str:
        return path if os.path.isabs(path) else os.path.join(_PKG_DIR, path)

    tool = getattr(cfg, "LAUNCH_TRANSFORM", "")
    return {
        "include_dirs": [absolute(p) for p in cfg.INCLUDE_DIRS],
        "library_dir": absolute(cfg.LIBRARY_DIR),
        "launch_transform": absolute(tool) if tool else "",
    }


def _launch_syntax(text: str, path: str) -> str:
    """The `kernel<<<blockDim, l2ctrl, stream>>>(args)` launch syntax (a kernel file's `_do`
    wrapper, an .asc file's main): rewritten by the toolkit's ascsim-launch-transform, as
    ascendc_library does, with #line so compiler errors name the original file and line."""
    if "<<<" not in text:
        return text
    tool = os.environ.get("ASCSIM_LAUNCH_TRANSFORM") or _build_config()["launch_transform"]
    if not tool or not os.path.isfile(tool):
        raise _core.BuildError(
            f"ascsim.load: {path} uses the <<<>>> launch syntax, which needs the "
            f"ascsim-launch-transform tool, not found (looked for {tool or 'none configured'}); "
            "set ASCSIM_LAUNCH_TRANSFORM to its path")
    with tempfile.TemporaryDirectory(prefix="ascsim-launch-") as work:
        src = os.path.join(work, os.path.basename(path))
        with open(src, "w", encoding="utf-8") as f:
            f.write(text)
        proc = subprocess.run([tool, "--display-name", path, src], capture_output=True,
                              text=True)
    if proc.returncode != 0:
        error = _core.BuildError(
            f"ascsim.load: rewriting the <<<>>> launches of {path} failed:\n"
            + proc.stderr.strip())
        error.command = [tool, "--display-name", path, path]
        error.output = proc.stderr
        raise error
    return proc.stdout


_codegen.register_source_transform(_launch_syntax)


def default_build_root() -> str:
    """Where load() keeps its builds: $ASCSIM_CACHE_DIR, else $XDG_CACHE_HOME/ascsim, else
    ~/.cache/ascsim."""
    root = os.environ.get("ASCSIM_CACHE_DIR")
    if not root:
        cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        root = os.path.join(cache, "ascsim")
    return os.path.join(root, "modules")


def _compiler() -> List[str]:
    return shlex.split(os.environ.get("ASCSIM_CXX", "g++"))


_compiler_ids: Dict[str, str] = {}


def _compiler_id(cxx: Sequence[str]) -> str:
    key = " ".join(cxx)
    if key not in _compiler_ids:
        try:
            out = subprocess.run(list(cxx) + ["--version"], capture_output=True, text=True,
                                 check=False).stdout
        except OSError as e:
            raise _core.BuildError(f"ascsim.load: cannot run the compiler {key!r}: {e}") from None
        _compiler_ids[key] = out.splitlines()[0] if out else key
    return _compiler_ids[key]


def _sha256_file(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _parse_depfile(path: str) -> List[str]:
    with open(path, encoding="utf-8") as f:
        text = f.read().replace("\\\n", " ")
    _, _, deps = text.partition(":")
    out, token = [], ""
    i = 0
    while i < len(deps):  # paths with spaces are written with a backslash before the space
        c = deps[i]
        if c == "\\" and i + 1 < len(deps) and deps[i + 1] == " ":
            token += " "
            i += 2
            continue
        if c.isspace():
            if token:
                out.append(token)
            token = ""
        else:
            token += c
        i += 1
    if token:
        out.append(token)
    return out


def _deps_unchanged(manifest: Dict[str, Any], build_dir: str) -> bool:
    if not os.path.exists(os.path.join(build_dir, manifest.get("library", ""))):
        return False
    for path, digest in manifest.get("deps", {}).items():
        try:
            if _sha256_file(path) != digest:
                return False
        except OSError:
            return False
    return True


def _read_manifest(build_dir: str) -> Optional[Dict[str, Any]]:
    try:
        with open(os.path.join(build_dir, "manifest.json"), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _first_error_lines(output: str, limit: int = 12) -> str:
    lines = output.splitlines()
    first = next((i for i, line in enumerate(lines) if "error" in line), 0)
    # Keep the "In function ..." context line just before the first error.
    start = max(0, first - 1)
    return "\n".join(lines[start:start + limit])


def _run(cmd: List[str], verbose: bool, what: str) -> None:
    if verbose:
        print("ascsim.load:", shlex.join(cmd), file=sys.stderr)
    # A sanitizer runtime preloaded into this process (scripts/sanitizers.sh) is not for g++.
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
    if verbose and (proc.stdout or proc.stderr):
        print(proc.stdout + proc.stderr, file=sys.stderr)
    if proc.returncode != 0:
        output = proc.stdout + proc.stderr
        error = _core.BuildError(f"ascsim.load: {what} failed:\n{_first_error_lines(output)}")
        error.command = shlex.join(cmd)
        error.output = output
        raise error


def _build(sources: List[str], name: str, cflags: List[str], build_dir: str,
           verbose: bool) -> Dict[str, Any]:
    """Compiles into a fresh temporary folder inside `build_dir`, then moves the library in."""
    cfg = _build_config()
    cxx = _compiler()
    work = tempfile.mkdtemp(prefix="build-", dir=build_dir)
    try:
        generated = _codegen.generate(sources, os.path.join(work, "gen"))
        if not generated.kernels:
            raise _core.BuildError(
                "ascsim.load: no extern \"C\" __global__ __aicore__ kernel is defined in "
                + ", ".join(sources))
        # The sources' own folders first, for their "local.h" includes (also when a source
        # transform compiles a rewritten copy from the build folder).
        source_dirs = list(dict.fromkeys(os.path.dirname(p) for p in sources))
        includes = [f"-iquote{d}" for d in source_dirs] + [f"-I{d}" for d in cfg["include_dirs"]]
        base = cxx + ["-std=c++17", "-O2", "-fPIC", "-pthread"] + includes + cflags
        units = list(zip(generated.wrappers, sources)) + [(generated.table, "the module table")]

        def compile_one(unit):
            src, shown = unit
            obj = src[:-4] + ".o"
            _run(base + ["-MD", "-MF", obj + ".d", "-c", src, "-o", obj], verbose,
                 f"compiling {shown}")
            return obj

        jobs = max(1, min(len(units), os.cpu_count() or 1))
        with ThreadPoolExecutor(jobs) as pool:
            objects = list(pool.map(compile_one, units))
        deps = set()
        for obj in objects:
            deps.update(os.path.abspath(p) for p in _parse_depfile(obj + ".d"))
        deps = {p for p in deps if not p.startswith(work + os.sep)}
        deps.update(os.path.abspath(s) for s in sources)
        digests = {p: _sha256_file(p) for p in sorted(deps)}
        content = hashlib.sha256(json.dumps(digests, sort_keys=True).encode()).hexdigest()[:16]
        library = f"{name}-{content}.so"
        lib = cfg["library_dir"]
        _run(cxx + ["-shared", "-o", os.path.join(work, library)] + objects + cflags
             + [f"-L{lib}", f"-Wl,-rpath,{lib}", "-lascsim", "-pthread"], verbose,
             f"linking {name}")
        os.replace(os.path.join(work, library), os.path.join(build_dir, library))
        manifest = {"library": library, "deps": digests, "name": name,
                    "kernels": [k.name for k in generated.kernels],
                    "signatures": {k.name: k.signature for k in generated.kernels}}
        tmp = os.path.join(work, "manifest.json")
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(manifest, f, indent=1)
        os.replace(tmp, os.path.join(build_dir, "manifest.json"))
        return manifest
    finally:
        if not verbose:
            import shutil
            shutil.rmtree(work, ignore_errors=True)


@contextlib.contextmanager
def _file_lock(path: str):
    with open(path, "a+") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


_ANNOTATIONS = {"pointer": np.ndarray, "int": int, "uint": int, "bool": bool, "float": float,
                "half": float, "bfloat16": float, "struct": bytes}


class Kernel:
    """One kernel of a loaded module: ``kernel(*args, block_dim, stream=None)``.

    GM parameters (GM_ADDR, __gm__ T*) take C-contiguous NumPy arrays or CPU torch tensors (a
    bfloat16 tensor as its bits), which the kernel reads and writes in place (no copy), or None
    for a null pointer; integers and floats take Python
    numbers (range-checked against the C++ type); structs passed by value (tiling data) take a
    bytes-like object or a NumPy structured scalar/array of exactly sizeof(struct) bytes.
    ``stream=None`` runs now and raises KernelError on a fault; with an ascsim.Stream the call
    returns at once and the arrays stay alive until the launch has run.
    """

    def __init__(self, library: Any, index: int, info: Dict[str, Any], signature: str):
        self._library = library
        self._index = index
        self.__name__ = self.__qualname__ = info["name"]
        self.params = info["params"]
        self.compiled_arch = info["compiled_arch"]
        self.cpp_signature = signature
        params = [inspect.Parameter(p["name"] if p["name"].isidentifier() else f"arg{i}",
                                    inspect.Parameter.POSITIONAL_ONLY,
                                    annotation=_ANNOTATIONS.get(p["kind"], Any))
                  for i, p in enumerate(self.params)]
        params.append(inspect.Parameter("block_dim", inspect.Parameter.KEYWORD_ONLY,
                                        annotation=int))
        params.append(inspect.Parameter("stream", inspect.Parameter.KEYWORD_ONLY, default=None,
                                        annotation=Optional[_core.Stream]))
        self.__signature__ = inspect.Signature(params, return_annotation=None)
        lines = [signature or info["name"], ""]
        for p in self.params:
            lines.append(f"  {p['name']}: {p['type']} ({p['kind']}, {p['size']} bytes)")
        self.__doc__ = "\n".join(lines) + "\n\n" + (Kernel.__doc__ or "")

    def __call__(self, *args: Any, block_dim: int, stream: Optional[_core.Stream] = None) -> None:
        torch = sys.modules.get("torch")
        if torch is not None and any(isinstance(a, torch.Tensor) for a in args):
            # CPU tensors: GM parameters get NumPy views of their memory (no copy), scalar
            # parameters a 0-d tensor's value (ascsim/torch/_tensors.py).
            from .torch._tensors import kernel_arguments
            args = kernel_arguments(self, args)
        self._library.launch(self._index, args, block_dim, stream)

    def __repr__(self) -> str:
        return f"<ascsim kernel {self.cpp_signature or self.__name__}>"


def module_from_library(path: str, name: str, signatures: Optional[Dict[str, str]] = None,
                        namespace: Optional[Dict[str, Any]] = None) -> types.ModuleType:
    """Opens a kernel module's library and returns a module whose attributes are its kernels
    (or fills `namespace`, for the modules ascsim_add_kernel_module() makes)."""
    library = _core.KernelLibrary(path)
    module = types.ModuleType(name, f"ascsim kernel module {name} ({path})")
    target = module.__dict__ if namespace is None else namespace
    target["__file__"] = path
    names = []
    for index, info in enumerate(library.kernels()):
        sig = (signatures or {}).get(info["name"], "")
        target[info["name"]] = Kernel(library, index, info, sig)
        names.append(info["name"])
    target["__all__"] = names
    target["__ascsim_library__"] = library
    return module


def load(sources: Union[PathLike, Iterable[PathLike]], *, name: Optional[str] = None,
         extra_cflags: Sequence[str] = (), build_dir: Optional[PathLike] = None,
         verbose: bool = False) -> types.ModuleType:
    """Compiles Ascend C kernel source(s) and returns a module of their kernels.

    Every ``extern "C" __global__ __aicore__`` function defined in ``sources`` becomes a callable
    ``module.<kernel>(*args, block_dim, stream=None)`` (see :class:`Kernel` for how arguments are
    converted). The build uses the system g++ (``$ASCSIM_CXX`` overrides) against ascsim's
    headers and libascsim.so, so profile(), set_soc(), streams, warnings and errors apply to the
    kernels as to the shipped ones.

    sources: a path or a list of paths (.cpp files in the official Ascend C style).
    name: the module's name (default: the first source's file name without extension).
    extra_cflags: more compiler flags, e.g. ``["-DASCSIM_SOC=Ascend310P3", "-I/my/include"]``.
    build_dir: where to build and cache (default: ``$ASCSIM_CACHE_DIR`` or ~/.cache/ascsim).
    verbose: print the compiler commands and output.

    The build is cached: a second call with the same sources (and included headers), flags and
    ascsim version loads the library built before without compiling; processes building the
    same module at once wait for each other. Raises ascsim.BuildError with the compiler's first
    error lines when compiling fails.
    """
    if isinstance(sources, (str, bytes, os.PathLike)):
        sources = [sources]
    paths = [os.path.abspath(os.fspath(s)) for s in sources]
    if not paths:
        raise _core.InvalidArgumentError("ascsim.load: no sources given")
    for p in paths:
        if not os.path.isfile(p):
            raise _core.InvalidArgumentError(f"ascsim.load: no such file: {p}")
    if name is None:
        name = os.path.splitext(os.path.basename(paths[0]))[0]
    if not name.isidentifier():
        raise _core.InvalidArgumentError(
            f"ascsim.load: name {name!r} is not a Python identifier; pass name=...")
    cflags = [str(f) for f in extra_cflags]
    cfg = _build_config()

    key = hashlib.sha256()
    for item in [_core.__version__, str(_core.KERNEL_MODULE_ABI), str(_codegen.GENERATOR_VERSION),
                 _compiler_id(_compiler()), sys.platform, json.dumps(cfg), json.dumps(cflags),
                 name]:
        key.update(item.encode() + b"\0")
    for p in paths:
        key.update(p.encode() + b"\0" + _sha256_file(p).encode() + b"\0")
        if _codegen._transforms:  # what is compiled is the transformed text
            with open(p, encoding="utf-8", errors="replace") as f:
                key.update(hashlib.sha256(
                    _codegen.transform_source(f.read(), p).encode()).hexdigest().encode())
    root = os.fspath(build_dir) if build_dir is not None else default_build_root()
    folder = os.path.join(root, f"{name}-{key.hexdigest()[:16]}")
    os.makedirs(folder, exist_ok=True)

    manifest = _read_manifest(folder)
    if manifest is None or not _deps_unchanged(manifest, folder):
        with _file_lock(os.path.join(folder, "lock")):
            manifest = _read_manifest(folder)  # another process may have built it meanwhile
            if manifest is None or not _deps_unchanged(manifest, folder):
                manifest = _build(paths, name, cflags, folder, verbose)
            elif verbose:
                print(f"ascsim.load: {name}: built by another process", file=sys.stderr)
    elif verbose:
        print(f"ascsim.load: {name}: cached in {folder}", file=sys.stderr)

    library = os.path.join(folder, manifest["library"])
    with _loaded_lock:
        module = _loaded.get(library)
        if module is None:
            module = module_from_library(library, name, manifest.get("signatures"))
            _loaded[library] = module
    return module
