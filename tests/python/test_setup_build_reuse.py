"""setup.py's reuse of an existing CMake build (`pip install --no-build-isolation .` from a tree
that scripts/build.sh already built packages that build instead of compiling a wheel build):
reusable_build accepts only a Release build of this checkout with the Python module, for the
same interpreter, without compiler sanitizers, and names what rules a build out. The install
itself is exercised by ctest python_pip_install."""
import os
import runpy
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SETUP = runpy.run_path(os.path.join(ROOT, "setup.py"), run_name="setup_under_test")
reusable_build = SETUP["reusable_build"]

GOOD = {
    "CMAKE_HOME_DIRECTORY:INTERNAL": ROOT,
    "CMAKE_BUILD_TYPE:STRING": "Release",
    "ASCSIM_BUILD_PYTHON:BOOL": "ON",
    "ASCSIM_PYTHON_WHEEL:BOOL": "OFF",
    "ASCSIM_SANITIZE:STRING": "",
    "Python_EXECUTABLE:FILEPATH": sys.executable,
}


def write_cache(folder, entries):
    folder.mkdir(exist_ok=True)
    lines = ["# This is the CMakeCache file.", "//A comment", ""]
    lines += ["%s=%s" % item for item in entries.items()]
    (folder / "CMakeCache.txt").write_text("\n".join(lines) + "\n")
    return str(folder)


def test_a_release_python_build_of_this_checkout_for_this_python_is_reused(tmp_path):
    assert reusable_build(write_cache(tmp_path / "b", GOOD), sys.executable) == (True, "")


def test_the_interpreter_is_compared_through_symlinks(tmp_path):
    link = tmp_path / "python3"
    os.symlink(os.path.realpath(sys.executable), link)  # as a venv's bin/python is
    assert reusable_build(write_cache(tmp_path / "b", GOOD), str(link)) == (True, "")


@pytest.mark.parametrize("key, value, reason", [
    ("CMAKE_HOME_DIRECTORY:INTERNAL", "/elsewhere", "configured from another source tree"),
    ("CMAKE_BUILD_TYPE:STRING", "Debug", "not a Release build"),
    ("ASCSIM_BUILD_PYTHON:BOOL", "OFF", "built without the Python module"),
    ("ASCSIM_PYTHON_WHEEL:BOOL", "ON", "a wheel build"),
    ("ASCSIM_SANITIZE:STRING", "address,undefined", "built with compiler sanitizers"),
    ("Python_EXECUTABLE:FILEPATH", "/opt/other/python3", "built for /opt/other/python3"),
])
def test_a_build_that_cannot_serve_is_named(tmp_path, key, value, reason):
    entries = dict(GOOD, **{key: value})
    assert reusable_build(write_cache(tmp_path / "b", entries), sys.executable) == (False, reason)


def test_a_folder_without_a_cmake_cache_is_not_a_build(tmp_path):
    ok, reason = reusable_build(str(tmp_path), sys.executable)
    assert not ok
    assert reason == "no CMakeCache.txt in " + str(tmp_path)
