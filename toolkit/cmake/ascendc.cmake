# ascendc.cmake for ascsim's toolkit: the CMake functions of CANN's
# compiler/tikcpp/ascendc_kernel_cmake/ascendc.cmake (signatures and behaviour from asc-devkit
# cmake/asc/legacy_modules/function.cmake, host_config.cmake and host_intf.cmake), building
# kernels with g++ for the simulated grid instead of bisheng for the device:
#
#   ascendc_library(<target> SHARED|STATIC|OBJECT <kernel sources...>)
#   ascendc_compile_definitions(<target> <scope> <definitions...>)
#   ascendc_include_directories(<target> <scope> <dirs...>)
#   ascendc_compile_options(<target> <scope> <options...> [-forward-options-to-host-compiler ...])
#   ascendc_fatbin_library(<target> <kernel sources...>)   (a binary for aclrtBinaryLoadFromFile)
#   host_intf_pub                   (interface target for host programs: ACL headers, lib64)
#
# Each kernel source goes through ascsim-launch-transform (<<<>>> launches become launches on the
# simulated grid, with #line pointing at the source), and for every __global__ kernel it defines
# the build generates ${CMAKE_BINARY_DIR}/include/<target>/aclrtlaunch_<kernel>.h and the
# aclrtlaunch_<kernel> launcher, on the include path of whatever links <target>.
#
# RUN_MODE (cpu | npu | sim, default npu) and SOC_VERSION come from the project, as in CANN.
# npu runs the ACL path on the simulated grid; sim is npu with the cost model on (the trace and the
# estimate land in $CAMODEL_LOG_PATH, default the working directory, at exit); cpu defines ASCENDC_CPU_DEBUG
# and __CCE_KT_TEST__ for the kernel sources. See docs/toolkit.md.

include("${CMAKE_CURRENT_LIST_DIR}/../../../share/ascsim/toolkit/ascsim_toolkit.cmake")

if(NOT DEFINED SOC_VERSION)
  message(FATAL_ERROR "SOC_VERSION value not set.")
endif()
ascsim_toolkit_soc_target("${SOC_VERSION}")
ascsim_toolkit_note_soc("${SOC_VERSION}")
if(NOT DEFINED RUN_MODE OR "${RUN_MODE}" STREQUAL "")
  set(RUN_MODE "npu")
endif()
if(NOT RUN_MODE MATCHES "^(cpu|npu|sim)$")
  message(FATAL_ERROR "RUN_MODE '${RUN_MODE}' is not cpu, npu or sim")
endif()
if(NOT DEFINED ASCEND_CANN_PACKAGE_PATH)
  set(ASCEND_CANN_PACKAGE_PATH "${ASCSIM_TOOLKIT_ROOT}")
endif()
if(NOT EXISTS "${ASCSIM_LAUNCH_TRANSFORM}")
  message(FATAL_ERROR "ascsim toolkit: ${ASCSIM_LAUNCH_TRANSFORM} is missing; reinstall ascsim "
                      "(cmake --install)")
endif()

# Host programs link host_intf_pub, as in CANN (host_intf.cmake): the include and library folders
# of the toolkit and the old libstdc++ ABI CANN builds host code with.
if(NOT TARGET host_intf_pub)
  add_library(host_intf_pub INTERFACE)
  target_compile_options(host_intf_pub INTERFACE -fPIC $<$<COMPILE_LANGUAGE:CXX>:-std=c++17>)
  target_compile_definitions(host_intf_pub INTERFACE _GLIBCXX_USE_CXX11_ABI=0)
  target_include_directories(host_intf_pub INTERFACE "${ASCSIM_TOOLKIT_ROOT}/include")
  target_link_directories(host_intf_pub INTERFACE "${ASCSIM_TOOLKIT_ROOT}/lib64")
  target_link_libraries(host_intf_pub INTERFACE ascsim_toolkit::soc_${SOC_VERSION})
endif()

# Rewrites each kernel source of <target_name> into the build tree (ascsim-launch-transform with
# the extra arguments ARGS); sets <out_var> to the rewritten sources and <dirs_var> to the folders
# of the originals (their quote includes must still resolve).
function(_ascsim_transform_sources target_name out_var dirs_var)
  cmake_parse_arguments(T "" "" "ARGS;SOURCES" ${ARGN})
  set(_gen_dir "${CMAKE_BINARY_DIR}/auto_gen/${target_name}")
  file(MAKE_DIRECTORY "${_gen_dir}")
  set(_generated)
  set(_source_dirs)
  set(_seen)
  foreach(_source IN LISTS T_SOURCES)
    get_filename_component(_abs "${_source}" ABSOLUTE)
    get_filename_component(_dir "${_abs}" DIRECTORY)
    get_filename_component(_name "${_abs}" NAME_WE)
    # Two sources with one base name (a/x.cpp, b/x.asc) get distinct outputs.
    set(_out_name "${_name}")
    set(_n 1)
    while(_out_name IN_LIST _seen)
      math(EXPR _n "${_n} + 1")
      set(_out_name "${_name}_${_n}")
    endwhile()
    list(APPEND _seen "${_out_name}")
    set(_out "${_gen_dir}/${_out_name}.cpp")
    set(_command "${ASCSIM_LAUNCH_TRANSFORM}" "${_abs}" -o "${_out}" ${T_ARGS})
    # Once now, so that the aclrtlaunch_<kernel>.h headers exist before anything includes them;
    # again at build time whenever the source changes. A source with errors is reported by the
    # build, where the compiler's messages would be too.
    execute_process(COMMAND ${_command} RESULT_VARIABLE _rc ERROR_VARIABLE _err)
    if(NOT _rc EQUAL 0)
      message(WARNING "ascsim-launch-transform ${_abs}:\n${_err}")
    endif()
    add_custom_command(OUTPUT "${_out}"
      COMMAND ${_command}
      DEPENDS "${_abs}" "${ASCSIM_LAUNCH_TRANSFORM}"
      COMMENT "ascsim: <<<>>> launches and kernel entries for ${_source}"
      VERBATIM)
    list(APPEND _generated "${_out}")
    list(APPEND _source_dirs "${_dir}")
  endforeach()
  list(REMOVE_DUPLICATES _source_dirs)
  set(${out_var} "${_generated}" PARENT_SCOPE)
  set(${dirs_var} "${_source_dirs}" PARENT_SCOPE)
endfunction()

# The start-up code (SoC choice; the cost model in sim mode) compiled into `target_name` with
# `scope` (PRIVATE, or INTERFACE for a static library, whose unreferenced objects the linker drops).
function(_ascsim_add_start_code target_name scope)
  target_sources(${target_name} ${scope} "${ASCSIM_TOOLKIT_SHARE}/ascsim_select_soc.cpp")
  if(RUN_MODE STREQUAL "sim")
    target_compile_definitions(${target_name} ${scope} ASCSIM_TOOLKIT_SIM_MODE=1)
  endif()
endfunction()

function(ascendc_library target_name target_type)
  string(TOUPPER "${target_type}" _type)
  if(NOT _type MATCHES "^(SHARED|STATIC|OBJECT)$")
    message(FATAL_ERROR "target_type ${target_type} does not support, the support list is "
                        "SHARED;STATIC;OBJECT")
  endif()
  if(NOT ARGN)
    message(FATAL_ERROR "ascendc_library(${target_name}): no kernel sources")
  endif()
  set(_inc_dir "${CMAKE_BINARY_DIR}/include/${target_name}")
  file(MAKE_DIRECTORY "${_inc_dir}")
  _ascsim_transform_sources(${target_name} _generated _source_dirs
    ARGS --header-dir "${_inc_dir}" SOURCES ${ARGN})

  add_library(${target_name} ${_type} ${_generated})
  set_target_properties(${target_name} PROPERTIES
    POSITION_INDEPENDENT_CODE ON
    ARCHIVE_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/lib"
    LIBRARY_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/lib")
  # The rewritten sources live in the build tree: quote includes must still find the files
  # beside the originals.
  target_include_directories(${target_name} PRIVATE ${_source_dirs}
    INTERFACE "${_inc_dir}" "${ASCSIM_TOOLKIT_ROOT}/include")
  target_link_libraries(${target_name} PUBLIC ascsim_toolkit::soc_${SOC_VERSION}
    PRIVATE $<BUILD_INTERFACE:host_intf_pub>)
  target_link_directories(${target_name} PUBLIC "${ASCSIM_TOOLKIT_ROOT}/lib64")
  if(RUN_MODE STREQUAL "cpu")
    target_compile_definitions(${target_name} PRIVATE ASCENDC_CPU_DEBUG=1 __CCE_KT_TEST__=1)
  endif()
  if(_type STREQUAL "STATIC")
    _ascsim_add_start_code(${target_name} INTERFACE)
  else()
    _ascsim_add_start_code(${target_name} PRIVATE)
  endif()

  if(NOT _type STREQUAL "OBJECT")
    include(GNUInstallDirs)
    install(TARGETS ${target_name}
      LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
      ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
      RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
    install(DIRECTORY "${CMAKE_BINARY_DIR}/include/" DESTINATION include)
  endif()
endfunction()

function(ascendc_compile_definitions target_name target_scope)
  set(_defs)
  foreach(_def IN LISTS ARGN)
    string(REGEX REPLACE "^-D" "" _def "${_def}")
    if(NOT _def STREQUAL "")
      list(APPEND _defs "${_def}")
    endif()
  endforeach()
  if(_defs)
    target_compile_definitions(${target_name} ${target_scope} ${_defs})
  endif()
endfunction()

function(ascendc_include_directories target_name target_scope)
  set(_dirs)
  foreach(_dir IN LISTS ARGN)
    get_filename_component(_abs "${_dir}" ABSOLUTE)
    list(APPEND _dirs "${_abs}")
  endforeach()
  if(_dirs)
    target_include_directories(${target_name} ${target_scope} ${_dirs})
  endif()
endfunction()

# Options before -forward-options-to-host-compiler are for the kernel compiler (bisheng), after it
# for host code (host_intf_pub), as in CANN. bisheng's device options mean nothing to g++ and are
# left out, said once; the rest apply to the kernel sources.
function(ascendc_compile_options target_name target_scope)
  set(_kernel)
  set(_host)
  set(_dropped)
  set(_to_host FALSE)
  set(_skip_next FALSE)
  foreach(_opt IN LISTS ARGN)
    if(_skip_next)
      list(APPEND _dropped "${_opt}")
      set(_skip_next FALSE)
    elseif(_opt STREQUAL "-forward-options-to-host-compiler")
      set(_to_host TRUE)
    elseif(NOT _to_host AND _opt MATCHES "^--cce-auto-sync(=on|=true)?$")
      # bisheng inserts the scalar pipe flags: the kernels say so to the sanitizer (the
      # declarations ascsim-launch-transform appends compile under this definition).
      target_compile_definitions(${target_name} ${target_scope} ASCSIM_CCE_AUTO_SYNC=1)
    elseif(_to_host)
      list(APPEND _host "${_opt}")
    elseif(_opt MATCHES "^(--cce|-cce|--npu-arch|--aicore|-xcce|-xasc|--asc-|-Xhost|-Xaicore|-fcce|--run-mode|-arch=|--arch=)")
      list(APPEND _dropped "${_opt}")
    elseif(_opt STREQUAL "-mllvm" OR _opt STREQUAL "-Xclang")
      list(APPEND _dropped "${_opt}")
      set(_skip_next TRUE)
    else()
      list(APPEND _kernel "${_opt}")
    endif()
  endforeach()
  if(_kernel)
    target_compile_options(${target_name} ${target_scope} ${_kernel})
  endif()
  if(_host)
    target_compile_options(host_intf_pub INTERFACE ${_host})
  endif()
  if(_dropped)
    list(JOIN _dropped " " _text)
    message(STATUS "ascsim toolkit: ${target_name}: device compiler options not used by g++: "
                   "${_text}")
  endif()
endfunction()

# ascendc_fatbin_library(<target> <sources...>): CANN merges the kernels' device code into
# <CMAKE_INSTALL_PREFIX>/fatbin/<target>/<target>.o at build time, for a host program to load
# with aclrtBinaryLoadFromFile and launch with aclrtBinaryGetFunction and
# aclrtLaunchKernelWithConfig (asc-devkit cmake/asc/legacy_modules/function.cmake). Here that file
# is a shared object built from the same sources, with one entry per non-template kernel
# (ascsim-launch-transform --fatbin-entries), built as ${CMAKE_BINARY_DIR}/fatbin/<target>/
# <target>.o and put in its CANN place by `cmake --install` (the official run.sh installs before
# it runs; building straight into the install folder would make the install remove its own source).
function(ascendc_fatbin_library target_name)
  if(NOT ARGN)
    message(FATAL_ERROR "ascendc_fatbin_library(${target_name}): no kernel sources")
  endif()
  _ascsim_transform_sources(${target_name} _generated _source_dirs
    ARGS --fatbin-entries SOURCES ${ARGN})
  set(_dir "${CMAKE_BINARY_DIR}/fatbin/${target_name}")
  add_library(${target_name} MODULE ${_generated})
  set_target_properties(${target_name} PROPERTIES
    POSITION_INDEPENDENT_CODE ON
    PREFIX ""
    SUFFIX ".o"
    LIBRARY_OUTPUT_DIRECTORY "${_dir}")
  target_include_directories(${target_name} PRIVATE ${_source_dirs} "${ASCSIM_TOOLKIT_ROOT}/include")
  target_link_libraries(${target_name} PRIVATE ascsim_toolkit::soc_${SOC_VERSION}
    $<BUILD_INTERFACE:host_intf_pub>)
  target_link_directories(${target_name} PRIVATE "${ASCSIM_TOOLKIT_ROOT}/lib64")
  _ascsim_add_start_code(${target_name} PRIVATE)
  install(TARGETS ${target_name} LIBRARY DESTINATION fatbin/${target_name})
endfunction()
