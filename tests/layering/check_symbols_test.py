"""Proves that check_symbols.py fails on an upward call, and only then.

1. Synthetic layers compiled here (low <- high): a downward call and a call into libc pass; an
   upward call and a sideways call fail, naming the symbol, the using layer and object and the
   defining layer; an allow entry excuses its reference, and an allow entry matching nothing fails.
2. The real layers (the manifest tests/CMakeLists.txt generates) with one planted object in
   aicore calling ascsim::DeviceMalloc (defined by the runtime): the check must fail and name it.
"""

import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, "check_symbols.py")
failures = []


def compile_object(cxx, work, name, source):
    src = os.path.join(work, name + ".cpp")
    obj = os.path.join(work, name + ".o")
    with open(src, "w", encoding="utf-8") as f:
        f.write(source)
    subprocess.run([cxx, "-std=c++17", "-c", src, "-o", obj], check=True)
    return obj


def run_check(nm, manifest, *extra):
    r = subprocess.run([sys.executable, CHECK, "--manifest", manifest, "--nm", nm, *extra],
                       capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def expect(case, rc, out, want_rc, *fragments):
    ok = rc == want_rc and all(f in out for f in fragments)
    print(f"{'ok  ' if ok else 'FAIL'} {case}: rc {rc}")
    if not ok:
        failures.append(f"{case}: want rc {want_rc} and {fragments}, got rc {rc}:\n{out}")


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def synthetic(cxx, nm, work):
    low = compile_object(cxx, work, "low", "int LowFn(int x) { return x + 1; }\n")
    high = compile_object(cxx, work, "high",
                          "int LowFn(int);\n#include <cstdio>\n"
                          "int HighFn(int x) { std::puts(\"high\"); return LowFn(x) * 2; }\n")
    side = compile_object(cxx, work, "side", "int SideFn(int x) { return x - 1; }\n")
    upward = compile_object(cxx, work, "low_calls_up",
                            "int HighFn(int);\nint LowUp(int x) { return HighFn(x); }\n")
    sideways = compile_object(cxx, work, "side_calls_high",
                              "int HighFn(int);\nint SideUp(int x) { return HighFn(x); }\n")
    m = os.path.join(work, "synthetic.txt")

    write(m, f"low::{low}\nhigh:low:{high}\nside::{side}\n")
    rc, out = run_check(nm, m)
    expect("downward call and libc pass", rc, out, 0, "layer rule holds")

    write(m, f"low::{low};{upward}\nhigh:low:{high}\n")
    rc, out = run_check(nm, m)
    expect("upward call fails", rc, out, 1,
           "low -> high: HighFn(int) used by low_calls_up.o, defined in high (high.o)")

    write(m, f"low::{low}\nhigh:low:{high}\nside::{side};{sideways}\n")
    rc, out = run_check(nm, m)
    expect("sideways call fails", rc, out, 1, "side -> high: HighFn(int) used by side_calls_high.o")

    write(m, f"low::{low};{upward}\nhigh:low:{high}\n")
    allow = write(os.path.join(work, "allow.txt"), "# why\nlow high ^HighFn\\(\n")
    rc, out = run_check(nm, m, "--allow", allow)
    expect("allowed upward call passes", rc, out, 0, "known edge (allow.txt): low -> high: HighFn")

    write(m, f"low::{low}\nhigh:low:{high}\n")
    rc, out = run_check(nm, m, "--allow", allow)
    expect("stale allow entry fails", rc, out, 1, "allow.txt:2: no low -> high reference matches")


def planted(cxx, nm, work, manifest, allow):
    obj = compile_object(cxx, work, "planted_upward_call",
                         "#include <cstddef>\nnamespace ascsim { void* DeviceMalloc(size_t); }\n"
                         "void* PlantedScratch() { return ascsim::DeviceMalloc(64); }\n")
    rc, out = run_check(nm, manifest, "--allow", allow)
    expect("real layers pass", rc, out, 0, "layer rule holds")
    rc, out = run_check(nm, manifest, "--allow", allow, "--extra", f"aicore={obj}")
    expect("planted aicore -> runtime call fails", rc, out, 1,
           "aicore -> runtime: ascsim::DeviceMalloc(unsigned long) used by "
           "planted_upward_call.o, defined in runtime (runtime/device_memory.cpp.o)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cxx", required=True)
    parser.add_argument("--nm", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--manifest", required=True)
    parser.add_argument("--allow", required=True)
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    synthetic(args.cxx, args.nm, args.work)
    planted(args.cxx, args.nm, args.work, args.manifest, args.allow)
    if failures:
        print("\n".join(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
