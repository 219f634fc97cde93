# `cmake --install <build> --prefix P` lays out the CANN toolkit shape under P, beside what
# cmake/install.cmake installs (P/include, P/lib/libascsim.so, P/lib/cmake/ascsim):
#
#   P/bin/setenv.bash, P/set_env.sh     environment (ASCEND_HOME_PATH, LD_LIBRARY_PATH, ...)
#   P/bin/ascsim-launch-transform       the <<<>>> rewrite
#   P/bin/msprof                        `msprof op [simulator] APP`: APP with profiling on
#   P/bin/ascsim-cc                     the kernel compiler of the ASC and CCE CMake languages,
#                                       also as P/compiler/ccec_compiler/bin/{bisheng,ccec}
#   P/lib64/cmake/asc-config.cmake      find_package(ASC) (asc-devkit's .asc projects)
#   P/acllib/include                    link to P/include (the older samples' include folder)
#   P/include/securec.h, cpu_debug_launch.h
#   P/lib64/                            libc_sec, the empty libraries, and ascendcl / runtime /
#                                       tiling_api / platform as links to libascsim
#   P/lib64/stub/                       the links again (run.sh -r sim puts runtime/lib64/stub
#                                       first on LD_LIBRARY_PATH)
#   P/runtime/include, P/runtime/lib64  links to P/include and P/lib64, as CANN's runtime folder
#   P/compiler/tikcpp/ascendc_kernel_cmake/ascendc.cmake   ascendc_library & co.
#   P/tools/tikcpp/ascendc_kernel_cmake                    link to it (older toolkits' spelling)
#   P/tools/tikicpulib/lib/cmake/tikicpulib/               find_package(tikicpulib)
#   P/tools/simulator/<SoC>/lib, P/tools/tikicpulib/lib/<SoC>   folders run.sh puts on
#                                       LD_LIBRARY_PATH (nothing needs to be in them)
#   P/share/ascsim/toolkit/             what those CMake files share
include(GNUInstallDirs)

install(TARGETS ascsim-launch-transform ascsim-cc RUNTIME DESTINATION bin)
# msprof: runs a program with profiling on, results where CANN's msprof puts them.
install(PROGRAMS msprof/msprof DESTINATION bin)
install(TARGETS ascsim_c_sec ascsim_runtime_camodel LIBRARY DESTINATION lib64)
foreach(name ${ASCSIM_TOOLKIT_EMPTY_LIBS})
  install(TARGETS ascsim_empty_${name} LIBRARY DESTINATION lib64)
endforeach()
install(FILES securec/securec.h include/cpu_debug_launch.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# The Python ascsim was built with (it has NumPy): setenv.bash's first choice when the first
# python3 on PATH has none.
set(ASCSIM_TOOLKIT_PYTHON "${Python_EXECUTABLE}")
configure_file(env/setenv.bash.in ${CMAKE_CURRENT_BINARY_DIR}/setenv.bash @ONLY)
install(PROGRAMS env/python3 DESTINATION tools/python)
install(PROGRAMS ${CMAKE_CURRENT_BINARY_DIR}/setenv.bash DESTINATION bin)
# P/set_env.sh sources P/bin/setenv.bash (a copy would take P's parent for its root).
install(PROGRAMS env/set_env.sh DESTINATION .)

# The SoC names and their profiles: the runtime's list (src/base/soc_names.inc), so that
# SOC_VERSION and ASCSIM_SOC map a name the same way.
set(_soc_names ${PROJECT_SOURCE_DIR}/src/base/soc_names.inc)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_soc_names})
file(STRINGS ${_soc_names} _soc_rows REGEX "^ASCSIM_SOC_NAME\\(")
set(ASCSIM_SOC_TABLE "")
foreach(_row IN LISTS _soc_rows)
  string(REGEX REPLACE "^ASCSIM_SOC_NAME\\(\"([^\"]*)\", \"([^\"]*)\", \"([^\"]*)\"\\)$"
         "  \"\\1|\\2|\\3\"" _entry "${_row}")
  string(APPEND ASCSIM_SOC_TABLE "${_entry}\n")
endforeach()
configure_file(cmake/ascsim_toolkit.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/ascsim_toolkit.cmake @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/ascsim_toolkit.cmake cmake/ascsim_select_soc.cpp
        DESTINATION share/ascsim/toolkit)
install(FILES cmake/ascendc.cmake DESTINATION compiler/tikcpp/ascendc_kernel_cmake)
install(FILES cmake/tikicpulib-config.cmake DESTINATION tools/tikicpulib/lib/cmake/tikicpulib)
install(FILES cmake/asc-config.cmake DESTINATION lib64/cmake)
install(DIRECTORY cmake/asc_modules DESTINATION share/ascsim/toolkit)

# The folders run.sh adds to LD_LIBRARY_PATH, one per SoC name the official scripts accept.
set(ASCSIM_TOOLKIT_SOC_FOLDERS Ascend910A Ascend910B Ascend910ProA Ascend910ProB
    Ascend910PremiumA Ascend910B1 Ascend910B2 Ascend910B2C Ascend910B3 Ascend910B4 Ascend310P1
    Ascend310P3 Ascend310B1 Ascend310B2 Ascend310B3 Ascend310B4)
foreach(soc ${ASCSIM_TOOLKIT_SOC_FOLDERS})
  install(DIRECTORY DESTINATION tools/simulator/${soc}/lib)
  install(DIRECTORY DESTINATION tools/tikicpulib/lib/${soc})
endforeach()

# Links (relative, so the tree can be moved). libascsim is the ACL runtime, the tiling and
# platform API and the CPU-debug library at once.
set(_lib ${CMAKE_INSTALL_LIBDIR})
install(CODE "
  set(_p \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}\")
  function(_ascsim_link target name)
    get_filename_component(_dir \"\${_p}/\${name}\" DIRECTORY)
    file(MAKE_DIRECTORY \"\${_dir}\")
    file(REMOVE_RECURSE \"\${_p}/\${name}\")
    file(CREATE_LINK \"\${target}\" \"\${_p}/\${name}\" SYMBOLIC)
    message(STATUS \"Installing: \${_p}/\${name} -> \${target}\")
  endfunction()
  foreach(name ascendcl runtime tiling_api platform)
    _ascsim_link(../${_lib}/libascsim.so lib64/lib\${name}.so)
    _ascsim_link(../../${_lib}/libascsim.so lib64/stub/lib\${name}.so)
  endforeach()
  _ascsim_link(../include runtime/include)
  _ascsim_link(../include acllib/include)
  _ascsim_link(../../../bin/ascsim-cc compiler/ccec_compiler/bin/bisheng)
  _ascsim_link(../../../bin/ascsim-cc compiler/ccec_compiler/bin/ccec)
  _ascsim_link(../lib64 runtime/lib64)
  _ascsim_link(../../compiler/tikcpp/ascendc_kernel_cmake tools/tikcpp/ascendc_kernel_cmake)
")
