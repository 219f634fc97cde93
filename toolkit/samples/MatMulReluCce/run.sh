#!/bin/bash
# Builds and runs this kernel-invocation project the way the 2023 CCE samples do, then checks the
# output against the golden data:
#   bash run.sh <file_name> <soc: ascend910|ascend310p> <core: AiCore|VectorCore> <mode: cpu|npu>
#   e.g. bash run.sh matmul_relu_custom ascend310p AiCore cpu
# The toolkit is $ASCEND_HOME_DIR (its environment already set up, e.g. by its set_env.sh); when
# that is unset, /usr/local/Ascend/ascend-toolkit/latest, whose ../set_env.sh is sourced.
# Prints "test pass" and exits 0 when every element of output/output.bin matches the golden data.
CURRENT_DIR=$(cd "$(dirname "${BASH_SOURCE:-$0}")" && pwd)
cd "$CURRENT_DIR" || exit 1

rm -rf build input/*.bin output/*.bin ./*_cpu ./*_npu

declare -A VersionMap
VersionMap["ascend910"]="Ascend910A"
VersionMap["ascend310p"]="Ascend310P1"

if [ -z "$ASCEND_HOME_DIR" ]; then
    ASCEND_HOME_DIR=/usr/local/Ascend/ascend-toolkit/latest
    source "$ASCEND_HOME_DIR/../set_env.sh" ||
        { echo "ERROR: no toolkit: set ASCEND_HOME_DIR or install one at $ASCEND_HOME_DIR"; exit 1; }
fi

FILE_NAME=$1
if [ -z "$FILE_NAME" ] || [ ! -f "$FILE_NAME.cpp" ] || [ ! -f "$FILE_NAME.py" ]; then
    echo "ERROR: the first argument must name the kernel file without .cpp (e.g. matmul_relu_custom)"
    exit 1
fi

SOC_VERSION=$2
if [ -z "${VersionMap[$SOC_VERSION]}" ]; then
    echo "ERROR: SOC_VERSION '$SOC_VERSION' is not one of: ${!VersionMap[*]}"
    exit 1
fi
export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:$ASCEND_HOME_DIR/tools/tikicpulib/lib/${VersionMap[$SOC_VERSION]}:$ASCEND_HOME_DIR/toolkit/tools/simulator/${VersionMap[$SOC_VERSION]}/lib

CORE_TYPE=${3:-AiCore}
case "$CORE_TYPE" in
AiCore) ;;
VectorCore)
    # the vector core has no Cube unit (no L1, L0A/L0B/L0C): this kernel needs the AI core
    echo "ERROR: $FILE_NAME runs on the Cube unit, which only the AiCore has"
    exit 1 ;;
*)
    echo "ERROR: CORE_TYPE '$CORE_TYPE' is not AiCore or VectorCore"
    exit 1 ;;
esac

RUN_MODE=${4:-cpu}
if [ "$RUN_MODE" != "cpu" ] && [ "$RUN_MODE" != "npu" ]; then
    echo "ERROR: RUN_MODE '$RUN_MODE' is not cpu or npu"
    exit 1
fi

# input/*.bin and output/golden.bin
python3 "$FILE_NAME.py" || { echo "ERROR: $FILE_NAME.py failed"; exit 1; }

mkdir -p build
(
    cd build &&
    cmake .. \
        -Dsmoke_testcase="$FILE_NAME" \
        -Dproduct_type="$SOC_VERSION" \
        -Dcore_type="$CORE_TYPE" \
        -Dinstall_path="$ASCEND_HOME_DIR" &&
    make "${FILE_NAME}_${RUN_MODE}" VERBOSE=1
) || { echo "ERROR: compiling ${FILE_NAME}_${RUN_MODE} failed"; exit 1; }
echo "INFO: compiled ${FILE_NAME}_${RUN_MODE}"

"./${FILE_NAME}_${RUN_MODE}" || { echo "ERROR: ${FILE_NAME}_${RUN_MODE} failed"; exit 1; }
echo "INFO: ${FILE_NAME}_${RUN_MODE} ran"

echo "md5sum:"
md5sum output/*.bin
python3 verify_result.py output/output.bin output/golden.bin
