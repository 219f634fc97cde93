"""Generates the registration code of a kernel module (ascsim/kernel_module.h).

Standard library only: ascsim.load() imports it, and the CMake function
ascsim_add_kernel_module() runs it as a script (installed beside the CMake package as
lib/cmake/ascsim/ascsim_codegen.py):

    python3 ascsim_codegen.py --launch-transform TOOL --out-dir DIR SOURCE...

For every source it writes DIR/<i>_<stem>.ascsim.cpp, a wrapper that #includes the source and
describes each `__global__` kernel defined there (names from the source, types from the compiler:
decltype of the function pointer, so they are exact), and DIR/table.cpp with the exported table.
Compile the wrappers and the table instead of the sources.

The kernels are found by the toolkit's scanner, the one `ascendc_library` uses:
ascsim-launch-transform (toolkit/launch_transform, C++), which also rewrites
`kernel<<<blockDim, l2ctrl, stream>>>(args)` launches; a source with launches is compiled from
its rewritten copy (with #line, so messages name the original). Sources are handled as bytes, so
a file in GBK or any other encoding reaches the compiler as it is.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Sequence

# Bump when the generated code changes (part of ascsim.load()'s cache key).
GENERATOR_VERSION = 2


class ScanError(Exception):
    """The scanner refused a source (its messages, "file:line:col: error: ...", are the text)."""


@dataclass
class Param:
    name: str
    type: str


@dataclass
class Kernel:
    name: str
    params: List[Param] = field(default_factory=list)
    signature: str = ""
    line: int = 0
    qualified_name: str = ""


def default_tool() -> str:
    """$ASCSIM_LAUNCH_TRANSFORM, else the package's (ascsim._build_config), else
    ascsim-launch-transform beside this file's install."""
    tool = os.environ.get("ASCSIM_LAUNCH_TRANSFORM", "")
    if tool:
        return tool
    here = os.path.dirname(os.path.abspath(__file__))
    if __package__:  # imported as ascsim._codegen (not run as the CMake function's script)
        try:
            from . import _build_config as cfg  # type: ignore[attr-defined]
            configured = getattr(cfg, "LAUNCH_TRANSFORM", "")
            if configured:
                return configured if os.path.isabs(configured) else os.path.join(here, configured)
        except ImportError:
            pass
    # Installed: <P>/lib/cmake/ascsim/ascsim_codegen.py and <P>/bin/ascsim-launch-transform.
    candidate = os.path.normpath(os.path.join(here, "..", "..", "..", "bin",
                                              "ascsim-launch-transform"))
    return candidate if os.path.isfile(candidate) else ""


def _parse_kernel_list(text: str) -> List[Kernel]:
    """The scanner's list (ascsim-launch-transform --list-kernels): one kernel per line,
    name TAB qualified TAB template|function TAB kind:type:name;... TAB line."""
    kernels = []
    for row in text.splitlines():
        if not row:
            continue
        fields = row.split("\t")
        name, qualified, what, params_text = fields[0], fields[1], fields[2], fields[3]
        line = int(fields[4]) if len(fields) > 4 and fields[4] else 0
        if what == "template":
            continue  # a template kernel needs its arguments: it cannot be called from Python
        params = []
        for i, part in enumerate(p for p in params_text.split(";") if p):
            first, last = part.index(":"), part.rindex(":")
            type_, pname = part[first + 1:last], part[last + 1:]
            params.append(Param(pname or f"arg{i}", type_))
        signature = f"{qualified}({', '.join(f'{p.type} {p.name}' for p in params)})"
        kernels.append(Kernel(name, params, signature, line, qualified))
    return kernels


def _run_tool(tool: str, args: List[str], display: str) -> subprocess.CompletedProcess:
    if not tool or not os.path.isfile(tool):
        raise ScanError(
            f"{display}: the kernel scanner ascsim-launch-transform was not found (looked for "
            f"{tool or 'none configured'}); set ASCSIM_LAUNCH_TRANSFORM to its path")
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    proc = subprocess.run([tool] + args, capture_output=True, env=env)
    if proc.returncode != 0:
        raise ScanError(os.fsdecode(proc.stderr).strip() or
                        f"{display}: ascsim-launch-transform failed ({proc.returncode})")
    return proc


def scan_kernels(path: str, tool: Optional[str] = None) -> List[Kernel]:
    """The non-template `__global__` kernels `path` defines, in order; a kernel defined once per
    #if / #else branch is listed once per branch."""
    path = os.path.abspath(path)
    proc = _run_tool(tool or default_tool(), ["--display-name", path, "--list-kernels", path],
                     path)
    return _parse_kernel_list(os.fsdecode(proc.stdout))


# Text transforms applied to every source before it is scanned and compiled (ascsim.load() and
# the CMake function both go through them). Each takes the source text and its path and returns
# the text to compile; the text is decoded with surrogateescape, so bytes that are not UTF-8 come
# back unchanged.
SourceTransform = Callable[[str, str], str]
_transforms: List[SourceTransform] = []


def register_source_transform(transform: SourceTransform) -> None:
    """Adds a transform applied to every kernel-module source before scanning and compiling."""
    _transforms.append(transform)


def transform_source(text: str, path: str) -> str:
    for transform in _transforms:
        text = transform(text, path)
    return text


def transform_bytes(data: bytes, path: str) -> bytes:
    """transform_source on raw bytes (the registered transforms; the identity without any)."""
    if not _transforms:
        return data
    return transform_source(data.decode("utf-8", "surrogateescape"), path).encode(
        "utf-8", "surrogateescape")


def _c_string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _variants(kernels: Sequence[Kernel]) -> List[List[Kernel]]:
    """Kernels grouped by qualified name, in order of first definition: one group per kernel, with
    one entry per #if / #else branch that defines it."""
    groups: Dict[str, List[Kernel]] = {}
    for k in kernels:
        groups.setdefault(k.qualified_name or k.name, []).append(k)
    return list(groups.values())


def wrapper_source(include_path: str, groups: Sequence[Sequence[Kernel]], index: int,
                   original: str) -> str:
    lines = [
        f"// Generated by ascsim (_codegen.py) from {original}: do not edit.",
        f"#include {_c_string(include_path)}",
        '#include "ascsim/kernel_module.h"',
        "",
        "namespace {",
        "namespace am = ::ascsim::module;",
    ]
    for k_i, variants in enumerate(groups):
        k = variants[0]
        fn = f"K{k_i}"
        counts = sorted({len(v.params) for v in variants})
        lines.append(f"using {fn} = decltype(&::{k.qualified_name or k.name});")
        where = f"{original}:{k.line}"
        lines.append(
            f"static_assert({' || '.join(f'am::Arity<{fn}>::value == {c}' for c in counts)}, "
            f"{_c_string(f'ascsim: read {len(k.params)} parameters of {k.name} from {where}, the compiler sees another count (a macro in the parameter list?)')});")
        # One description per parameter count (a kernel defined per #if branch may differ): the
        # compiler's arity picks the one that describes the branch it compiled.
        chosen = []
        for c in counts:
            v = next(v for v in variants if len(v.params) == c)
            if not v.params:
                chosen.append((c, "nullptr"))
                continue
            array = f"kParams{k_i}_{c}"
            lines.append(f"constexpr am::ParamInfo {array}[] = {{")
            for p_i, p in enumerate(v.params):
                lines.append(f"    am::DescribeParam<{fn}, {p_i}>("
                             f"{_c_string(p.name)}, {_c_string(p.type)}),")
            lines.append("};")
            chosen.append((c, array))
        expr = chosen[-1][1]
        for c, array in reversed(chosen[:-1]):
            expr = f"am::Arity<{fn}>::value == {c} ? {array} : {expr}"
        lines.append(f"constexpr const am::ParamInfo* kParams{k_i} = {expr};")
    lines.append("}  // namespace")
    lines.append("")
    lines.append(f'extern "C" const am::KernelInfo ascsim_module_kernels_{index}[] = {{')
    for k_i, variants in enumerate(groups):
        k = variants[0]
        lines.append(f"    {{{_c_string(k.name)}, am::Arity<K{k_i}>::value, kParams{k_i}, "
                     f"&am::KernelThunk<&::{k.qualified_name or k.name}>, "
                     f"::ascsim::kCompiledArch}},")
    lines.append("};")
    return "\n".join(lines) + "\n"


def table_source(counts: Sequence[int]) -> str:
    """The exported ascsim_kernel_module_table(): every wrapper's kernels in one array."""
    total = sum(counts)
    lines = ["// Generated by ascsim (_codegen.py): do not edit.",
             '#include "ascsim/kernel_module.h"', ""]
    for i, n in enumerate(counts):
        if n:
            lines.append(f'extern "C" const ascsim::module::KernelInfo ascsim_module_kernels_{i}[{n}];')
    lines += [
        "",
        'extern "C" __attribute__((visibility("default"))) const ascsim::module::ModuleTable*',
        "ascsim_kernel_module_table() {",
    ]
    if total:
        lines.append(f"  static ascsim::module::KernelInfo all[{total}];")
        lines.append("  static const bool filled = [] {")
        lines.append("    size_t n = 0;")
        for i, c in enumerate(counts):
            if c:
                lines.append(f"    for (size_t i = 0; i < {c}; ++i) all[n++] = ascsim_module_kernels_{i}[i];")
        lines.append("    return n > 0;")
        lines.append("  }();")
        lines.append("  (void)filled;")
        kernels = "all"
    else:
        kernels = "nullptr"
    lines += [
        "  static const ascsim::module::ModuleTable table = {",
        "      ascsim::module::kAbiVersion, sizeof(ascsim::module::KernelInfo),",
        f"      ASCSIM_VERSION_STRING, {total}, {kernels}}};",
        "  return &table;",
        "}",
    ]
    return "\n".join(lines) + "\n"


@dataclass
class Generated:
    wrappers: List[str]          # paths of the wrapper sources to compile
    table: str                   # path of the table source
    kernels: List[Kernel]        # every kernel, in table order (the first branch's names)


def generate(sources: Sequence[str], out_dir: str, tool: Optional[str] = None) -> Generated:
    """Writes the wrappers and the table for `sources` into `out_dir`, scanning (and rewriting
    the <<<>>> launches of) each source with the toolkit's scanner `tool`."""
    tool = tool or default_tool()
    os.makedirs(out_dir, exist_ok=True)
    wrappers, counts, all_kernels, seen = [], [], [], {}
    for i, src in enumerate(sources):
        src = os.path.abspath(src)
        with open(src, "rb") as f:
            original = f.read()
        data = transform_bytes(original, src)
        scan_input = src
        if data != original:  # scan and compile the transformed text
            scan_input = os.path.join(out_dir, f"{i}_transformed_{os.path.basename(src)}")
            _write_if_changed(scan_input, data)
        rewritten = os.path.join(out_dir, f"{i}_{os.path.basename(src)}")
        listing = os.path.join(out_dir, f"{i}_kernels.tsv")
        _run_tool(tool, ["--display-name", src, "--kernels", listing, "-o", rewritten,
                         scan_input], src)
        with open(listing, encoding="utf-8", errors="surrogateescape") as f:
            kernels = _parse_kernel_list(f.read())
        # A source without launches compiles as it is (from its own folder); one with launches
        # (or transformed) from its rewritten copy, whose #line names the original.
        include_path = rewritten if (b"<<<" in data or data != original) else src
        groups = _variants(kernels)
        for group in groups:
            k = group[0]
            if k.name in seen:
                raise ValueError(f"kernel {k.name} is defined in both {seen[k.name]} and {src}")
            seen[k.name] = src
        stem = re.sub(r"\W", "_", os.path.splitext(os.path.basename(src))[0])
        path = os.path.join(out_dir, f"{i}_{stem}.ascsim.cpp")
        _write_if_changed(path, wrapper_source(include_path, groups, i, src).encode(
            "utf-8", "surrogateescape"))
        wrappers.append(path)
        counts.append(len(groups))
        all_kernels += [g[0] for g in groups]
    table = os.path.join(out_dir, "table.cpp")
    _write_if_changed(table, table_source(counts).encode("utf-8"))
    return Generated(wrappers, table, all_kernels)


def _write_if_changed(path: str, data: bytes) -> None:
    try:
        with open(path, "rb") as f:
            if f.read() == data:
                return
    except OSError:
        pass
    with open(path, "wb") as f:
        f.write(data)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out-dir", required=True)
    parser.add_argument("--launch-transform", default="",
                        help="the toolkit's ascsim-launch-transform (the kernel scanner)")
    parser.add_argument("sources", nargs="+")
    args = parser.parse_args(argv)
    try:
        result = generate(args.sources, args.out_dir, args.launch_transform or None)
    except (ScanError, ValueError) as e:
        print(f"ascsim_codegen: {e}", file=sys.stderr)
        return 1
    if not result.kernels:
        print("ascsim_codegen: no __global__ kernel is defined in " + ", ".join(args.sources),
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
