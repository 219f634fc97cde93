# ctest driver: configure and build tests/subproject against this checkout in BIN_DIR (one
# build, only the consumer target and what it needs), then run it.
foreach(var SRC_DIR BIN_DIR ASCSIM_ROOT CXX_COMPILER)
  if(NOT ${var})
    message(FATAL_ERROR "${var} is not set")
  endif()
endforeach()
execute_process(
  COMMAND ${CMAKE_COMMAND} -S ${SRC_DIR} -B ${BIN_DIR} -DASCSIM_ROOT=${ASCSIM_ROOT}
          -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_BUILD_TYPE=Release
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the subproject failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BIN_DIR} --target consumer -j 2
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the subproject failed (${rc})")
endif()
execute_process(COMMAND ${BIN_DIR}/consumer RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the consumer program failed (${rc})")
endif()
