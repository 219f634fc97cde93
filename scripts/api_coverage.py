#!/usr/bin/env python3
"""Recomputes the `ascsim` column of ../shared/api_usage.tsv against the headers of this tree.

A name counts as declared when `using AscendC::NAME;` compiles against the headers a production
kernel includes: kernel_operator.h, lib/matmul_intf.h (the Matmul API, as in CANN a separate
header) and tiling/tiling_api.h (GetTPipePtr and asc_vf_call are looked up globally). One compiler run
checks every name: each `using` sits on its own line and a diagnostic on that line marks the name
as missing. Names ascsim declares only to reject them at compile time with a message (APIs of other
SoCs, forms it does not simulate) are listed in REJECTED and reported separately: they compile as
declarations but are not simulated.

Prints the coverage weighted by files (the table's third column) and by names, the names that
changed against the table, and what is still missing, most used first. Exit status: 0, or 1 when
--min-weighted is given and not met, or 77 (skipped) when the table is absent.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

# Declared so that a use fails with an explanation (static_assert / deleted declaration).
REJECTED = {
    "GetUintDivMagicAndShift",  # Ascend 950 only
    "RpSort16", "MrgSort4", "ProposalConcat", "ProposalExtract",  # 310P region proposals
}
GLOBAL_NAMES = {"GetTPipePtr", "asc_vf_call"}


def read_table(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or line.startswith("name\t"):
                continue
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 5:
                continue
            rows.append((parts[0], parts[1], int(parts[2]), int(parts[3]), parts[4]))
    return rows


def declared_names(names, cxx, includes, defines):
    src = ['#include "kernel_operator.h"', '#include "lib/matmul_intf.h"',
           '#include "tiling/tiling_api.h"']
    # Two lines per name: in AscendC, or at global scope (CANN declares the Matmul configuration
    # names, CubeFormat, MatmulConfig, CFG_MDL, ..., outside any namespace).
    first = len(src) + 1
    for n in names:
        if n in GLOBAL_NAMES:  # global in CANN; either global or in AscendC here
            src.append(f"inline void ascsim_probe_{n}() {{ using namespace AscendC; (void)&{n}; }}")
        else:
            src.append(f"using AscendC::{n};")
        src.append(f"namespace ascsim_global_probe_{n} {{ using ::{n}; }}")
    with tempfile.NamedTemporaryFile("w", suffix=".cpp", delete=False) as f:
        f.write("\n".join(src) + "\n")
        path = f.name
    try:
        cmd = [cxx, "-std=c++17", "-fsyntax-only", "-fmax-errors=0", path]
        cmd += [f"-I{i}" for i in includes] + [f"-D{d}" for d in defines]
        out = subprocess.run(cmd, capture_output=True, text=True)
    finally:
        os.unlink(path)
    bad_lines = set()
    pat = re.compile(re.escape(os.path.basename(path)) + r":(\d+):\d+: error")
    for line in out.stderr.splitlines():
        m = pat.search(line)
        if m:
            bad_lines.add(int(m.group(1)))
    return {n for i, n in enumerate(names)
            if first + 2 * i not in bad_lines or first + 2 * i + 1 not in bad_lines}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--table", required=True)
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("-I", dest="includes", action="append", default=[])
    ap.add_argument("-D", dest="defines", action="append", default=[])
    ap.add_argument("--min-weighted", type=float, default=None,
                    help="fail below this weighted coverage (percent)")
    ap.add_argument("--show-missing", type=int, default=40)
    args = ap.parse_args()

    if not os.path.exists(args.table):
        print(f"SKIPPED: {args.table} not found (the API usage table lives in ../shared beside "
              "the clone)")
        return 77
    rows = read_table(args.table)
    names = [r[0] for r in rows]
    ok = declared_names(names, args.cxx, args.includes, args.defines)
    total_files = sum(r[2] for r in rows)
    have = [r for r in rows if r[0] in ok]
    simulated = [r for r in have if r[0] not in REJECTED]
    was = [r for r in rows if r[4] == "yes"]
    pct = lambda rs: 100.0 * sum(r[2] for r in rs) / total_files
    print(f"names declared: {len(have)} of {len(rows)} (table: {len(was)})")
    print(f"weighted by files: {pct(have):.2f}% declared, {pct(simulated):.2f}% simulated "
          f"(table: {pct(was):.2f}%)")
    rejected = [r[0] for r in have if r[0] in REJECTED]
    if rejected:
        print("declared but rejected at compile time with a message: " + ", ".join(rejected))
    gained = [r for r in have if r[4] != "yes"]
    lost = [r for r in was if r[0] not in ok]
    if gained:
        print(f"newly declared ({len(gained)}): " +
              ", ".join(f"{r[0]}({r[2]})" for r in gained))
    if lost:
        print(f"REGRESSED ({len(lost)}): " + ", ".join(f"{r[0]}({r[2]})" for r in lost))
    missing = [r for r in rows if r[0] not in ok]
    if missing:
        shown = missing[: args.show_missing]
        print(f"missing ({len(missing)}, by files): " +
              ", ".join(f"{r[0]}({r[2]})" for r in shown) +
              (" ..." if len(missing) > len(shown) else ""))
    if lost:
        return 1
    if args.min_weighted is not None and pct(have) < args.min_weighted:
        print(f"FAILED: {pct(have):.2f}% < {args.min_weighted}%")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
