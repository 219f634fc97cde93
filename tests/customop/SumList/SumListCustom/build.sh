#!/bin/bash
# Builds this custom-operator project against an installed ascsim toolkit (the skeleton was
# written by ascsim's msopgen) into build_out/custom_opp_<os>_<arch>.run.
# Needs ASCEND_HOME_PATH: source <toolkit>/bin/setenv.bash first. `bash build.sh -j N` runs N
# compiles at a time (default: the processor count).
if [ -z "$ASCEND_HOME_PATH" ]; then
  if [ -n "$ASCEND_CANN_PACKAGE_PATH" ]; then
    export ASCEND_HOME_PATH=$ASCEND_CANN_PACKAGE_PATH
  else
    echo "please set env (source <toolkit>/bin/setenv.bash)."
    exit 1
  fi
fi
echo "using ASCEND_HOME_PATH: $ASCEND_HOME_PATH"
script_path=$(cd "$(dirname "$0")" && pwd)
jobs=$(nproc 2>/dev/null || echo 2)
while [ $# -gt 0 ]; do
  case "$1" in
    -j) jobs=$2; shift 2 ;;
    -j*) jobs=${1#-j}; shift ;;
    *) shift ;;
  esac
done
mkdir -p "$script_path/build_out"
rm -rf "$script_path/build_out"/*
cd "$script_path/build_out" || exit 1
cmake .. --preset=default -DASCEND_CANN_PACKAGE_PATH="$ASCEND_HOME_PATH" || exit 1
cmake --build . -j "$jobs" || { echo "[ERROR] build failed"; exit 1; }
cmake --build . --target ascsim_run_package || { echo "[ERROR] packaging failed"; exit 1; }
