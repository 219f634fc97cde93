"""pip install --no-build-isolation . into a fresh venv, then the "your own kernel" scenario from a
directory outside the checkout, on the installed packages only (no PYTHONPATH).

Slow, so a plain pytest run skips it: ctest runs it as python_pip_install with ASCSIM_TEST_PIP=1
and ASCSIM_PIP_FROM_BUILD=<build> (setup.py packages that build tree instead of compiling the
library a second time). Without ASCSIM_PIP_FROM_BUILD it is the full `pip install`, which
configures and compiles its own wheel build (ASCSIM_PIP_BUILD_DIR keeps it between runs).
"""
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.dirname(os.path.abspath(__file__))

pytestmark = pytest.mark.skipif(
    os.environ.get("ASCSIM_TEST_PIP") != "1",
    reason="slow: builds the wheel; run by ctest python_pip_install (ASCSIM_TEST_PIP=1)")


def _have_venv_and_pip():
    try:
        import ensurepip  # noqa: F401  (Debian: python3-venv)
        import venv  # noqa: F401
    except ImportError:
        return False
    return subprocess.run([sys.executable, "-m", "pip", "--version"],
                          capture_output=True).returncode == 0


def _clean_env(**extra):
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
    if not _have_venv_and_pip():
        pytest.skip("venv or pip is missing (Debian: apt install python3-venv python3-pip)")
    root = tmp_path_factory.mktemp("pip_venv")
    python = str(root / "venv" / "bin" / "python")
    run([sys.executable, "-m", "venv", "--system-site-packages", str(root / "venv")])
    build = os.environ.get("ASCSIM_PIP_BUILD_DIR") or str(root / "cmake")
    env = _clean_env(ASCSIM_PIP_BUILD_DIR=build, PIP_NO_INDEX="1",
                     PIP_DISABLE_PIP_VERSION_CHECK="1")
    if os.environ.get("ASCSIM_PIP_FROM_BUILD"):  # package this build tree: no second compile
        env["ASCSIM_PIP_FROM_BUILD"] = os.environ["ASCSIM_PIP_FROM_BUILD"]
    if "CMAKE_BUILD_PARALLEL_LEVEL" in os.environ:
        env["CMAKE_BUILD_PARALLEL_LEVEL"] = os.environ["CMAKE_BUILD_PARALLEL_LEVEL"]
    if os.environ.get("ASCSIM_PIP_CMAKE_ARGS"):
        env["ASCSIM_CMAKE_ARGS"] = os.environ["ASCSIM_PIP_CMAKE_ARGS"]
    run([python, "-m", "pip", "install", "-q", "--no-build-isolation", REPO], env=env,
        cwd=str(root), timeout=1800)
    return python, root


def test_scenario_from_outside_the_checkout(venv, tmp_path):
    python, _ = venv
    work = tmp_path / "user"
    work.mkdir()
    scenario = shutil.copy(os.path.join(HERE, "load_scenario.py"), work / "scenario.py")
    env = _clean_env(ASCSIM_CACHE_DIR=str(work / "cache"))
    out = run([python, str(scenario), str(work)], cwd=str(work), env=env, timeout=600)
    assert "scenario passed" in out, out


def test_installed_layout_and_missing_testing_module(venv, tmp_path):
    python, root = venv
    code = textwrap.dedent("""
        import os, ascsim, add_custom
        pkg = os.path.dirname(ascsim.__file__)
        assert "site-packages" in pkg, pkg
        for rel in ["py.typed", "_core.pyi", "include/kernel_operator.h",
                    "include/ascsim/kernel_module.h", "lib/libascsim.so",
                    "lib/cmake/ascsim/ascsimConfig.cmake",
                    "lib/cmake/ascsim/ascsimKernelModule.cmake",
                    "lib/cmake/ascsim/ascsim_codegen.py"]:
            assert os.path.exists(os.path.join(pkg, rel)), rel
        assert not os.path.exists(os.path.join(os.path.dirname(add_custom.__file__),
                                               "_faulty_kernels.so"))
        try:
            import add_custom.testing
        except ImportError as e:
            assert "built only in the CMake build tree" in str(e), e
        else:
            raise AssertionError("add_custom.testing imported from the pip package")
        print("layout ok", ascsim.__version__)
        """)
    out = run([python, "-c", code], cwd=str(tmp_path), env=_clean_env())
    assert "layout ok" in out
    ldd = run(["ldd", run([python, "-c", "import ascsim._core as c; print(c.__file__)"],
                          cwd=str(tmp_path), env=_clean_env()).strip()])
    # _core's libascsim.so is the package's own ($ORIGIN/lib), not a build tree's.
    line = next(l for l in ldd.splitlines() if "libascsim" in l)
    assert "site-packages/ascsim/lib/libascsim.so" in line, line
    if not os.environ.get("ASCSIM_PIP_FROM_BUILD"):
        # A wheel build holds one library file: no versioned copies (wheels have no symlinks).
        libs = run([python, "-c", "import ascsim, os; print(sorted(f for f in os.listdir("
                    "os.path.join(os.path.dirname(ascsim.__file__), 'lib')) if 'ascsim.so' in f))"],
                   cwd=str(tmp_path), env=_clean_env())
        assert libs.strip() == "['libascsim.so']", libs


def test_cmake_kernel_module_against_the_installed_package(venv, tmp_path):
    """ascsim_add_kernel_module() from the pip package's CMake files, imported from Python."""
    python, _ = venv
    cmake_dir = run([python, "-c", "import ascsim; print(ascsim.get_cmake_dir())"],
                    cwd=str(tmp_path), env=_clean_env()).strip()
    project = tmp_path / "proj"
    project.mkdir()
    (project / "CMakeLists.txt").write_text(textwrap.dedent("""
        cmake_minimum_required(VERSION 3.18)
        project(user_kernels LANGUAGES CXX)
        find_package(ascsim REQUIRED)
        ascsim_add_kernel_module(user_axpy axpy_custom.cpp)
        """))
    sys.path.insert(0, HERE)
    try:
        import load_scenario
    finally:
        sys.path.remove(HERE)
    (project / "axpy_custom.cpp").write_text(load_scenario.KERNEL)
    build = tmp_path / "build"
    env = _clean_env()
    run(["cmake", "-S", str(project), "-B", str(build), f"-Dascsim_DIR={cmake_dir}",
         f"-DPython3_EXECUTABLE={python}", "-DCMAKE_BUILD_TYPE=Release"], env=env)
    run(["cmake", "--build", str(build), "-j", "2"], env=env, timeout=600)
    code = textwrap.dedent("""
        import numpy as np, user_axpy, ascsim
        x = np.arange(2048, dtype=np.float32); y = np.ones_like(x); z = np.zeros_like(x)
        t = np.array([(256, 256)], dtype=[("b", "<u4"), ("t", "<u4")])
        with ascsim.profile() as prof:
            user_axpy.axpy_custom(x, y, z, 2.0, t, block_dim=8)
        assert np.array_equal(z, 2 * x + 1), z[:4]
        assert prof.summary()[0]["kernel"] == "axpy_custom"
        print("cmake module ok")
        """)
    out = run([python, "-c", code], cwd=str(build), env=_clean_env(PYTHONPATH=str(build)))
    assert "cmake module ok" in out
