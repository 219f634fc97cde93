#!/bin/bash
# Builds and runs this AclNN invocation program against the installed operator package, as the
# official AclNNInvocation run.sh scripts do: data from scripts/gen_data.py, the program built
# with CMake against $DDK_PATH (the toolkit) and its opp/vendors/customize/op_api, the output
# checked by scripts/verify_result.py.
CURRENT_DIR=$(
    cd $(dirname ${BASH_SOURCE:-$0})
    pwd
)

if [ -n "$ASCEND_INSTALL_PATH" ]; then
    _ASCEND_INSTALL_PATH=$ASCEND_INSTALL_PATH
elif [ -n "$ASCEND_HOME_PATH" ]; then
    _ASCEND_INSTALL_PATH=$ASCEND_HOME_PATH
else
    _ASCEND_INSTALL_PATH=$HOME/Ascend/ascend-toolkit/latest
fi
source $_ASCEND_INSTALL_PATH/bin/setenv.bash
export DDK_PATH=$_ASCEND_INSTALL_PATH
export NPU_HOST_LIB=$_ASCEND_INSTALL_PATH/$(arch)-$(uname -s | tr '[:upper:]' '[:lower:]')/lib64

function main {
    cd $CURRENT_DIR
    rm -rf input output build
    mkdir -p input output build
    python3 scripts/gen_data.py || { echo "[ERROR]: Generate input data failed!"; return 1; }
    echo "[INFO]: Generate input data success!"

    cd build
    cmake ../src -DCMAKE_SKIP_RPATH=TRUE || { echo "[ERROR]: Cmake failed!"; return 1; }
    make || { echo "[ERROR]: Make failed!"; return 1; }
    echo "[INFO]: Make success!"

    export LD_LIBRARY_PATH=$_ASCEND_INSTALL_PATH/opp/vendors/customize/op_api/lib:$LD_LIBRARY_PATH
    cd $CURRENT_DIR/output
    echo "[INFO]: Execute op!"
    ./execute_op || { echo "[ERROR]: Acl executable run failed! please check your project!"; return 1; }
    echo "[INFO]: Acl executable run success!"

    cd $CURRENT_DIR
    python3 scripts/verify_result.py || { echo "[ERROR]: Verify result failed!"; return 1; }
}

main
