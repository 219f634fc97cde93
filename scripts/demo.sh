#!/usr/bin/env bash
# The demo: installs what is missing, builds, runs the seed's [8, 2048] float16 add and the GELU
# from Python against NumPy, then the C++ ACL host program and the CPU-twin program.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install_deps.sh
bash scripts/build.sh
BUILD_DIR="${BUILD_DIR:-build}"
echo "== Python: import add_custom =="
PYTHONPATH="$PWD/$BUILD_DIR/bindings" /usr/bin/python3 examples/python/demo.py
echo "== C++: ACL host program (examples/acl_add) =="
"$BUILD_DIR/examples/example_acl_add"
echo "== C++: CPU-twin program (examples/cpu_twin_add) =="
"$BUILD_DIR/examples/example_cpu_twin_add"
