#!/bin/bash
# Builds and runs this .asc project (asc-devkit's ASC CMake language) in the official scripts'
# way: bash run.sh -r cpu|sim|npu -v <SOC_VERSION> [-i <toolkit>]. The SoC picks the architecture
# (Ascend910B* -> dav-2201, Ascend310P* -> dav-2002); the toolkit is found as in the kernel-launch
# samples (-i, $ASCEND_INSTALL_PATH, $ASCEND_HOME_PATH, the default install folders).
CURRENT_DIR=$(cd "$(dirname "${BASH_SOURCE:-$0}")" && pwd)
cd "$CURRENT_DIR" || exit 1

RUN_MODE=""
SOC_VERSION=""
OPTS=$(getopt -a --options r:,v:,i: --longoptions run-mode:,soc-version:,install-path: -- "$@") || exit 1
eval set -- "$OPTS"
while :; do
    case "$1" in
    -r | --run-mode) RUN_MODE="$2"; shift 2 ;;
    -v | --soc-version) SOC_VERSION="$2"; shift 2 ;;
    -i | --install-path) ASCEND_INSTALL_PATH="$2"; shift 2 ;;
    --) shift; break ;;
    *) echo "[ERROR] Unexpected option: $1"; exit 1 ;;
    esac
done
case "$RUN_MODE" in cpu | sim | npu) ;; *) echo "ERROR: RUN_MODE should be one of [cpu sim npu]"; exit 1 ;; esac
case "$SOC_VERSION" in
Ascend910B1 | Ascend910B2 | Ascend910B3 | Ascend910B4) NPU_ARCH=dav-2201 ;;
Ascend310P1 | Ascend310P3) NPU_ARCH=dav-2002 ;;
*) echo "ERROR: SOC_VERSION should be one of [Ascend910B1..B4 Ascend310P1 Ascend310P3]"; exit 1 ;;
esac

if [ -n "$ASCEND_INSTALL_PATH" ]; then
    _ASCEND_INSTALL_PATH=$ASCEND_INSTALL_PATH
elif [ -n "$ASCEND_HOME_PATH" ]; then
    _ASCEND_INSTALL_PATH=$ASCEND_HOME_PATH
elif [ -d "$HOME/Ascend/ascend-toolkit/latest" ]; then
    _ASCEND_INSTALL_PATH=$HOME/Ascend/ascend-toolkit/latest
else
    _ASCEND_INSTALL_PATH=/usr/local/Ascend/ascend-toolkit/latest
fi
source "${_ASCEND_INSTALL_PATH}/bin/setenv.bash"

if [ "${RUN_MODE}" = "sim" ]; then
    if [ -z "$CAMODEL_LOG_PATH" ]; then
        export CAMODEL_LOG_PATH=${CURRENT_DIR}/sim_log
    fi
    rm -rf "$CAMODEL_LOG_PATH"
    mkdir -p "$CAMODEL_LOG_PATH"
fi

set -e
rm -rf build
mkdir -p build
cd build
cmake -DCMAKE_ASC_RUN_MODE="${RUN_MODE}" -DCMAKE_ASC_ARCHITECTURES="${NPU_ARCH}" ..
make -j
python3 ../scripts/gen_data.py
./demo
python3 ../scripts/verify_result.py output/output.bin output/golden.bin
