"""Builds the add_custom extension with the project's own CMake build.

    /usr/bin/python3 -m venv --system-site-packages /tmp/v
    /tmp/v/bin/pip install --no-build-isolation /path/to/ascsim

Needs CMake >= 3.18, a C++17 compiler, pybind11's CMake package (Debian: pybind11-dev) and Highway
(libhwy-dev); works offline. Environment: CMAKE_BUILD_PARALLEL_LEVEL (default 2) and
ASCSIM_CMAKE_ARGS (extra -D options, space-separated).
"""
import glob
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    """Configures the project with only the Python module enabled and copies the built .so."""

    def build_extension(self, ext):
        build_dir = os.path.join(ROOT, "build-pip", "cmake")
        os.makedirs(build_dir, exist_ok=True)
        config = "Debug" if self.debug else "Release"
        args = [
            f"-DCMAKE_BUILD_TYPE={config}",
            f"-DPython_EXECUTABLE={sys.executable}",
            "-DASCSIM_BUILD_PYTHON=ON",
            "-DASCSIM_BUILD_TESTS=OFF",
            "-DASCSIM_BUILD_EXAMPLES=OFF",
            "-DASCSIM_BUILD_BENCHMARKS=OFF",
        ] + os.environ.get("ASCSIM_CMAKE_ARGS", "").split()
        subprocess.check_call(["cmake", "-S", ROOT, "-B", build_dir] + args)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")
        subprocess.check_call(["cmake", "--build", build_dir, "--target", "add_custom",
                               "--config", config, "-j", jobs])
        built = glob.glob(os.path.join(build_dir, "bindings", "add_custom*.so"))
        if len(built) != 1:
            raise RuntimeError(f"expected one add_custom*.so in {build_dir}/bindings, got {built}")
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(built[0], target)


setup(
    ext_modules=[CMakeExtension("add_custom")],
    cmdclass={"build_ext": CMakeBuild},
    # Keep setuptools' own build tree apart from developers' CMake build directories.
    options={"build": {"build_base": os.path.join("build-pip", "setuptools")}},
    zip_safe=False,
)
