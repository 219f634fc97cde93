# ctest fixture: a fresh `cmake --install BUILD_DIR --prefix PREFIX` (the toolkit the sample tests
# run against).
file(REMOVE_RECURSE "${PREFIX}")
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${PREFIX}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${rc}):\n${out}\n${err}")
endif()
foreach(f bin/setenv.bash bin/ascsim-launch-transform compiler/tikcpp/ascendc_kernel_cmake/ascendc.cmake
          tools/tikicpulib/lib/cmake/tikicpulib/tikicpulib-config.cmake lib64/libascendcl.so
          lib64/libc_sec.so lib64/libregister.so runtime/include/acl/acl.h runtime/lib64/stub
          tools/tikcpp/ascendc_kernel_cmake/ascendc.cmake include/securec.h)
  if(NOT EXISTS "${PREFIX}/${f}")
    message(FATAL_ERROR "the install lacks ${PREFIX}/${f}")
  endif()
endforeach()
