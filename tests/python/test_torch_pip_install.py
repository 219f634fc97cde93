"""`pip install '.[torch]'` into a fresh venv, then the seeds' PyTorch flows from a folder
outside the checkout on the installed packages only, as a new user would: a new kernel
pair registered with torch.library, autograd with gradcheck, torch.compile(fullgraph=True)
(torch_scenario.py), and two of examples/torch.

Slow, so it runs only with ASCSIM_TEST_PIP=1 (scripts/torch_tests.sh sets it, with
ASCSIM_PIP_FROM_BUILD=<build> so that setup.py packages the build tree). The fresh venv sees the
pinned torch of the interpreter running this test through a .pth file, so the extra's
torch==2.13.0 is satisfied without a second 200 MB install; pip runs with --no-index, so nothing
is downloaded either way. The venv is made --without-pip: its pip and setuptools are then the
torch venv's, as after a user's `pip install torch==2.13.0` (torch needs setuptools >= 77, which
that install brings and the venv's bundled setuptools is not).
"""
import os
import shutil
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch")

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.dirname(os.path.abspath(__file__))

pytestmark = pytest.mark.skipif(os.environ.get("ASCSIM_TEST_PIP") != "1",
                                reason="slow: builds the wheel; run by scripts/torch_tests.sh")


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV") and not k.startswith("ASCSIM_")}
    env.update(extra)
    return env


def run(cmd, **kwargs):
    proc = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    assert proc.returncode == 0, (f"{' '.join(map(str, cmd))} failed ({proc.returncode}):\n"
                                  f"{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}")
    return proc.stdout


@pytest.fixture(scope="module")
def venv(tmp_path_factory):
    root = tmp_path_factory.mktemp("torch_pip_venv")
    python = str(root / "venv" / "bin" / "python")
    run(["/usr/bin/python3", "-m", "venv", "--system-site-packages", "--without-pip",
         str(root / "venv")])
    site = run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).strip()
    torch_site = os.path.dirname(os.path.dirname(os.path.abspath(torch.__file__)))
    with open(os.path.join(site, "pinned_torch.pth"), "w") as f:
        f.write(torch_site + "\n")
    env = clean_env(PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1",
                    ASCSIM_PIP_BUILD_DIR=str(root / "cmake"))
    if os.environ.get("ASCSIM_PIP_FROM_BUILD"):
        env["ASCSIM_PIP_FROM_BUILD"] = os.environ["ASCSIM_PIP_FROM_BUILD"]
    out = run([python, "-m", "pip", "install", "--no-build-isolation", f"{REPO}[torch]"],
              env=env, cwd=str(root), timeout=1800)
    assert "torch==2.13.0" not in out or "already satisfied" in out.lower(), out
    return python


def test_the_extra_is_declared_and_satisfied(venv, tmp_path):
    code = ("import importlib.metadata as m; reqs = m.requires('ascsim'); "
            "print([r for r in reqs if 'torch' in r]); import torch, ascsim.torch; "
            "print(torch.__version__, ascsim.torch.__file__)")
    out = run([venv, "-c", code], cwd=str(tmp_path), env=clean_env())
    assert "torch==2.13.0; extra == \"torch\"" in out, out
    assert "2.13.0" in out and "site-packages/ascsim/torch/__init__.py" in out, out


def test_the_seeds_flows_from_outside_the_checkout(venv, tmp_path):
    work = tmp_path / "user"
    work.mkdir()
    scenario = shutil.copy(os.path.join(HERE, "torch_scenario.py"), work / "scenario.py")
    env = clean_env(ASCSIM_CACHE_DIR=str(work / "cache"))
    out = run([venv, str(scenario), str(work)], cwd=str(work), env=env, timeout=1200)
    assert "torch scenario passed" in out, out
    for example in ("test_gelu.py", "test_add_custom.py"):
        script = shutil.copy(os.path.join(REPO, "examples", "torch", example), work / example)
        proc = subprocess.run([venv, str(script)], capture_output=True, text=True, cwd=str(work),
                              env=env, timeout=1200)
        assert proc.returncode == 0 and "\nOK" in proc.stderr, proc.stderr[-4000:]
