#!/usr/bin/env bash
# The test command: installs what is missing, builds, runs the C++ suite (GoogleTest + examples
# through ctest), the Python suite (pytest against NumPy) and the PyTorch suite (ascsim.torch with
# the pinned CPU torch, in a venv kept in the build folder: scripts/torch_tests.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_deps.sh
bash scripts/build.sh
BUILD_DIR="${BUILD_DIR:-build}"
echo "== C++ tests (ctest) =="
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$(nproc)"
# pytest-xdist spreads the test files over the cores (--dist loadfile: the tests of one file stay in
# one process, in order), as ctest -j does for the C++ side.
echo "== Python tests (pytest, /usr/bin/python3, $(nproc) processes) =="
PYTHONPATH="$PWD/$BUILD_DIR/python" /usr/bin/python3 -m pytest tests/python -q -p no:cacheprovider \
  -n "$(nproc)" --dist loadfile
# The shipped kernels from Python under every sanitizer check (the C++ side: ctest -L sanitize).
echo "== Python kernel tests under ASCSIM_SANITIZE=all =="
ASCSIM_SANITIZE=all PYTHONPATH="$PWD/$BUILD_DIR/python" /usr/bin/python3 -m pytest \
  tests/python/test_add.py tests/python/test_gelu.py tests/python/test_faults.py \
  tests/python/test_seed.py tests/python/test_gelu_backward.py tests/python/test_rms_norm.py \
  -q -p no:cacheprovider
echo "== PyTorch tests (ascsim.torch, torch==2.13.0 in $BUILD_DIR/torch-venv) =="
BUILD_DIR="$BUILD_DIR" bash scripts/torch_tests.sh
