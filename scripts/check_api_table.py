#!/usr/bin/env python3
"""Keeps README.md's Ascend C API table true to the headers.

1. Every backticked name in the supported column of the checked table (between the
   `api-table:begin` and `api-table:end` markers) compiles against kernel_operator.h and the host
   tiling headers: `AscendC::Name`, or a global name written `::name`.
2. The names of the "Rejected at compile time" row fail to compile when used, with a message
   that starts with "ascsim:".
3. When ../shared/api_usage.tsv is present: every name of it that the headers declare is
   mentioned in README's API section (the checked table or the rows above it).

One compiler run per check. Exit 0 when all hold, 1 otherwise (the message names what to fix).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HEADERS = ['"kernel_operator.h"', '"kernel_tiling/kernel_tiling.h"', '"tiling/adv_math_tiling.h"',
           '"tiling/softmax_tiling.h"', '"tiling/rmsnorm_tiling.h"', '"tiling/dequant_tiling.h"',
           '"tiling/tiling_api.h"']

# A use of each rejected name, which must fail to compile with an "ascsim:" message.
REJECTED_USES = {
    "GetUintDivMagicAndShift": "uint32_t m, s; AscendC::GetUintDivMagicAndShift<uint32_t>(m, s, 7u);",
    "RpSort16": "AscendC::LocalTensor<float> a; AscendC::RpSort16(a, a, 1);",
    "MrgSort4": "AscendC::LocalTensor<float> a; AscendC::MrgSortSrcList<float> l; "
                "AscendC::MrgSort4(a, l, AscendC::MrgSort4Info());",
    "ProposalConcat": "AscendC::LocalTensor<float> a; AscendC::ProposalConcat(a, a, 1, 4);",
    "ProposalExtract": "AscendC::LocalTensor<float> a; AscendC::ProposalExtract(a, a, 1, 4);",
    "IBSet": "AscendC::GlobalTensor<int32_t> g; AscendC::LocalTensor<int32_t> u; "
             "AscendC::IBSet(g, u, 0, 0);",
    "IBWait": "AscendC::GlobalTensor<int32_t> g; AscendC::LocalTensor<int32_t> u; "
              "AscendC::IBWait(g, u, 0, 0);",
}
GLOBAL_TSV = {"GetTPipePtr", "asc_vf_call"}


def compile_lines(lines, cxx, includes):
    """Compiles `lines` after the headers; returns the set of 1-based line indexes of `lines`
    that drew an error, and the compiler's stderr."""
    head = [f"#include {h}" for h in HEADERS]
    src = head + lines
    with tempfile.NamedTemporaryFile("w", suffix=".cpp", delete=False) as f:
        f.write("\n".join(src) + "\n")
        path = f.name
    try:
        cmd = [cxx, "-std=c++17", "-fsyntax-only", "-fmax-errors=0", path]
        cmd += [f"-I{i}" for i in includes]
        out = subprocess.run(cmd, capture_output=True, text=True)
    finally:
        os.unlink(path)
    bad = set()
    pat = re.compile(re.escape(os.path.basename(path)) + r":(\d+):\d+: error")
    for line in out.stderr.splitlines():
        m = pat.search(line)
        if m and int(m.group(1)) > len(head):
            bad.add(int(m.group(1)) - len(head))
    return bad, out.stderr


def probe(name, i):
    if name.startswith("::"):
        n = name[2:]
        if n == "tik2":
            return f"namespace ascsim_probe_{i} = ::tik2;"
        return f"using ::{n};"
    return f"using AscendC::{name};"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--readme", required=True)
    ap.add_argument("--table", help="../shared/api_usage.tsv (optional)")
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("-I", dest="includes", action="append", default=[])
    args = ap.parse_args()

    text = open(args.readme, encoding="utf-8").read()
    m = re.search(r"<!-- api-table:begin.*?-->(.*?)<!-- api-table:end -->", text, re.S)
    if not m:
        print("README has no api-table markers")
        return 1
    names, rejected = [], []
    for row in m.group(1).splitlines():
        cols = row.split("|")
        if len(cols) < 4 or cols[1].strip() in ("API group", "---"):
            continue
        toks = re.findall(r"`((?:::)?[A-Za-z_][A-Za-z0-9_]*)`", cols[2])
        (rejected if cols[1].strip().startswith("Rejected") else names).extend(toks)
    failures = []

    bad, err = compile_lines([probe(n, i) for i, n in enumerate(names)], args.cxx, args.includes)
    for i in sorted(bad):
        failures.append(f"README names `{names[i - 1]}` but it does not compile")
    if bad and not failures:
        print(err)

    for n in rejected:
        if n not in REJECTED_USES:
            failures.append(f"rejected name `{n}` has no use snippet in check_api_table.py")
            continue
        bad, err = compile_lines([f"void ascsim_use() {{ {REJECTED_USES[n]} }}"], args.cxx,
                                 args.includes)
        # The static_assert fires inside the header, so look at the whole output.
        if "error" not in err or "ascsim:" not in err:
            failures.append(f"a use of `{n}` does not fail with an 'ascsim:' message")

    if args.table and os.path.exists(args.table):
        section = text[text.find("## Ascend C API"):]
        section = section[: section.find("\n## ", 1)]
        rows = [l.split("\t") for l in open(args.table, encoding="utf-8")
                if not l.startswith("#") and not l.startswith("name\t")]
        tsv = [r[0] for r in rows if len(r) >= 5]
        lines = []
        for i, n in enumerate(tsv):
            if n in GLOBAL_TSV:
                lines.append(f"inline void ascsim_p{i}() {{ using namespace AscendC; (void)&{n}; }}")
            else:
                lines.append(f"using AscendC::{n};")
        bad, _ = compile_lines(lines, args.cxx, args.includes)
        declared = [n for i, n in enumerate(tsv) if i + 1 not in bad]
        for n in declared:
            if not re.search(r"\b" + re.escape(n) + r"\b", section):
                failures.append(f"`{n}` is declared by the headers but not in README's API section")
    elif args.table:
        print(f"note: {args.table} not found; the usage-table check is skipped")

    for f in failures:
        print("FAIL: " + f)
    print(f"api_table: {len(names)} names compile, {len(rejected)} rejected names checked, "
          f"{len(failures)} problems")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
