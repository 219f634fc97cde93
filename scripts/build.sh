#!/usr/bin/env bash
# Configures and builds everything (library, kernels, Python module, tests, examples, benchmarks)
# in ./build against Debian's Python (/usr/bin/python3: the one with numpy and pybind11).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${BUILD_DIR:-build}"
cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" \
  -DPython_EXECUTABLE=/usr/bin/python3 -DASCSIM_BUILD_TESTS=ON -DASCSIM_BUILD_PYTHON=ON \
  -DASCSIM_BUILD_EXAMPLES=ON -DASCSIM_BUILD_BENCHMARKS=ON ${CMAKE_EXTRA_ARGS:-} >/dev/null
cmake --build "$BUILD_DIR" -j "$(nproc)"
