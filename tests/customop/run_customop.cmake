# ctest driver of the custom-operator projects (toolkit/opp/opp.cmake): copies SAMPLE_DIR (the
# official FrameworkLaunch layout: <Op>.json, <Op>/ with the skeleton msopgen writes, op_host and
# op_kernel, and AclNNInvocation/) to WORK_DIR, adds the invocation program's shared files
# (COMMON_DIR: run.sh, src/CMakeLists.txt, src/aclnn_io.h), then, in the environment of
# PREFIX/bin/setenv.bash as a user has it:
#   bash build.sh; build_out/custom_opp_<os>_<arch>.run; (cd AclNNInvocation && bash run.sh)
# Passes when each step succeeds and run.sh prints the verify script's "test pass".
#   -DPREFIX= -DSAMPLE_DIR= -DCOMMON_DIR= -DOP= -DWORK_DIR= [-DPYTHON_DIR=]
foreach(var PREFIX SAMPLE_DIR COMMON_DIR OP WORK_DIR)
  if(NOT ${var})
    message(FATAL_ERROR "${var} is not set")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
file(COPY "${SAMPLE_DIR}/" DESTINATION "${WORK_DIR}")
file(COPY "${COMMON_DIR}/run.sh" DESTINATION "${WORK_DIR}/AclNNInvocation")
file(COPY "${COMMON_DIR}/CMakeLists.txt" "${COMMON_DIR}/aclnn_io.h"
     DESTINATION "${WORK_DIR}/AclNNInvocation/src")
foreach(var ASCEND_INSTALL_PATH ASCEND_TOOLKIT_HOME ASCEND_HOME_PATH ASCEND_OPP_PATH
            ASCEND_CUSTOM_OPP_PATH CMAKE_PREFIX_PATH ASCSIM_SOC ASCSIM_TRACE)
  unset(ENV{${var}})
endforeach()
if(PYTHON_DIR)
  set(ENV{PATH} "${PYTHON_DIR}:$ENV{PATH}")
endif()
set(_script "
set -e
source '${PREFIX}/bin/setenv.bash'
cd '${WORK_DIR}/${OP}'
start=$(date +%s)
bash build.sh -j 2
echo \"[ascsim-test] build.sh took $(( $(date +%s) - start )) s\"
./build_out/custom_opp_*.run
cd '${WORK_DIR}/AclNNInvocation'
bash run.sh
")
execute_process(COMMAND bash -c "${_script}" RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE out)
message("${out}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${OP}: a step failed (exit ${rc})")
endif()
if(NOT out MATCHES "test pass")
  message(FATAL_ERROR "${OP}: run.sh did not print 'test pass'")
endif()
