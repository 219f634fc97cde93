# find_package(ASC) for ascsim's toolkit: asc-devkit's ASC CMake language (.asc sources, compiled
# by bisheng in CANN), here compiled by ascsim-cc for the simulated grid. Installed as
# <P>/lib64/cmake/asc-config.cmake (setenv.bash puts that folder on CMAKE_PREFIX_PATH).
#
#   set(CMAKE_ASC_ARCHITECTURES dav-2201)      # dav-2201 (A2), dav-2002 (310P), dav-3510
#   find_package(ASC REQUIRED)
#   project(demo LANGUAGES ASC CXX)
#   add_executable(demo add.asc)               # kernels and main in one file, <<<>>> launches
#
# -DCMAKE_ASC_RUN_MODE=cpu|npu|sim as in asc-devkit (cpu: ASCENDC_CPU_DEBUG; sim: the cost model
# on, the trace and summary in $CAMODEL_LOG_PATH, default the working directory, at exit).
get_filename_component(_ascsim_asc_root "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
list(APPEND CMAKE_MODULE_PATH "${_ascsim_asc_root}/share/ascsim/toolkit/asc_modules")
set(ASCSIM_TOOLKIT_ROOT "${_ascsim_asc_root}")
set(ASC_FOUND TRUE)
