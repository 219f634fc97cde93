# ctest driver: install the build tree into PREFIX, then build and run (1) a CMake project that only
# does find_package(ascsim) against that prefix and (2) the same program with plain g++ and
# pkg-config (PKG_CONFIG_PATH=PREFIX/lib/pkgconfig), the way a Makefile user would.
foreach(var BUILD_DIR PREFIX SRC_DIR BIN_DIR CXX_COMPILER)
  if(NOT ${var})
    message(FATAL_ERROR "${var} is not set")
  endif()
endforeach()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "failed (${rc}): ${cmd}\n${out}\n${err}")
  endif()
  set(RUN_OUTPUT "${out}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${PREFIX} ${BIN_DIR})
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${PREFIX})

# (1) find_package(ascsim)
run(${CMAKE_COMMAND} -S ${SRC_DIR} -B ${BIN_DIR}/cmake -DCMAKE_PREFIX_PATH=${PREFIX}
    -DCMAKE_CXX_COMPILER=${CXX_COMPILER} -DCMAKE_BUILD_TYPE=Release)
run(${CMAKE_COMMAND} --build ${BIN_DIR}/cmake -j 2)
run(${BIN_DIR}/cmake/consumer)
message(STATUS "find_package consumer: ${RUN_OUTPUT}")

# (2) g++ $(pkg-config --cflags --libs ascsim)
find_program(PKG_CONFIG pkg-config)
if(PKG_CONFIG)
  set(ENV{PKG_CONFIG_PATH} ${PREFIX}/lib/pkgconfig)
  run(${PKG_CONFIG} --cflags --libs ascsim)
  string(STRIP "${RUN_OUTPUT}" flags)
  separate_arguments(flags UNIX_COMMAND "${flags}")
  run(${CXX_COMPILER} -O1 ${SRC_DIR}/../subproject/main.cpp ${flags} -o ${BIN_DIR}/consumer_pc)
  run(${BIN_DIR}/consumer_pc)
  message(STATUS "pkg-config consumer: ${RUN_OUTPUT}")
  # (3) the old libstdc++ ABI, as CANN's samples build host code (-D_GLIBCXX_USE_CXX11_ABI=0):
  # no std::string crosses from kernel or host code into libascsim, so this links and runs.
  file(GLOB leaky_relu ${SRC_DIR}/../../examples/leaky_relu/*.cpp)
  run(${CXX_COMPILER} -O1 -D_GLIBCXX_USE_CXX11_ABI=0 ${leaky_relu} ${flags}
      -o ${BIN_DIR}/leaky_relu_old_abi)
  run(${BIN_DIR}/leaky_relu_old_abi)
  message(STATUS "old-ABI consumer: ${RUN_OUTPUT}")
else()
  message(WARNING "pkg-config not found: the pkg-config consumer was not built")
endif()
