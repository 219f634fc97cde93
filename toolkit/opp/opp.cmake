# The custom-operator project tools of the toolkit (docs/custom_ops.md), included from
# toolkit/CMakeLists.txt:
#
#   P/toolkit/tools/opbuild/op_build   CANN's op_build (generated aclnn API, op proto, ops-info)
#   P/bin/opc                          the per-combination kernel compile (g++ against ascsim)
#   P/bin/msopgen                      the project generator (an ascsim skeleton)
#   P/share/ascsim/opp/                the skeleton's build (ascsim_op_project.cmake), the .run
#                                      maker
#   P/python/site-packages/tbe         what CANN's checked-in cmake/util scripts import
#   P/compiler/version.info            what CANN's gen_version_info.sh reads
#   P/lib64/lib{register,exe_graph,nnopbase,acl_op_compiler,opapi,graph}.so -> libascsim,
#   P/lib64/librt2_registry.a (empty)  the names op_host and aclnn programs link
#   P/<arch>-linux/lib64 -> lib64      NPU_HOST_LIB of the AclNNInvocation scripts
#   P/opp/vendors/                     where operator packages install ($ASCEND_OPP_PATH)
add_executable(ascsim-op-build opp/op_build_main.cpp)
target_link_libraries(ascsim-op-build PRIVATE ascsim ascsim_flags)
set_target_properties(ascsim-op-build PROPERTIES OUTPUT_NAME op_build
  RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/toolkit/tools/opbuild
  INSTALL_RPATH "$ORIGIN/../../../${CMAKE_INSTALL_LIBDIR}")
add_executable(ascsim-opc opp/opc_main.cpp)
target_link_libraries(ascsim-opc PRIVATE ascsim ascsim_flags)
set_target_properties(ascsim-opc PROPERTIES OUTPUT_NAME opc
  RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin
  INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
add_library(ascsim_empty_rt2_registry STATIC empty_library.cpp)
set_target_properties(ascsim_empty_rt2_registry PROPERTIES OUTPUT_NAME rt2_registry
  ARCHIVE_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib64)

install(TARGETS ascsim-op-build RUNTIME DESTINATION toolkit/tools/opbuild)
install(TARGETS ascsim-opc RUNTIME DESTINATION bin)
install(TARGETS ascsim_empty_rt2_registry ARCHIVE DESTINATION lib64)
install(PROGRAMS opp/msopgen/msopgen DESTINATION bin)
install(FILES opp/project/ascsim_op_project.cmake DESTINATION share/ascsim/opp)
install(PROGRAMS opp/project/make_run.sh DESTINATION share/ascsim/opp)
install(DIRECTORY opp/python/tbe DESTINATION python/site-packages)
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/compiler_version.info
     "Version=${PROJECT_VERSION}\nascsim=${PROJECT_VERSION}\n")
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/compiler_version.info DESTINATION compiler
        RENAME version.info)
install(DIRECTORY DESTINATION opp/vendors)
set(_lib ${CMAKE_INSTALL_LIBDIR})
install(CODE "
  set(_p \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}\")
  foreach(name register exe_graph nnopbase acl_op_compiler opapi graph)
    file(REMOVE \"\${_p}/lib64/lib\${name}.so\")
    file(CREATE_LINK ../${_lib}/libascsim.so \"\${_p}/lib64/lib\${name}.so\" SYMBOLIC)
  endforeach()
  file(REMOVE_RECURSE \"\${_p}/${CMAKE_SYSTEM_PROCESSOR}-linux\")
  file(MAKE_DIRECTORY \"\${_p}/${CMAKE_SYSTEM_PROCESSOR}-linux\")
  file(CREATE_LINK ../lib64 \"\${_p}/${CMAKE_SYSTEM_PROCESSOR}-linux/lib64\" SYMBOLIC)
  file(CREATE_LINK ../include \"\${_p}/${CMAKE_SYSTEM_PROCESSOR}-linux/include\" SYMBOLIC)
  message(STATUS \"Installing: \${_p}/lib64/lib{register,exe_graph,nnopbase,acl_op_compiler,opapi,graph}.so -> libascsim\")
")

if(ASCSIM_BUILD_TESTS)
  # The project's own custom-operator projects (tests/customop, the official layout with the
  # skeleton msopgen writes): each built by its own build.sh, its .run installed into the test
  # prefix, and its AclNN invocation program run through run.sh. They share the prefix's
  # vendors/customize, so they run one at a time.
  find_package(Python COMPONENTS Interpreter QUIET)
  set(_python_dir "")
  if(Python_EXECUTABLE)
    get_filename_component(_python_dir ${Python_EXECUTABLE} DIRECTORY)
  endif()
  foreach(entry "SquaredDiff|SquaredDiffCustom" "ScaleShift|ScaleShiftCustom"
                "MatmulBias|MatmulBiasCustom" "TplAddRelu|TplAddReluCustom")
    string(REPLACE "|" ";" entry "${entry}")
    list(GET entry 0 sample)
    list(GET entry 1 op)
    add_test(NAME toolkit_customop_${sample}
      COMMAND ${CMAKE_COMMAND} -DPREFIX=${CMAKE_CURRENT_BINARY_DIR}/sample_prefix
              -DSAMPLE_DIR=${PROJECT_SOURCE_DIR}/tests/customop/${sample} -DOP=${op}
              -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/customop_work/${sample}
              -DPYTHON_DIR=${_python_dir}
              -P ${PROJECT_SOURCE_DIR}/tests/customop/run_customop.cmake)
    set_tests_properties(toolkit_customop_${sample} PROPERTIES
      FIXTURES_REQUIRED toolkit_prefix RESOURCE_LOCK ascsim_vendor_customize TIMEOUT 1800)
  endforeach()
  # A broken project fails its build with one line naming what is wrong.
  foreach(entry "no_opdef|registers no operator \\(no OP_ADD in its op_host sources\\)"
                "kernel_error|opc: compiling [^ ]*squared_diff_custom.cpp for SquaredDiffCustom \\(SquaredDiffCustom_[0-9]\\) failed"
                "bad_json|msopgen: SquaredDiffCustom.json is not valid JSON: "
                "tpl_bad_sel|opc: listing the tiling keys of [^ ]*tpl_add_relu_custom_tpl.h failed: ASCENDC_TPL_UINT_SEL TILES value 3 is not in its ASCENDC_TPL_UINT_DECL")
    string(FIND "${entry}" "|" _bar)
    string(SUBSTRING "${entry}" 0 ${_bar} _break)
    math(EXPR _bar "${_bar} + 1")
    string(SUBSTRING "${entry}" ${_bar} -1 _expect)
    set(_sample SquaredDiff)
    set(_op SquaredDiffCustom)
    if(_break MATCHES "^tpl_")
      set(_sample TplAddRelu)
      set(_op TplAddReluCustom)
    endif()
    add_test(NAME toolkit_customop_broken_${_break}
      COMMAND ${CMAKE_COMMAND} -DPREFIX=${CMAKE_CURRENT_BINARY_DIR}/sample_prefix
              -DSAMPLE_DIR=${PROJECT_SOURCE_DIR}/tests/customop/${_sample} -DOP=${_op}
              -DWORK_DIR=${CMAKE_CURRENT_BINARY_DIR}/customop_work/broken_${_break}
              -DPYTHON_DIR=${_python_dir} -DBREAK=${_break} "-DEXPECT=${_expect}"
              -P ${PROJECT_SOURCE_DIR}/tests/customop/run_customop.cmake)
    set_tests_properties(toolkit_customop_broken_${_break} PROPERTIES
      FIXTURES_REQUIRED toolkit_prefix TIMEOUT 600)
  endforeach()
endif()
