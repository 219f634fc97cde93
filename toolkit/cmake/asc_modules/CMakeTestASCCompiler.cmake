# ascsim-cc wraps the C++ compiler CMake has already checked.
set(CMAKE_ASC_COMPILER_WORKS 1 CACHE INTERNAL "")
