# ctest driver for the sample projects (toolkit/CMakeLists.txt): copies SAMPLE_DIR to a fresh
# WORK_DIR and runs its own `bash run.sh -r MODE -v SOC` against the toolkit installed in PREFIX,
# as a user would (ASCEND_HOME_PATH=PREFIX, nothing else set up). Passes when run.sh succeeds and
# prints the project's "test pass"; in sim mode the trace and summary must be in ./sim_log.
#   -DPREFIX= -DSAMPLE_DIR= -DWORK_DIR= -DMODE=cpu|npu|sim -DSOC= [-DPYTHON_DIR=]
#   [-DENV=NAME=VALUE;...] [-DEXPECT=<text the output must contain>]
#   [-DDEFAULT_LOCATION_FROM=<build dir>]: instead, install that build into
#     $HOME/Ascend/ascend-toolkit/latest of a fresh HOME and run with no variable pointing at it
#   [-DFILE_NAME=<kernel file> [-DCORE_TYPE=AiCore|VectorCore]]: the 2023 CCE samples' interface
#     instead, `bash run.sh FILE_NAME SOC CORE_TYPE MODE` (SOC ascend910|ascend310p, MODE cpu|npu)
#     with ASCEND_HOME_DIR=PREFIX, in the environment of PREFIX/bin/setenv.bash (as a user who pointed
#     ASCEND_HOME_DIR at a toolkit has sourced it: it puts ccec on PATH)
foreach(var PREFIX SAMPLE_DIR WORK_DIR MODE SOC)
  if(NOT ${var})
    message(FATAL_ERROR "${var} is not set")
  endif()
endforeach()

file(REMOVE_RECURSE "${WORK_DIR}")
get_filename_component(_parent "${WORK_DIR}" DIRECTORY)
file(MAKE_DIRECTORY "${_parent}")
file(COPY "${SAMPLE_DIR}/" DESTINATION "${WORK_DIR}")

# A clean environment for the toolkit: only what a user would have before `source setenv.bash`.
foreach(var ASCEND_INSTALL_PATH ASCEND_TOOLKIT_HOME ASCEND_HOME_DIR CAMODEL_LOG_PATH
            CMAKE_PREFIX_PATH ASCSIM_SOC ASCSIM_TRACE ASCSIM_STRICT ASCSIM_SANITIZE)
  unset(ENV{${var}})
endforeach()
if(DEFAULT_LOCATION_FROM)
  set(_home "${WORK_DIR}_home")
  file(REMOVE_RECURSE "${_home}")
  execute_process(COMMAND ${CMAKE_COMMAND} --install "${DEFAULT_LOCATION_FROM}"
                          --prefix "${_home}/Ascend/ascend-toolkit/latest"
                  RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cmake --install into ${_home} failed: ${err}")
  endif()
  set(ENV{HOME} "${_home}")
  unset(ENV{ASCEND_HOME_PATH})
elseif(FILE_NAME)
  set(ENV{ASCEND_HOME_DIR} "${PREFIX}")
  unset(ENV{ASCEND_HOME_PATH})
else()
  set(ENV{ASCEND_HOME_PATH} "${PREFIX}")
endif()
if(PYTHON_DIR)  # run.sh calls `python3`: the one with numpy
  set(ENV{PATH} "${PYTHON_DIR}:$ENV{PATH}")
endif()
foreach(assignment IN LISTS ENV)
  string(FIND "${assignment}" "=" _eq)
  string(SUBSTRING "${assignment}" 0 ${_eq} _name)
  math(EXPR _eq "${_eq} + 1")
  string(SUBSTRING "${assignment}" ${_eq} -1 _value)
  set(ENV{${_name}} "${_value}")
endforeach()

if(FILE_NAME)
  if(NOT CORE_TYPE)
    set(CORE_TYPE AiCore)
  endif()
  set(_args ${FILE_NAME} ${SOC} ${CORE_TYPE} ${MODE})
  set(_command bash -c [[source "$0/bin/setenv.bash" && exec bash run.sh "$@"]] "${PREFIX}" ${_args})
else()
  set(_args -r ${MODE} -v ${SOC})
  set(_command bash run.sh ${_args})
endif()
string(REPLACE ";" " " _args "${_args}")
execute_process(COMMAND ${_command}
  WORKING_DIRECTORY "${WORK_DIR}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
file(WRITE "${WORK_DIR}/run.log" "${out}\n--- stderr ---\n${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "run.sh ${_args} failed (${rc}); log ${WORK_DIR}/run.log\n"
                      "${out}\n${err}")
endif()
if(NOT out MATCHES "test pass")
  message(FATAL_ERROR "run.sh did not print 'test pass'; log ${WORK_DIR}/run.log\n${out}")
endif()
if(EXPECT AND NOT "${out}${err}" MATCHES "${EXPECT}")
  message(FATAL_ERROR "output lacks '${EXPECT}'; log ${WORK_DIR}/run.log\n${out}\n${err}")
endif()
if(MODE STREQUAL "sim")
  foreach(f ascsim_trace.json ascsim_summary.txt op_summary.csv)
    if(NOT EXISTS "${WORK_DIR}/sim_log/${f}")
      message(FATAL_ERROR "sim mode left no ${WORK_DIR}/sim_log/${f}\n${err}")
    endif()
  endforeach()
  file(READ "${WORK_DIR}/sim_log/ascsim_trace.json" trace LIMIT 200)
  if(NOT trace MATCHES "traceEvents")
    message(FATAL_ERROR "sim_log/ascsim_trace.json is not a Chrome trace: ${trace}")
  endif()
  # msprof's op_summary: its header names and one row per launch with a Task Duration.
  file(STRINGS "${WORK_DIR}/sim_log/op_summary.csv" csv)
  list(LENGTH csv csv_lines)
  list(GET csv 0 header)
  if(csv_lines LESS 2 OR NOT header MATCHES "^Op Name,OP Type,Task Type,Task Start Time\\(us\\),Task Duration\\(us\\)"
     OR NOT header MATCHES "Block Dim" OR NOT header MATCHES "aiv_mte2_time\\(us\\),aiv_mte2_ratio")
    message(FATAL_ERROR "sim_log/op_summary.csv is not msprof's op_summary: ${csv}")
  endif()
endif()
message(STATUS "run.sh ${_args}: test pass")
