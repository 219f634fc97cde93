"""The instruction-count guard (bench/callgrind_guard.py): it fails, naming the workload and the
ratio, when a workload costs more than its budget times the limit, passes within it, and rejects
bad input with a clear message. Uses the cheapest workload (one small launch without the
sanitizer, a second or two under callgrind). CI installs valgrind (scripts/install_deps.sh)."""
import json
import os
import shutil
import subprocess
import sys

import pytest

import ascsim

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GUARD = os.path.join(ROOT, "bench", "callgrind_guard.py")
BUILD = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(ascsim.__file__))))
WORKLOADS = os.path.join(BUILD, "bench", "callgrind_workloads")
WORKLOAD = "launch_small_nosan"

needs_valgrind = pytest.mark.skipif(
    shutil.which("valgrind") is None or not os.path.exists(WORKLOADS),
    reason="valgrind or the benchmarks build (bench/callgrind_workloads) is missing")


def run_guard(tmp_path, *args):
    return subprocess.run([sys.executable, GUARD, "--build", BUILD, *args], capture_output=True,
                          text=True, cwd=tmp_path)


def write_budgets(path, budgets, limit=1.10):
    path.write_text(json.dumps({"limit": limit, "instructions": budgets}))


@pytest.fixture(scope="module")
def measured(tmp_path_factory):
    """The workload's instruction count, as --update records it."""
    if shutil.which("valgrind") is None or not os.path.exists(WORKLOADS):
        pytest.skip("valgrind or the benchmarks build is missing")
    tmp = tmp_path_factory.mktemp("guard")
    budgets = tmp / "budgets.json"
    proc = run_guard(tmp, "--update", "--only", WORKLOAD, "--budgets", str(budgets))
    assert proc.returncode == 0, proc.stderr
    data = json.loads(budgets.read_text())
    assert data["limit"] == pytest.approx(1.10)
    return data["instructions"][WORKLOAD]


@needs_valgrind
def test_update_records_a_plausible_count(measured):
    # One launch of 8 blocks runs tens of thousands of instructions at the very least.
    assert 10_000 < measured < 50_000_000


@needs_valgrind
def test_a_workload_within_its_budget_passes(tmp_path, measured):
    budgets = tmp_path / "budgets.json"
    write_budgets(budgets, {WORKLOAD: measured})
    proc = run_guard(tmp_path, "--only", WORKLOAD, "--budgets", str(budgets))
    assert proc.returncode == 0, proc.stderr
    assert WORKLOAD in proc.stdout


@needs_valgrind
def test_twenty_percent_over_the_budget_fails_naming_workload_and_ratio(tmp_path, measured):
    # The same as a change that makes the workload cost 1.2x its budget.
    budgets = tmp_path / "budgets.json"
    write_budgets(budgets, {WORKLOAD: int(measured / 1.2)})
    proc = run_guard(tmp_path, "--only", WORKLOAD, "--budgets", str(budgets))
    assert proc.returncode == 1
    assert "FAILED: %s costs" % WORKLOAD in proc.stderr
    assert "1.20x its budget" in proc.stderr
    assert "FAIL" in proc.stdout


@needs_valgrind
def test_a_workload_without_a_budget_fails(tmp_path):
    budgets = tmp_path / "budgets.json"
    write_budgets(budgets, {})
    proc = run_guard(tmp_path, "--only", WORKLOAD, "--budgets", str(budgets))
    assert proc.returncode == 1
    assert "no budget for %s (run with --update)" % WORKLOAD in proc.stderr


def test_the_checked_in_budgets_cover_every_workload_with_a_margin():
    with open(os.path.join(ROOT, "bench", "callgrind_budgets.json")) as f:
        data = json.load(f)
    names = {w + s for w in ("launch_small", "add_2e20", "gelu_2e20", "gelu_strips_2e21")
             for s in ("", "_nosan")}
    assert set(data["instructions"]) == names | {"python_launch"}
    assert all(isinstance(v, int) and v > 0 for v in data["instructions"].values())
    assert 1.0 < data["limit"] < 1.2  # a 20% slowdown must fail


@pytest.mark.parametrize("args, message", [
    (["--only", "no_such_workload"], "unknown workload no_such_workload"),
    (["--limit", "0.9"], "the limit must be above 1.0"),
])
def test_bad_arguments_are_named(tmp_path, args, message):
    if shutil.which("valgrind") is None:
        pytest.skip("valgrind is missing")
    proc = run_guard(tmp_path, *args)
    assert proc.returncode != 0
    assert message in proc.stderr


def test_a_file_that_is_not_a_budgets_file_is_named(tmp_path):
    if shutil.which("valgrind") is None:
        pytest.skip("valgrind is missing")
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2")
    proc = run_guard(tmp_path, "--budgets", str(bad))
    assert proc.returncode != 0
    assert "is not a budgets file" in proc.stderr
