"""Builds the `ascsim` and `add_custom` Python packages with the project's own CMake build.

    /usr/bin/python3 -m venv --system-site-packages /tmp/v
    /tmp/v/bin/pip install --no-build-isolation /path/to/ascsim

Needs CMake >= 3.18, g++ (C++17), pybind11's CMake package (Debian: pybind11-dev) and Highway
(libhwy-dev); works offline. The `ascsim` package carries what ascsim.load() compiles against:
ascsim/lib/libascsim.so (the one runtime; _core finds it by RPATH $ORIGIN/lib), ascsim/include
(the public headers) and ascsim/lib/cmake/ascsim (find_package(ascsim), ascsim_add_kernel_module).
The deliberately faulty test kernels are not built (add_custom.testing says so on import).

Environment: CMAKE_BUILD_PARALLEL_LEVEL (default: the CPU count), ASCSIM_CMAKE_ARGS (extra -D
options, space-separated), ASCSIM_PIP_BUILD_DIR (the CMake build folder, default build-pip/cmake
in the checkout; kept between installs, so a second install only rebuilds what changed). ccache
is used when it is on PATH. ASCSIM_PIP_FROM_BUILD=<build dir> packages an existing CMake build of
this checkout (configured with -DASCSIM_BUILD_PYTHON=ON) instead of configuring one: no second
compile of the library (ctest python_pip_install uses it); libascsim.so then comes with its
versioned names as three files.
"""
import os
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


def project_version():
    """The version of project(ascsim VERSION x.y.z) in CMakeLists.txt: one source of truth."""
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        match = re.search(r"project\(ascsim\s+VERSION\s+([0-9.]+)", f.read())
    if not match:
        raise RuntimeError("no project(ascsim VERSION ...) in CMakeLists.txt")
    return match.group(1)


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    """Configures and builds the Python target, then lays out the package's native part:
    _core*.so, lib/ (libascsim.so, libascsim_kernels.a, cmake/, pkgconfig/), include/ and
    _build_config.py (paths relative to the package)."""

    def build_extension(self, ext):
        from_build = os.environ.get("ASCSIM_PIP_FROM_BUILD")
        build_dir = from_build or os.environ.get("ASCSIM_PIP_BUILD_DIR") or os.path.join(
            ROOT, "build-pip", "cmake")
        build_dir = os.path.abspath(build_dir)
        os.makedirs(build_dir, exist_ok=True)
        config = "Debug" if self.debug else "Release"
        args = [
            f"-DCMAKE_BUILD_TYPE={config}",
            f"-DPython_EXECUTABLE={sys.executable}",
            "-DASCSIM_BUILD_PYTHON=ON",
            "-DASCSIM_PYTHON_WHEEL=ON",
            "-DCMAKE_INSTALL_LIBDIR=lib",
            "-DASCSIM_BUILD_TESTS=OFF",
            "-DASCSIM_BUILD_EXAMPLES=OFF",
            "-DASCSIM_BUILD_BENCHMARKS=OFF",
        ]
        env = dict(os.environ)
        if shutil.which("ccache") and "CMAKE_CXX_COMPILER_LAUNCHER" not in env.get(
                "ASCSIM_CMAKE_ARGS", ""):
            args.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
            env.setdefault("CCACHE_BASEDIR", ROOT)
        args += env.get("ASCSIM_CMAKE_ARGS", "").split()
        if not from_build:
            subprocess.check_call(["cmake", "-S", ROOT, "-B", build_dir] + args, env=env)
        jobs = env.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 2))
        # Everything the install step lays out (library, kernels, the toolkit's tools).
        subprocess.check_call(["cmake", "--build", build_dir, "--config", config, "-j", jobs],
                              env=env)

        target = self.get_ext_fullpath(ext.name)  # <build_lib>/ascsim/_core.<suffix>
        package = os.path.dirname(target)
        os.makedirs(package, exist_ok=True)
        built = [f for f in os.listdir(os.path.join(build_dir, "python", "ascsim"))
                 if f.startswith("_core") and f.endswith(".so")]
        if len(built) != 1:
            raise RuntimeError(f"expected one _core*.so in {build_dir}/python/ascsim: {built}")
        shutil.copyfile(os.path.join(build_dir, "python", "ascsim", built[0]), target)
        shutil.copymode(os.path.join(build_dir, "python", "ascsim", built[0]), target)

        # Headers, libascsim.so and the CMake / pkg-config packages, installed into the package
        # (CMAKE_INSTALL_LIBDIR=lib so the layout is the same on every distribution).
        stage = os.path.join(build_dir, "pip_stage")
        shutil.rmtree(stage, ignore_errors=True)
        subprocess.check_call(["cmake", "--install", build_dir, "--prefix", stage,
                               "--config", config], env=env)
        for sub in ("include", "lib"):
            dst = os.path.join(package, sub)
            shutil.rmtree(dst, ignore_errors=True)
            src = os.path.join(stage, sub)
            if not os.path.isdir(src) and sub == "lib":
                src = os.path.join(stage, "lib64")
            shutil.copytree(src, dst, symlinks=False)
        # The <<<>>> rewrite ascsim.load() runs on sources that launch with it.
        tool_dir = os.path.join(package, "bin")
        os.makedirs(tool_dir, exist_ok=True)
        shutil.copy2(os.path.join(stage, "bin", "ascsim-launch-transform"), tool_dir)
        with open(os.path.join(package, "_build_config.py"), "w", encoding="utf-8") as f:
            f.write("# Written by setup.py: where ascsim.load() finds the headers, the library and\n"
                    "# the <<<>>> rewrite, relative to this package.\n"
                    "INCLUDE_DIRS = [\"include\"]\n"
                    "LIBRARY_DIR = \"lib\"\n"
                    "LAUNCH_TRANSFORM = \"bin/ascsim-launch-transform\"\n")


setup(
    version=project_version(),
    package_dir={"": "python"},
    packages=["ascsim", "ascsim.torch", "add_custom"],
    package_data={"ascsim": ["py.typed", "*.pyi"], "add_custom": ["py.typed", "*.pyi"]},
    ext_modules=[CMakeExtension("ascsim._core")],
    cmdclass={"build_ext": CMakeBuild},
    # Keep setuptools' own build tree apart from developers' CMake build directories.
    options={"build": {"build_base": os.path.join("build-pip", "setuptools")}},
    zip_safe=False,
)
