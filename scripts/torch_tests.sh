#!/usr/bin/env bash
# The PyTorch stage of the test command: ascsim.torch's tests (tests/python/test_torch_*.py,
# examples/torch through test_torch_examples.py, `pip install '.[torch]'` into a fresh venv through
# test_torch_pip_install.py) with the pinned CPU torch.
#
# torch lives in a venv made from Debian's /usr/bin/python3 with --system-site-packages (so it sees
# Debian's NumPy and pytest-xdist; the project's packages come from the build tree by PYTHONPATH),
# kept in the build folder: a rerun reuses it, and only a missing venv or another torch version
# reinstalls. torch is always installed pinned (`pip install torch==2.13.0`): an unpinned torch is a
# multi-GB CUDA build.
# ASCSIM_SKIP_TORCH=1 skips the stage (a machine that reaches no package index).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${BUILD_DIR:-build}"
TORCH_VERSION=2.13.0
if [ "${ASCSIM_SKIP_TORCH:-0}" = 1 ]; then
  echo "PyTorch tests skipped (ASCSIM_SKIP_TORCH=1)"
  exit 0
fi
VENV="$PWD/$BUILD_DIR/torch-venv"
start=$(date +%s)
if ! "$VENV/bin/python" -c "import torch, sys; sys.exit(torch.__version__.split('+')[0] != '$TORCH_VERSION')" 2>/dev/null; then
  echo "installing torch==$TORCH_VERSION into $VENV"
  rm -rf "$VENV"
  /usr/bin/python3 -m venv --system-site-packages "$VENV"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check "torch==$TORCH_VERSION"
fi
installed=$(date +%s)
echo "torch $("$VENV/bin/python" -c 'import torch; print(torch.__version__)') ready in $((installed - start)) s"
ASCSIM_TEST_PIP=1 ASCSIM_PIP_FROM_BUILD="$PWD/$BUILD_DIR" PYTHONPATH="$PWD/$BUILD_DIR/python" \
  "$VENV/bin/python" -m pytest tests/python/test_torch_*.py -q -p no:cacheprovider -rs \
  -n "$(nproc)" --dist loadfile
echo "PyTorch tests took $(($(date +%s) - installed)) s"
