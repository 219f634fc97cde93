# The build of a custom-operator project whose skeleton ascsim's msopgen wrote (docs/custom_ops.md).
# Included from the project's CMakeLists.txt with ASCEND_CANN_PACKAGE_PATH (the installed
# toolkit), ASCEND_COMPUTE_UNIT (the SoCs, "ascend910b;ascend310p") and vendor_name set by
# CMakePresets.json. The steps are those of CANN's generated project (cmake/func.cmake,
# op_host/CMakeLists.txt, op_kernel/CMakeLists.txt), done by the toolkit's tools:
#
#   configure  the op_host sources compiled into autogen/libascend_all_ops.so (C++11, the old
#              libstdc++ ABI, as CANN's opbuild() does), then
#              `op_build autogen/libascend_all_ops.so autogen`: aclnn_<op>.h/.cpp, op_proto,
#              aic-<soc>-ops-info.ini and the list of kernel variants (ascsim_kernels.cmake)
#   build      libcust_opapi.so (the aclnn API), libcust_opmaster_rt2.0.so (the host library),
#              one `opc` compile per operator, SoC and data-type combination
#   ascsim_run_package   `cmake --install` into _package, then custom_opp_<os>_<arch>.run
#
# A change to an op_host source reconfigures (the variants depend on its OpDef).
cmake_policy(SET CMP0007 NEW)

if(NOT DEFINED ASCEND_CANN_PACKAGE_PATH OR NOT EXISTS "${ASCEND_CANN_PACKAGE_PATH}/include/register/op_def_registry.h")
  message(FATAL_ERROR "ASCEND_CANN_PACKAGE_PATH (${ASCEND_CANN_PACKAGE_PATH}) is not an ascsim "
          "toolkit: install ascsim with `cmake --install <build> --prefix <P>` and source "
          "<P>/bin/setenv.bash")
endif()
if(NOT ASCEND_COMPUTE_UNIT)
  message(FATAL_ERROR "ASCEND_COMPUTE_UNIT is not set (CMakePresets.json lists the SoCs to build for)")
endif()
if(NOT DEFINED vendor_name OR vendor_name STREQUAL "")
  set(vendor_name customize)
endif()

set(_p "${ASCEND_CANN_PACKAGE_PATH}")
set(ASCSIM_OP_BUILD "${_p}/toolkit/tools/opbuild/op_build")
set(ASCSIM_OPC "${_p}/bin/opc")
set(_autogen "${CMAKE_BINARY_DIR}/autogen")
file(MAKE_DIRECTORY "${_autogen}")
set(_vendor_dir "packages/vendors/${vendor_name}")

file(GLOB _ops_srcs "${CMAKE_SOURCE_DIR}/op_host/*.cpp")
file(GLOB _ops_headers "${CMAKE_SOURCE_DIR}/op_host/*.h" "${CMAKE_SOURCE_DIR}/op_host/*.hpp")
if(NOT _ops_srcs)
  message(FATAL_ERROR "no op_host/*.cpp in ${CMAKE_SOURCE_DIR}")
endif()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_ops_srcs} ${_ops_headers})

# ---- configure: the op_host library and op_build (CANN's func.cmake opbuild()) ----
set(_host_flags -fPIC -shared -std=c++11 -D_GLIBCXX_USE_CXX11_ABI=0 -O1
    -I${_p}/include -I${CMAKE_SOURCE_DIR}/op_kernel -I${CMAKE_SOURCE_DIR}/op_host
    -L${_p}/lib64 -lexe_graph -lregister -ltiling_api -Wl,-rpath,${_p}/lib)
message(STATUS "ascsim: compiling op_host for op_build")
execute_process(COMMAND ${CMAKE_CXX_COMPILER} ${_ops_srcs} ${_host_flags}
                        -o ${_autogen}/libascend_all_ops.so
                RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  # The compiler's lines unwrapped (a FATAL_ERROR message is re-wrapped), then one line.
  message("${_out}${_err}")
  message(FATAL_ERROR "ascsim: compiling op_host failed (the compiler's lines are above)")
endif()
execute_process(COMMAND ${ASCSIM_OP_BUILD} ${_autogen}/libascend_all_ops.so ${_autogen}
                RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  string(STRIP "${_out}${_err}" _msg)
  message("${_msg}")  # op_build's one line, unwrapped
  message(FATAL_ERROR "ascsim: op_build failed")
endif()
message(STATUS "${_out}")
include(${_autogen}/ascsim_kernels.cmake)

# ---- the host libraries ----
file(GLOB _aclnn_srcs "${_autogen}/aclnn_*.cpp")
file(GLOB _aclnn_headers "${_autogen}/aclnn_*.h")
add_library(cust_opapi SHARED ${_aclnn_srcs})
target_include_directories(cust_opapi PRIVATE ${_autogen} ${_p}/include)
target_compile_options(cust_opapi PRIVATE -std=c++11 -fvisibility=hidden)
target_compile_definitions(cust_opapi PRIVATE _GLIBCXX_USE_CXX11_ABI=0)
target_link_directories(cust_opapi PRIVATE ${_p}/lib64)
target_link_libraries(cust_opapi PRIVATE ascendcl nnopbase)
set_target_properties(cust_opapi PROPERTIES BUILD_RPATH "${_p}/lib" INSTALL_RPATH "${_p}/lib"
                      LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/op_api/lib)

# The build tree is laid out as the package is (op_api/, op_impl/), so that a program linking
# build_out/op_api/lib/libcust_opapi.so directly (the "-f aclnn" lite flow of the official
# samples, with no .run installed) finds the package it belongs to.
file(COPY ${_aclnn_headers} DESTINATION ${CMAKE_BINARY_DIR}/op_api/include)
set(_tiling_dir ${CMAKE_BINARY_DIR}/op_impl/ai_core/tbe/op_tiling/lib/linux/${CMAKE_SYSTEM_PROCESSOR})
set(_opmaster ${_tiling_dir}/libcust_opmaster_rt2.0.so)
add_custom_command(OUTPUT ${_opmaster}
  COMMAND ${CMAKE_COMMAND} -E make_directory ${_tiling_dir}
  COMMAND ${CMAKE_COMMAND} -E copy ${_autogen}/libascend_all_ops.so ${_opmaster}
  DEPENDS ${_autogen}/libascend_all_ops.so
  COMMENT "ascsim: libcust_opmaster_rt2.0.so")
add_custom_target(cust_optiling ALL DEPENDS ${_opmaster})

# ---- the kernels: one opc compile per operator, SoC and combination ----
set(_full_ascend910b Ascend910B1)
set(_full_ascend910_93 Ascend910_9391)
set(_full_ascend310p Ascend310P3)
set(_full_ascend310b Ascend310B1)
set(_full_ascend910 Ascend910A)
file(GLOB _kernel_deps "${CMAKE_SOURCE_DIR}/op_kernel/*")
set(_kernel_outputs)
set(_kernel_dirs)
foreach(_soc IN LISTS ASCEND_COMPUTE_UNIT)
  string(TOLOWER "${_soc}" _soc)
  set(_full "${_full_${_soc}}")
  if(NOT _full)
    set(_full "${_soc}")
  endif()
  foreach(_op IN LISTS ASCSIM_OP_TYPES)
    if(NOT _soc IN_LIST ASCSIM_OP_SOCS_${_op})
      message(STATUS "ascsim: ${_op} has no AddConfig(\"${_soc}\"): no kernel of it for ${_soc}")
      continue()
    endif()
    set(_file ${ASCSIM_OP_FILE_${_op}})
    set(_src "${CMAKE_SOURCE_DIR}/op_kernel/${_file}.cpp")
    if(NOT EXISTS "${_src}")
      message(FATAL_ERROR "ascsim: the kernel of ${_op} must be op_kernel/${_file}.cpp")
    endif()
    set(_out_dir "${CMAKE_BINARY_DIR}/op_impl/ai_core/tbe/kernel/${_soc}/${_file}")
    list(APPEND _kernel_dirs "${_soc}/${_file}")
    foreach(_bin IN LISTS ASCSIM_KERNELS_${_soc}_${_op})
      add_custom_command(OUTPUT ${_out_dir}/${_bin}.o
        COMMAND ${CMAKE_COMMAND} -E make_directory ${_out_dir}
        COMMAND ${ASCSIM_OPC} ${_src} --main_func=${_file}
                --input_param=${ASCSIM_KERNEL_PARAM_${_soc}_${_bin}} --soc_version=${_full}
                --output=${_out_dir} --ascsim-host-lib=${_autogen}/libascend_all_ops.so
                $<$<CONFIG:Debug>:--op_debug_config=-g>
        DEPENDS ${_kernel_deps} ${_autogen}/libascend_all_ops.so
        COMMENT "opc: ${_op} ${_bin} for ${_soc}")
      list(APPEND _kernel_outputs ${_out_dir}/${_bin}.o)
    endforeach()
  endforeach()
endforeach()
add_custom_target(ascsim_kernels ALL DEPENDS ${_kernel_outputs})

# ---- the package layout (CANN's vendors/<vendor>/...) ----
install(TARGETS cust_opapi LIBRARY DESTINATION ${_vendor_dir}/op_api/lib)
install(FILES ${_aclnn_headers} DESTINATION ${_vendor_dir}/op_api/include)
install(FILES ${_opmaster}
        DESTINATION ${_vendor_dir}/op_impl/ai_core/tbe/op_tiling/lib/linux/${CMAKE_SYSTEM_PROCESSOR})
install(FILES ${_opmaster} RENAME libcust_opsproto_rt2.0.so
        DESTINATION ${_vendor_dir}/op_proto/lib/linux/${CMAKE_SYSTEM_PROCESSOR})
install(FILES ${_autogen}/op_proto.h DESTINATION ${_vendor_dir}/op_proto/inc)
foreach(_soc IN LISTS ASCEND_COMPUTE_UNIT)
  string(TOLOWER "${_soc}" _soc)
  if(EXISTS ${_autogen}/aic-${_soc}-ops-info.ini)
    install(FILES ${_autogen}/aic-${_soc}-ops-info.ini
            DESTINATION ${_vendor_dir}/op_impl/ai_core/tbe/config/${_soc})
  endif()
endforeach()
list(REMOVE_DUPLICATES _kernel_dirs)
foreach(_dir IN LISTS _kernel_dirs)
  install(DIRECTORY ${CMAKE_BINARY_DIR}/op_impl/ai_core/tbe/kernel/${_dir}/
          DESTINATION ${_vendor_dir}/op_impl/ai_core/tbe/kernel/${_dir})
endforeach()
file(GLOB _kernel_srcs "${CMAKE_SOURCE_DIR}/op_kernel/*")
install(FILES ${_kernel_srcs}
        DESTINATION ${_vendor_dir}/op_impl/ai_core/tbe/${vendor_name}_impl/dynamic)

# ---- the .run package ----
execute_process(COMMAND sh -c ". /etc/os-release 2>/dev/null; printf %s \"\${ID:-linux}\""
                OUTPUT_VARIABLE _os_id)
set(_run custom_opp_${_os_id}_${CMAKE_SYSTEM_PROCESSOR}.run)
add_custom_target(ascsim_run_package
  COMMAND ${CMAKE_COMMAND} -E rm -rf ${CMAKE_BINARY_DIR}/_package
  COMMAND ${CMAKE_COMMAND} --install ${CMAKE_BINARY_DIR} --prefix ${CMAKE_BINARY_DIR}/_package
  COMMAND bash ${_p}/share/ascsim/opp/make_run.sh ${CMAKE_BINARY_DIR}/_package
          ${CMAKE_BINARY_DIR}/${_run} ${vendor_name}
  WORKING_DIRECTORY ${CMAKE_BINARY_DIR}
  COMMENT "ascsim: ${_run}")
add_dependencies(ascsim_run_package cust_opapi cust_optiling ascsim_kernels)
