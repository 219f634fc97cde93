# The ASC language's compiler: ascsim-cc (bisheng's stand-in), beside this toolkit.
if(NOT ASCSIM_TOOLKIT_ROOT)
  get_filename_component(ASCSIM_TOOLKIT_ROOT "${CMAKE_CURRENT_LIST_DIR}/../../../.." ABSOLUTE)
endif()
set(CMAKE_ASC_COMPILER "${ASCSIM_TOOLKIT_ROOT}/bin/ascsim-cc" CACHE FILEPATH "ASC compiler")
if(NOT EXISTS "${CMAKE_ASC_COMPILER}")
  message(FATAL_ERROR "ASC compiler not found: ${CMAKE_ASC_COMPILER} (reinstall ascsim)")
endif()
mark_as_advanced(CMAKE_ASC_COMPILER)
set(CMAKE_ASC_SOURCE_FILE_EXTENSIONS asc)
set(CMAKE_ASC_COMPILER_ENV_VAR "ASC")
configure_file(${CMAKE_CURRENT_LIST_DIR}/CMakeASCCompiler.cmake.in
  ${CMAKE_PLATFORM_INFO_DIR}/CMakeASCCompiler.cmake @ONLY)
