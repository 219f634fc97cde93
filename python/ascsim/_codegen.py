"""Generates the registration code of a kernel module (ascsim/kernel_module.h).

Standard library only: ascsim.load() imports it, and the CMake function
ascsim_add_kernel_module() runs it as a script (installed beside the CMake package as
lib/cmake/ascsim/ascsim_codegen.py):

    python3 ascsim_codegen.py --out-dir DIR SOURCE...

For every source it writes DIR/<i>_<stem>.ascsim.cpp, a wrapper that #includes the source and
describes each `extern "C" __global__ __aicore__` function defined there (names from the source,
types from the compiler: decltype of the function pointer, so they are exact), and DIR/table.cpp
with the exported table. Compile the wrappers and the table instead of the sources.

A source transform (e.g. rewriting `kernel<<<blockDim, nullptr, stream>>>(args)` launches) has one
place to go: `transform_source`, applied to every source before it is scanned and compiled.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
from dataclasses import dataclass, field
from typing import Callable, List, Optional, Sequence

# Bump when the generated code changes (part of ascsim.load()'s cache key).
GENERATOR_VERSION = 1

_BUILTIN_TYPE_WORDS = {
    "int", "char", "short", "long", "float", "double", "bool", "unsigned", "signed", "void",
    "const", "volatile", "__gm__", "struct", "class", "enum",
}


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


def strip_comments(text: str) -> str:
    """Blanks out // and /* */ comments (keeping newlines and string literals)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _split_top_level(text: str) -> List[str]:
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "<([{":
            depth += 1
        elif c in ">)]}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts]


def parse_params(text: str) -> List[Param]:
    """`GM_ADDR x, const uint32_t n, MyTiling tiling` -> [Param(x, GM_ADDR), ...]."""
    text = " ".join(text.split())
    if text in ("", "void"):
        return []
    params = []
    for i, part in enumerate(_split_top_level(text)):
        part = part.split("=")[0].strip()  # a default value has no place in a kernel, but
        m = re.match(r"^(.*?[\w\*&\s>])\s*\b([A-Za-z_]\w*)\s*$", part)
        if m and m.group(2) not in _BUILTIN_TYPE_WORDS and re.search(r"\w|\*", m.group(1)) \
                and m.group(1).strip() not in ("", "const", "volatile"):
            params.append(Param(m.group(2), " ".join(m.group(1).split())))
        else:  # unnamed parameter
            params.append(Param(f"arg{i}", part))
    return params


_KERNEL_RE = re.compile(
    r'extern\s*"C"\s*((?:(?:__\w+__|inline|static)\s+)*)void\s+([A-Za-z_]\w*)\s*\(')


def find_kernels(text: str) -> List[Kernel]:
    """The `extern "C" __global__ ... void name(params) {` kernels defined in a source."""
    code = strip_comments(text)
    kernels = []
    for m in _KERNEL_RE.finditer(code):
        if "__global__" not in m.group(1).split():
            continue
        depth, j = 1, m.end()
        while j < len(code) and depth:
            depth += {"(": 1, ")": -1}.get(code[j], 0)
            j += 1
        rest = code[j:].lstrip()
        if not rest.startswith("{"):
            continue  # a declaration: the defining source registers it
        params = parse_params(code[m.end():j - 1])
        signature = " ".join(code[m.start():j].split())
        kernels.append(Kernel(m.group(2), params, signature, code.count("\n", 0, m.start()) + 1))
    return kernels


# The one place where a source transform applies (ascsim.load() and the CMake function both go
# through it). It takes the source text and its path and returns the text to compile.
SourceTransform = Callable[[str, str], str]
_transforms: List[SourceTransform] = []


def register_source_transform(transform: SourceTransform) -> None:
    """Adds a transform applied to every kernel-module source before scanning and compiling."""
    _transforms.append(transform)


def transform_source(text: str, path: str) -> str:
    for transform in _transforms:
        text = transform(text, path)
    return text


def _c_string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def wrapper_source(include_path: str, kernels: Sequence[Kernel], index: int,
                   original: str) -> str:
    lines = [
        f"// Generated by ascsim (_codegen.py) from {original}: do not edit.",
        f"#include {_c_string(include_path)}",
        '#include "ascsim/kernel_module.h"',
        "",
        "namespace {",
        "namespace am = ::ascsim::module;",
    ]
    for k_i, k in enumerate(kernels):
        fn = f"K{k_i}"
        lines.append(f"using {fn} = decltype(&::{k.name});")
        lines.append(
            f"static_assert(am::Arity<{fn}>::value == {len(k.params)}, "
            f"{_c_string(f'ascsim: read {len(k.params)} parameters of {k.name} from {original}:{k.line}, the compiler sees another count (a macro in the parameter list?)')});")
        if k.params:
            lines.append(f"constexpr am::ParamInfo kParams{k_i}[] = {{")
            for p_i, p in enumerate(k.params):
                lines.append(f"    am::Describe<am::ParamAt<{fn}, {p_i}>::type>("
                             f"{_c_string(p.name)}, {_c_string(p.type)}),")
            lines.append("};")
    lines.append("}  // namespace")
    lines.append("")
    lines.append(f'extern "C" const am::KernelInfo ascsim_module_kernels_{index}[] = {{')
    for k_i, k in enumerate(kernels):
        params = f"kParams{k_i}" if k.params else "nullptr"
        lines.append(f"    {{{_c_string(k.name)}, {len(k.params)}, {params}, "
                     f"&am::KernelThunk<&::{k.name}>, ::ascsim::kCompiledArch}},")
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
    kernels: List[Kernel]        # every kernel, in table order


def generate(sources: Sequence[str], out_dir: str) -> Generated:
    """Writes the wrappers and the table for `sources` into `out_dir`."""
    os.makedirs(out_dir, exist_ok=True)
    wrappers, counts, all_kernels, seen = [], [], [], {}
    for i, src in enumerate(sources):
        src = os.path.abspath(src)
        with open(src, encoding="utf-8", errors="replace") as f:
            original = f.read()
        text = transform_source(original, src)
        include_path = src
        if text != original:  # compile the transformed text, from beside the original
            include_path = os.path.join(out_dir, f"{i}_{os.path.basename(src)}")
            _write_if_changed(include_path, f'#line 1 {_c_string(src)}\n' + text)
        kernels = find_kernels(text)
        for k in kernels:
            if k.name in seen:
                raise ValueError(f"kernel {k.name} is defined in both {seen[k.name]} and {src}")
            seen[k.name] = src
        stem = re.sub(r"\W", "_", os.path.splitext(os.path.basename(src))[0])
        path = os.path.join(out_dir, f"{i}_{stem}.ascsim.cpp")
        _write_if_changed(path, wrapper_source(include_path, kernels, i, src))
        wrappers.append(path)
        counts.append(len(kernels))
        all_kernels += kernels
    table = os.path.join(out_dir, "table.cpp")
    _write_if_changed(table, table_source(counts))
    return Generated(wrappers, table, all_kernels)


def _write_if_changed(path: str, text: str) -> None:
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except OSError:
        pass
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out-dir", required=True)
    parser.add_argument("sources", nargs="+")
    args = parser.parse_args(argv)
    result = generate(args.sources, args.out_dir)
    if not result.kernels:
        print("ascsim_codegen: no extern \"C\" __global__ __aicore__ kernel defined in "
              + ", ".join(args.sources), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
