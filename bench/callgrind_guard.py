#!/usr/bin/python3
"""Instruction-count guard: fixed workloads counted under `valgrind --tool=callgrind`, compared with
the budgets in bench/callgrind_budgets.json. Fails (exit 1) when a workload costs more than
its budget times the margin kept beside the budgets ("limit", 1.10: a change that costs 10% more
instructions than the budget fails, so a 20% slowdown fails with room to spare, while the few
hundred instructions valgrind's scheduling moves never do), naming the workload and the ratio.
CI runs it after the test suite (.ci/run). Instruction counts do
not depend on how loaded the machine is: the same binary, inputs, settings and thread count give
the same count (within a few hundred instructions of valgrind's own scheduling), so the guard cannot
be fooled by a noisy machine the way wall-clock benchmarks can. Wall-clock targets stay in the
benchmarks (bench/perf_table.py).

    /usr/bin/python3 bench/callgrind_guard.py [--build build] [--update] [--only NAME ...]
                                              [--budgets FILE] [--limit RATIO]

Workloads (float16, block_dim 8 unless said, default sanitizer and ASCSIM_SANITIZE=0):
  launch_small  one [8, 2048] add launched from C++ (bench/callgrind_workloads.cpp)
  add_2e20      one add of 2^20 elements
  gelu_2e20     one GELU of 2^20 elements
  gelu_strips_2e21  GELU in strips of 512 elements (bench/strip_bench_kernels.cc), 2^21 elements
                in one block: a block longer than 2^16 sanitizer events (issue #22's cliff)
  python_launch one [8, 2048] add from Python (add_custom.run_add_custom), per launch: the
                difference of two runs of bench/callgrind_launch.py
Every run: ASCSIM_WORKERS=1 (the launching thread runs every block: no helper thread timing),
no other ASCSIM_* variable, PYTHONHASHSEED=0. The C++ workloads count only
ascsim_guard_measure (callgrind --toggle-collect), after one uncounted warm-up run.

Budgets belong to a binary built the way scripts/build.sh builds it (Release, g++ of Debian 12)
and to valgrind's CPU (AVX2: valgrind hides AVX-512). After an intended change of cost, rerun
with --update and commit bench/callgrind_budgets.json with the reason.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUDGETS = os.path.join(HERE, "callgrind_budgets.json")
DEFAULT_LIMIT = 1.10
CPP_WORKLOADS = ("launch_small", "add_2e20", "gelu_2e20", "gelu_strips_2e21")
SANITIZE = {"": None, "_nosan": "0"}  # name suffix -> ASCSIM_SANITIZE (None: unset, the default)
PY_LAUNCHES = (10, 60)


def clean_env(sanitize):
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASCSIM_")}
    env["ASCSIM_WORKERS"] = "1"
    env["PYTHONHASHSEED"] = "0"
    if sanitize is not None:
        env["ASCSIM_SANITIZE"] = sanitize
    return env


def callgrind(cmd, env, toggle=None):
    """Instructions counted by callgrind for `cmd` (only inside `toggle` when given)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        args = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out]
        if toggle:
            args.append("--toggle-collect=" + toggle)
        proc = subprocess.run(args + cmd, env=env, capture_output=True, text=True)
        if proc.returncode != 0:
            sys.exit("callgrind guard: %s failed (exit %d):\n%s" %
                     (" ".join(cmd), proc.returncode, proc.stderr[-2000:]))
        with open(out) as f:
            for line in f:
                if line.startswith(("summary:", "totals:")):
                    return int(line.split()[1])
    sys.exit("callgrind guard: no instruction total in callgrind's output for " + " ".join(cmd))


def measure(name, build):
    base, suffix = name, ""
    for s in SANITIZE:
        if s and name.endswith(s):
            base, suffix = name[: -len(s)], s
    env = clean_env(SANITIZE[suffix])
    if base in CPP_WORKLOADS:
        exe = os.path.join(build, "bench", "callgrind_workloads")
        if not os.path.exists(exe):
            sys.exit("callgrind guard: %s is missing (configure with -DASCSIM_BUILD_BENCHMARKS=ON, "
                     "as scripts/build.sh does)" % exe)
        return callgrind([exe, base, "1"], env, toggle="ascsim_guard_measure")
    if base == "python_launch":
        env["PYTHONPATH"] = os.path.join(build, "python")
        script = os.path.join(HERE, "callgrind_launch.py")
        lo, hi = (callgrind(["/usr/bin/python3", script, str(n)], env) for n in PY_LAUNCHES)
        return (hi - lo) // (PY_LAUNCHES[1] - PY_LAUNCHES[0])
    sys.exit("callgrind guard: unknown workload " + name)


def all_workloads():
    names = [w + s for w in CPP_WORKLOADS for s in SANITIZE]
    return names + ["python_launch"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--update", action="store_true", help="write the measured counts as budgets")
    parser.add_argument("--limit", type=float, default=None,
                        help="fail above budget x RATIO (default: the file's limit, else %.2f)" %
                        DEFAULT_LIMIT)
    parser.add_argument("--budgets", default=BUDGETS, help="the budgets file (JSON)")
    parser.add_argument("--only", nargs="*", help="measure only these workloads")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("callgrind guard: valgrind is not installed (scripts/install_deps.sh installs it)")
    budgets = {}
    limit = DEFAULT_LIMIT
    if os.path.exists(args.budgets):
        try:
            with open(args.budgets) as f:
                data = json.load(f)
            budgets = data["instructions"]
            limit = float(data.get("limit", DEFAULT_LIMIT))
        except (ValueError, KeyError, TypeError) as e:
            sys.exit("callgrind guard: %s is not a budgets file (%s: %s)" %
                     (args.budgets, type(e).__name__, e))
    if args.limit is not None:
        limit = args.limit
    if limit <= 1.0:
        sys.exit("callgrind guard: the limit must be above 1.0 (got %g)" % limit)
    known = set(all_workloads())
    for name in args.only or ():
        if name not in known:
            sys.exit("callgrind guard: unknown workload %s (one of: %s)" %
                     (name, ", ".join(sorted(known))))
    names = args.only or all_workloads()
    start = time.time()
    failures = []
    measured = {}
    print("%-22s %14s %14s %7s" % ("workload", "instructions", "budget", "ratio"))
    for name in names:
        count = measure(name, args.build)
        measured[name] = count
        budget = budgets.get(name)
        ratio = count / budget if budget else float("nan")
        flag = ""
        if budget and ratio > limit:
            flag = "  FAIL"
            failures.append("%s costs %d instructions, %.2fx its budget of %d (limit %.2fx)" %
                            (name, count, ratio, budget, limit))
        elif budget and ratio < 1 / limit:
            flag = "  (cheaper: consider --update)"
        print("%-22s %14d %14s %7.3f%s" % (name, count, budget or "-", ratio, flag), flush=True)
    print("callgrind guard: %d workloads in %.0f s" % (len(names), time.time() - start))
    if args.update:
        budgets.update(measured)
        with open(args.budgets, "w") as f:
            json.dump({"comment": "Instructions per workload under valgrind --tool=callgrind; "
                                  "a workload fails above budget x limit. See "
                                  "bench/callgrind_guard.py. Update with --update and say why.",
                       "limit": limit,
                       "instructions": dict(sorted(budgets.items()))}, f, indent=2)
            f.write("\n")
        print("callgrind guard: budgets written to " + args.budgets)
        return 0
    missing = [n for n in names if n not in budgets]
    if missing:
        failures.append("no budget for " + ", ".join(missing) + " (run with --update)")
    for failure in failures:
        print("callgrind guard: FAILED: " + failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
