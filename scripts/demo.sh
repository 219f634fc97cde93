#!/usr/bin/env bash
# The demo: the seed's [8, 2048] float16 add and the GELU from Python against NumPy, then the C++
# ACL host program and the CPU-twin program.
#
# It first installs the Debian packages ascsim needs, only those missing (scripts/install_deps.sh:
# g++, cmake, Highway, pybind11, NumPy, GoogleTest, ...; apt-get, so it runs as root or through
# sudo, and only when something is missing). Then it builds only what the demo runs: the Python
# packages (target ascsim_python) and the two sample programs, not the test suites or benchmarks.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${BUILD_DIR:-build}"
bash scripts/install_deps.sh
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" \
  -DPython_EXECUTABLE=/usr/bin/python3 -DASCSIM_BUILD_PYTHON=ON -DASCSIM_BUILD_EXAMPLES=ON \
  ${CMAKE_EXTRA_ARGS:-} >/dev/null
cmake --build "$BUILD_DIR" -j "$(nproc)" \
  --target ascsim_python example_acl_add example_cpu_twin_add
echo "== Python: import add_custom =="
PYTHONPATH="$PWD/$BUILD_DIR/python" /usr/bin/python3 examples/python/demo.py
echo "== C++: ACL host program (examples/acl_add) =="
"$BUILD_DIR/examples/example_acl_add"
echo "== C++: CPU-twin program (examples/cpu_twin_add) =="
"$BUILD_DIR/examples/example_cpu_twin_add"
