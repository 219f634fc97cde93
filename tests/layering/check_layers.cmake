# ctest driver: the layer rule is enforced by the build itself. Each case compiles one line of
# C++ with exactly the include roots a layer's target gets (src/CMakeLists.txt, ascsim_layer) and
# checks the outcome: an include going up a layer (or into a layer not listed as seen) must fail
# with "No such file", an allowed one must compile, and kernel code including an implementation
# header directly must fail with ascsim's own message.
foreach(var CXX_COMPILER LAYER_ROOTS PUBLIC_INCLUDE GENERATED_INCLUDE WORK_DIR)
  if(NOT ${var})
    message(FATAL_ERROR "${var} is not set")
  endif()
endforeach()
file(MAKE_DIRECTORY ${WORK_DIR})

set(failures "")
# check(<name> <layer or "kernel"> <header> <PASS|FAIL> [expected output fragment])
function(check name layer header expect)
  set(src ${WORK_DIR}/${name}.cpp)
  file(WRITE ${src} "#include \"${header}\"\nint main() { return 0; }\n")
  set(flags -std=c++17 -fsyntax-only -I${PUBLIC_INCLUDE} -I${GENERATED_INCLUDE})
  if(NOT layer STREQUAL "kernel")
    list(APPEND flags -I${LAYER_ROOTS}/${layer} -DASCSIM_INTERNAL_INCLUDE)
  endif()
  execute_process(COMMAND ${CXX_COMPILER} ${flags} ${src}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(expect STREQUAL "PASS" AND NOT rc EQUAL 0)
    set(failures "${failures}\n${name}: expected to compile, failed:\n${err}" PARENT_SCOPE)
  elseif(expect STREQUAL "FAIL")
    if(rc EQUAL 0)
      set(failures "${failures}\n${name}: ${layer} including ${header} compiled" PARENT_SCOPE)
    elseif(ARGC GREATER 4 AND NOT err MATCHES "${ARGV4}")
      set(failures "${failures}\n${name}: failed for another reason:\n${err}" PARENT_SCOPE)
    endif()
  endif()
  message(STATUS "${name}: ${layer} -> ${header}: expected ${expect}, rc ${rc}")
endfunction()

# Upward and sideways includes fail.
check(aicore_up_runtime aicore runtime/process.h FAIL "No such file")
check(aicore_up_host aicore host/env_trace.h FAIL "No such file")
check(base_up_runtime base runtime/process.h FAIL "No such file")
check(model_sideways_runtime model runtime/process.h FAIL "No such file")
check(runtime_up_host runtime host/env_trace.h FAIL "No such file")
check(host_up_op host op/framework.h FAIL "No such file")
check(runtime_up_op runtime op/framework.h FAIL "No such file")
# Downward includes compile.
check(runtime_own runtime runtime/process.h PASS)
check(host_down_runtime host runtime/process.h PASS)
check(host_own host host/env_trace.h PASS)
check(op_own op op/framework.h PASS)
check(op_down_host op host/env_trace.h PASS)
check(op_down_runtime op runtime/process.h PASS)
# Kernel code sees the public headers only, and the implementation headers refuse it.
check(kernel_public kernel kernel_operator.h PASS)
check(kernel_acl kernel acl/acl.h PASS)
check(kernel_internal kernel ascsim/aicore/local_tensor.h FAIL "internal to ascsim")
check(kernel_runtime kernel runtime/process.h FAIL "No such file")
check(kernel_op kernel op/framework.h FAIL "No such file")
check(kernel_op_host_api kernel register/op_def_registry.h PASS)

if(failures)
  message(FATAL_ERROR "layer rule broken:${failures}")
endif()
