# ctest driver of the custom-operator projects (toolkit/opp/opp.cmake). SAMPLE_DIR holds one
# project in the official FrameworkLaunch layout: <Op>.json, <Op>/ (the skeleton msopgen writes,
# op_host, op_kernel) and AclNNInvocation/ (run.sh, scripts/, src/). It is copied to WORK_DIR and,
# in the environment of PREFIX/bin/setenv.bash as a user has it, run by its own scripts:
#
#   bash build.sh; build_out/custom_opp_<os>_<arch>.run; (cd AclNNInvocation && bash run.sh)
#
# which passes when each step succeeds and run.sh prints the verify script's "test pass".
#
# With -DBREAK=<case> the project is broken first and the build must fail with the one line
# EXPECT (a regular expression) on its output:
#   no_opdef      the op_host source registers no operator (its OP_ADD removed)
#   kernel_error  the kernel source does not compile
#   bad_json      `msopgen gen` of a damaged operator JSON
#   tpl_bad_sel   (a template kernel) its ASCENDC_TPL_SEL selects a value ASCENDC_TPL_ARGS_DECL
#                 does not declare
#
#   -DPREFIX= -DSAMPLE_DIR= -DOP= -DWORK_DIR= [-DPYTHON_DIR=] [-DBREAK= -DEXPECT=]
foreach(var PREFIX SAMPLE_DIR OP WORK_DIR)
  if(NOT ${var})
    message(FATAL_ERROR "${var} is not set")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
file(COPY "${SAMPLE_DIR}/" DESTINATION "${WORK_DIR}")
foreach(var ASCEND_INSTALL_PATH ASCEND_TOOLKIT_HOME ASCEND_HOME_PATH ASCEND_OPP_PATH
            ASCEND_CUSTOM_OPP_PATH CMAKE_PREFIX_PATH ASCSIM_SOC ASCSIM_TRACE)
  unset(ENV{${var}})
endforeach()
if(PYTHON_DIR)
  set(ENV{PATH} "${PYTHON_DIR}:$ENV{PATH}")
endif()

string(REGEX REPLACE "([a-z0-9])([A-Z])" "\\1_\\2" _snake "${OP}")
string(TOLOWER "${_snake}" _snake)
if(BREAK STREQUAL "no_opdef")
  set(_f "${WORK_DIR}/${OP}/op_host/${_snake}.cpp")
  file(READ "${_f}" _text)
  string(REGEX REPLACE "OP_ADD\\([A-Za-z0-9_]+\\);" "" _text "${_text}")
  file(WRITE "${_f}" "${_text}")
elseif(BREAK STREQUAL "kernel_error")
  file(APPEND "${WORK_DIR}/${OP}/op_kernel/${_snake}.cpp" "\nint ascsim_broken = ;\n")
elseif(BREAK STREQUAL "bad_json")
  file(WRITE "${WORK_DIR}/${OP}.json" "[{\"op\": \"${OP}\", \"input_desc\": [\n")
elseif(BREAK STREQUAL "tpl_bad_sel")
  set(_f "${WORK_DIR}/${OP}/op_kernel/${_snake}_tpl.h")
  file(READ "${_f}" _text)
  string(REPLACE "ASCENDC_TPL_UINT_SEL(TILES, ASCENDC_TPL_UI_LIST, 2)"
                 "ASCENDC_TPL_UINT_SEL(TILES, ASCENDC_TPL_UI_LIST, 3)" _text "${_text}")
  file(WRITE "${_f}" "${_text}")
elseif(BREAK)
  message(FATAL_ERROR "unknown BREAK ${BREAK}")
endif()

if(BREAK STREQUAL "bad_json")
  set(_script "
source '${PREFIX}/bin/setenv.bash'
cd '${WORK_DIR}'
msopgen gen -i ${OP}.json -c ai_core-Ascend910B1 -lan cpp -out regenerated
")
elseif(BREAK)
  set(_script "
source '${PREFIX}/bin/setenv.bash'
cd '${WORK_DIR}/${OP}'
bash build.sh -j 2
")
else()
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
endif()
execute_process(COMMAND bash -c "${_script}" RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE out)
message("${out}")
if(BREAK)
  if(rc EQUAL 0)
    message(FATAL_ERROR "${OP} (${BREAK}): the build succeeded")
  endif()
  if(NOT out MATCHES "${EXPECT}")
    message(FATAL_ERROR "${OP} (${BREAK}): no line matching '${EXPECT}'")
  endif()
  return()
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${OP}: a step failed (exit ${rc})")
endif()
if(NOT out MATCHES "test pass")
  message(FATAL_ERROR "${OP}: run.sh did not print 'test pass'")
endif()
