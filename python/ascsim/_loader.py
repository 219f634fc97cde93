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
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

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


def _tool(cfg: Dict[str, Any]) -> str:
    """The kernel scanner and <<<>>> rewrite (the toolkit's ascsim-launch-transform)."""
    return os.environ.get("ASCSIM_LAUNCH_TRANSFORM") or cfg["launch_transform"]


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
    """The prerequisites of a `-MT x -MD` dependency file, with g++'s escapes undone: `\\ ` for a
    space (2n+1 backslashes for n and a space), `\\#` for '#', `$$` for '$'; ':' is not escaped,
    so the target is a fixed name. Paths are bytes as the file system has them."""
    with open(path, "rb") as f:
        text = os.fsdecode(f.read())
    if not text.startswith("x:"):
        raise _core.BuildError(f"ascsim.load: unexpected dependency file {path}: {text[:80]!r}")
    deps, out, token, i, n = text[2:], [], "", 0, len(text) - 2
    while i < n:
        c = deps[i]
        if c == "\\":
            j = i
            while j < n and deps[j] == "\\":
                j += 1
            run = j - i
            nxt = deps[j] if j < n else ""
            if nxt == "\n":  # a line continuation
                token += "\\" * (run - 1)
                i = j + 1
                if token:
                    out.append(token)
                token = ""
                continue
            if nxt in (" ", "\t"):
                token += "\\" * (run // 2)
                if run % 2:  # an escaped space: part of the path
                    token += nxt
                    i = j + 1
                    continue
                i = j
                continue
            if nxt == "#":
                token += "\\" * (run - 1) + "#"
                i = j + 1
                continue
            token += "\\" * run
            i = j
            continue
        if c == "$" and i + 1 < n and deps[i + 1] == "$":
            token += "$"
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


def _search_dirs(cmd: List[str]) -> Tuple[List[str], List[str]]:
    """The compiler's include search for these flags: the `#include "..."` folders it adds
    (-iquote) and the `#include <...>` ones (-I, then the system's), as `g++ -v` lists them."""
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    proc = subprocess.run(cmd + ["-E", "-v", "-x", "c++", os.devnull], capture_output=True,
                          env=env, check=False)
    quote: List[str] = []
    angle: List[str] = []
    current = None
    for line in os.fsdecode(proc.stderr).splitlines():
        if line.startswith('#include "..." search starts here'):
            current = quote
        elif line.startswith("#include <...> search starts here"):
            current = angle
        elif line.startswith("End of search list"):
            break
        elif current is not None and line.startswith(" "):
            current.append(os.path.normpath(line.strip().split(" (")[0]))
    return quote, angle


def _under(path: str, folders: Iterable[str]) -> bool:
    return any(path.startswith(d + os.sep) for d in folders)


def _shadow_candidates(deps: Sequence[str], sources: Sequence[str], quote: List[str],
                       angle: List[str], not_own: Sequence[str]) -> Dict[str, List[str]]:
    """Files that do not exist now and would be included instead of a dependency if they
    appeared: for a header found in search folder D as `name`, `name` in every folder searched
    before D, and beside the user's own files (the folder of the file that includes it is
    searched first for `#include "name"`; `not_own` are ascsim's and the system's folders). By
    folder: {folder: [name, ...]}."""
    chain = list(dict.fromkeys(quote + angle))
    own_dirs = list(dict.fromkeys(os.path.dirname(f) for f in list(sources) + list(deps)
                                  if not _under(f, not_own)))
    absent: Dict[str, set] = {}
    for dep in deps:
        for at, d in enumerate(chain):
            if not dep.startswith(d + os.sep):
                continue
            name = dep[len(d) + 1:]
            for before in chain[:at] + own_dirs:
                if before != d and not os.path.exists(os.path.join(before, name)):
                    absent.setdefault(before, set()).add(name)
    return {d: sorted(names) for d, names in sorted(absent.items())}


def _shadowed(absent: Dict[str, List[str]]) -> bool:
    """True when a file recorded as absent now exists (one listing per folder)."""
    for d, names in absent.items():
        try:
            entries = set(os.listdir(d))
        except OSError:
            continue
        for name in names:
            if name.split(os.sep, 1)[0] in entries and os.path.exists(os.path.join(d, name)):
                return True
    return False


def _deps_unchanged(manifest: Dict[str, Any], build_dir: str) -> bool:
    if not os.path.exists(os.path.join(build_dir, manifest.get("library", ""))):
        return False
    if "absent" not in manifest or _shadowed(manifest["absent"]):
        return False  # a header the compiler would now include instead of one it read
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
        try:
            generated = _codegen.generate(sources, os.path.join(work, "gen"), _tool(cfg))
        except _codegen.ScanError as e:
            error = _core.BuildError(f"ascsim.load: scanning the kernels failed:\n{e}")
            error.command = _tool(cfg)
            error.output = str(e)
            raise error from None
        except ValueError as e:
            raise _core.BuildError(f"ascsim.load: {e}") from None
        if not generated.kernels:
            raise _core.BuildError(
                "ascsim.load: no __global__ __aicore__ kernel (other than templates) is defined "
                "in " + ", ".join(sources))
        # The sources' own folders first, for their "local.h" includes (also when a source
        # transform compiles a rewritten copy from the build folder).
        source_dirs = list(dict.fromkeys(os.path.dirname(p) for p in sources))
        includes = [f"-iquote{d}" for d in source_dirs] + [f"-I{d}" for d in cfg["include_dirs"]]
        base = cxx + ["-std=c++17", "-O2", "-fPIC", "-pthread"] + includes + cflags
        units = list(zip(generated.wrappers, sources)) + [(generated.table, "the module table")]

        def compile_one(unit):
            src, shown = unit
            obj = src[:-4] + ".o"
            _run(base + ["-MD", "-MF", obj + ".d", "-MT", "x", "-c", src, "-o", obj], verbose,
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
        # What would shadow a header the compiler read, were it created (checked at every load).
        quote, angle = _search_dirs(base)
        explicit = {os.path.normpath(f[2:]) for f in base if f.startswith("-I") and len(f) > 2}
        not_own = [d for d in angle if d not in explicit] + [
            os.path.normpath(d) for d in cfg["include_dirs"]]
        absent = _shadow_candidates(sorted(deps), sources, quote, angle, not_own)
        content = hashlib.sha256(json.dumps(digests, sort_keys=True).encode()).hexdigest()[:16]
        library = f"{name}-{content}.so"
        lib = cfg["library_dir"]
        _run(cxx + ["-shared", "-o", os.path.join(work, library)] + objects + cflags
             + [f"-L{lib}", f"-Wl,-rpath,{lib}", "-lascsim", "-pthread"], verbose,
             f"linking {name}")
        os.replace(os.path.join(work, library), os.path.join(build_dir, library))
        manifest = {"library": library, "deps": digests, "absent": absent, "name": name,
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


_POINTEE_DTYPES = {("float", 4): "float32", ("float", 8): "float64", ("half", 2): "float16",
                   ("bfloat16", 2): "bfloat16 (any 2-byte dtype)", ("bool", 1): "bool"}


def _describe_param(p: Dict[str, Any]) -> str:
    """How a parameter takes its Python argument, for the kernel's docstring."""
    if p["kind"] != "pointer":
        return f"{p['kind']}, {p['size']} bytes"
    access = "read only: a NumPy array, read-only ones too" if p.get("const") else \
        "a writable NumPy array, used in place"
    kind, size = p["pointee_kind"], p["pointee_size"]
    if size <= 1 or kind == "struct":
        # GM_ADDR is CANN's `__gm__ uint8_t*`: the kernel casts it to what the bytes are, so the
        # simulator cannot check them, as the device does not.
        return f"GM bytes: any dtype, not checked; {access}"
    dtype = _POINTEE_DTYPES.get((kind, size), f"{kind}{size * 8}" if kind in ("int", "uint")
                                else f"{kind} of {size} bytes")
    return f"GM {dtype}, {access}"


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
        # Positional-only names as the kernel spells them, unless not identifiers, repeated or
        # taken by the keyword-only block_dim / stream (then arg<i>, as the toolkit's launchers do).
        taken = {"block_dim", "stream"}
        params = []
        for i, p in enumerate(self.params):
            shown = p["name"] if p["name"].isidentifier() and p["name"] not in taken else f"arg{i}"
            taken.add(shown)
            params.append(inspect.Parameter(shown, inspect.Parameter.POSITIONAL_ONLY,
                                            annotation=_ANNOTATIONS.get(p["kind"], Any)))
        params.append(inspect.Parameter("block_dim", inspect.Parameter.KEYWORD_ONLY,
                                        annotation=int))
        params.append(inspect.Parameter("stream", inspect.Parameter.KEYWORD_ONLY, default=None,
                                        annotation=Optional[_core.Stream]))
        self.__signature__ = inspect.Signature(params, return_annotation=None)
        lines = [signature or info["name"], ""]
        for p in self.params:
            lines.append(f"  {p['name']}: {p['type']} ({_describe_param(p)})")
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


def _shown(obj: Any) -> str:
    text = repr(obj)
    return f"{type(obj).__name__} {text if len(text) <= 60 else text[:57] + '...'}"


def _path_argument(obj: Any, what: str) -> str:
    """A str, bytes or os.PathLike path as an absolute str (bytes through os.fsdecode)."""
    if isinstance(obj, (str, bytes, os.PathLike)):
        try:
            return os.path.abspath(os.fsdecode(obj))
        except TypeError:
            pass
    raise _core.InvalidArgumentError(
        f"ascsim.load: {what}: expected a path (str, bytes or os.PathLike), got {_shown(obj)}")


def _sources_argument(sources: Any) -> List[Any]:
    if isinstance(sources, (str, bytes, os.PathLike)):
        return [sources]
    if isinstance(sources, Iterable):
        return list(sources)
    raise _core.InvalidArgumentError(
        f"ascsim.load: sources: expected a path or a list of paths, got {_shown(sources)}")


def _cflags_argument(flags: Any) -> List[str]:
    # A str is iterable too: "-O0" would become "-", "O", "0".
    if isinstance(flags, (str, bytes)) or not isinstance(flags, Iterable):
        raise _core.InvalidArgumentError(
            f"ascsim.load: extra_cflags: expected a list of str flags (e.g. ['-O0']), got "
            f"{_shown(flags)}")
    out = list(flags)
    for f in out:
        if not isinstance(f, str):
            raise _core.InvalidArgumentError(
                f"ascsim.load: extra_cflags: expected a list of str flags, got {_shown(f)} in "
                f"it")
    return out


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
    paths = [_path_argument(s, "sources") for s in _sources_argument(sources)]
    if not paths:
        raise _core.InvalidArgumentError("ascsim.load: no sources given")
    for p in paths:
        if not os.path.isfile(p):
            raise _core.InvalidArgumentError(f"ascsim.load: no such file: {p}")
    if name is None:
        name = os.path.splitext(os.path.basename(paths[0]))[0]
    elif not isinstance(name, str):
        raise _core.InvalidArgumentError(
            f"ascsim.load: name: expected a str, got {_shown(name)}")
    if not name.isidentifier():
        raise _core.InvalidArgumentError(
            f"ascsim.load: name {name!r} is not a Python identifier; pass name=...")
    cflags = _cflags_argument(extra_cflags)
    if build_dir is not None:
        build_dir = _path_argument(build_dir, "build_dir")
    if not isinstance(verbose, (bool, np.bool_)):
        raise _core.InvalidArgumentError(
            f"ascsim.load: verbose: expected True or False, got {_shown(verbose)}")
    cfg = _build_config()

    key = hashlib.sha256()
    for item in [_core.__version__, str(_core.KERNEL_MODULE_ABI), str(_codegen.GENERATOR_VERSION),
                 _compiler_id(_compiler()), sys.platform, json.dumps(cfg), json.dumps(cflags),
                 name]:
        key.update(item.encode() + b"\0")
    for p in paths:
        key.update(os.fsencode(p) + b"\0" + _sha256_file(p).encode() + b"\0")
        if _codegen._transforms:  # what is compiled is the transformed text
            with open(p, "rb") as f:
                key.update(hashlib.sha256(_codegen.transform_bytes(f.read(), p)).digest())
    root = build_dir if build_dir is not None else default_build_root()
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
