"""ascsim's C++ -> Python exception translation stays inside ascsim.

`import ascsim` must not change how *other* pybind11 modules (torch's operators, a user's own
module) report their exceptions: pybind11's global translators are shared by every module built
with the same pybind11 ABI, so ascsim's translator is module-local. A user's module that opts in
with `ascsim::python::UseAscsim()` (ascsim/pybind11.h) still gets ascsim's classes for
ascsim::Error.
"""
import os
import subprocess
import sys
import sysconfig
import textwrap

import pytest

import ascsim
from ascsim import _build_config

OTHER_MODULE = r"""
#include <pybind11/pybind11.h>

#include <stdexcept>

namespace py = pybind11;

// A module that knows nothing of ascsim, with its own exception registered the usual (global) way.
struct OtherError : std::exception {
  const char* what() const noexcept override { return "other failure"; }
};

PYBIND11_MODULE(other_ext, m) {
  py::register_exception<OtherError>(m, "OtherError");
  m.def("throw_runtime", [] { throw std::runtime_error("boom from another module"); });
  m.def("throw_invalid_argument", [] { throw std::invalid_argument("bad value elsewhere"); });
  m.def("throw_other", [] { throw OtherError(); });
}
"""

USER_MODULE = r"""
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <stdexcept>

#include "ascsim/pybind11.h"

// A user's module that opts into ascsim's errors (the recipe of ascsim/pybind11.h).
PYBIND11_MODULE(user_ext, m) {
  ascsim::python::UseAscsim();
  m.def("throw_ascsim", [] { throw ascsim::InvalidArgument("user_ext: bad block_dim 0"); });
  m.def("throw_kernel", [] {
    throw ascsim::KernelError(ascsim::ErrorKind::kOutOfBounds, "k: block 1/2: out of range");
  });
  m.def("throw_runtime", [] { throw std::runtime_error("plain failure"); });
}
"""


def _compile(tmp, name, source, with_ascsim):
    src = tmp / f"{name}.cpp"
    src.write_text(source)
    out = tmp / (name + sysconfig.get_config_var("EXT_SUFFIX"))
    includes = subprocess.check_output(
        [sys.executable, "-m", "pybind11", "--includes"], text=True).split()
    cmd = ["g++", "-std=c++17", "-O0", "-shared", "-fPIC", "-fvisibility=hidden", *includes]
    if with_ascsim:
        cmd += [f"-I{d}" for d in _build_config.INCLUDE_DIRS]
        cmd += [str(src), f"-L{_build_config.LIBRARY_DIR}", f"-Wl,-rpath,{_build_config.LIBRARY_DIR}",
                "-lascsim"]
    else:
        cmd += [str(src)]
    return subprocess.Popen(cmd + ["-o", str(out)], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)


@pytest.fixture(scope="module")
def modules_dir(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("translation")
    jobs = [_compile(tmp, "other_ext", OTHER_MODULE, False),
            _compile(tmp, "user_ext", USER_MODULE, True)]
    for job in jobs:
        output, _ = job.communicate()
        assert job.returncode == 0, output
    return tmp


def _run(modules_dir, code):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(modules_dir), env.get("PYTHONPATH", "")])
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


@pytest.mark.parametrize("order", ["other first", "ascsim first"])
def test_other_modules_exceptions_are_left_alone(modules_dir, order):
    imports = ("import other_ext\nimport ascsim\n" if order == "other first"
               else "import ascsim\nimport other_ext\n")
    out = _run(modules_dir, imports + """
def caught(f):
    try:
        f()
    except BaseException as e:
        return type(e), str(e)
for name in ("throw_runtime", "throw_invalid_argument", "throw_other"):
    cls, msg = caught(getattr(other_ext, name))
    print(name, cls.__module__ + "." + cls.__qualname__, issubclass(cls, ascsim.Error), repr(msg))
""")
    lines = dict((line.split(" ", 1)[0], line.split(" ", 1)[1]) for line in out.splitlines())
    assert lines["throw_runtime"] == "builtins.RuntimeError False 'boom from another module'"
    assert lines["throw_invalid_argument"] == "builtins.ValueError False 'bad value elsewhere'"
    assert lines["throw_other"] == "other_ext.OtherError False 'other failure'"


def test_user_module_using_ascsim_gets_ascsim_errors(modules_dir):
    out = _run(modules_dir, """
import ascsim, user_ext
try:
    user_ext.throw_ascsim()
except ascsim.InvalidArgumentError as e:
    print("ascsim", e.kind, str(e), isinstance(e, ValueError))
try:
    user_ext.throw_kernel()
except ascsim.KernelError as e:
    print("kernel", e.kind, str(e))
try:
    user_ext.throw_runtime()
except BaseException as e:
    print("runtime", type(e).__name__, isinstance(e, ascsim.Error), str(e))
""")
    assert out.splitlines() == [
        "ascsim invalid argument user_ext: bad block_dim 0 True",
        "kernel out of bounds k: block 1/2: out of range",
        "runtime RuntimeError False plain failure",
    ]


def test_ascsim_own_errors_are_still_translated():
    with pytest.raises(ascsim.InvalidArgumentError) as info:
        ascsim.set_soc("NoSuchSoc")
    assert info.value.kind == "invalid argument"
    assert "NoSuchSoc" in str(info.value)
