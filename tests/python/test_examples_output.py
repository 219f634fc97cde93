"""The example scripts write their figures where they run, not over the repository's tracked
docs/ files, unless asked."""
import hashlib
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def test_profile_demo_writes_into_the_current_folder(tmp_path):
    tracked = [os.path.join(ROOT, "docs", n) for n in ("timeline_add.png", "trace_add.json")]
    before = [digest(p) for p in tracked]
    env = dict(os.environ)
    out = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "profile_demo.py"),
                          "--skip-large"], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "timeline_add.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "trace_add.json").stat().st_size > 1000
    assert [digest(p) for p in tracked] == before


def test_benchmark_plots_into_the_current_folder_by_default():
    out = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "benchmark.py"),
                          "--help"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "default: benchmark.png in the current folder" in " ".join(out.stdout.split())
