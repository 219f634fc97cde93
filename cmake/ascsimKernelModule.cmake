# ascsim_add_kernel_module(<name> [OUTPUT_DIRECTORY <dir>] <sources...>)
#
# Builds the Ascend C kernels of <sources> into a Python module <name>: every (non-template)
# `__global__ __aicore__` function they define becomes a callable
# `<name>.<kernel>(*args, block_dim, stream=None)`, exactly as with ascsim.load() (the same
# generator and the same argument conversion; see python/ascsim/_loader.py). Produces, in
# OUTPUT_DIRECTORY (default: the current binary dir):
#
#   <name>.py            the importable module (imports the `ascsim` package)
#   <name>_kernels.so    the kernel module: a plain shared library over libascsim.so with the
#                        generated kernel table (ascsim/kernel_module.h); target <name>
#
# Put OUTPUT_DIRECTORY on PYTHONPATH (or install both files next to each other) and
# `import <name>`. The `ascsim` Python package must be importable at run time: the module and
# ascsim._core then share one libascsim.so. Compile options, include directories and libraries
# are added to target <name> as usual (target_compile_definitions(<name> PRIVATE
# ASCSIM_SOC=Ascend310P3), ...). Needs a Python 3 interpreter at build time for the generator.
#
# Available after find_package(ascsim) (installed as lib/cmake/ascsim/ascsimKernelModule.cmake)
# and in ascsim's own build tree (add_subdirectory).
include_guard(GLOBAL)

set(_ASCSIM_KM_DIR ${CMAKE_CURRENT_LIST_DIR})

function(ascsim_add_kernel_module name)
  cmake_parse_arguments(KM "" "OUTPUT_DIRECTORY" "" ${ARGN})
  set(sources ${KM_UNPARSED_ARGUMENTS})
  if(NOT sources)
    message(FATAL_ERROR "ascsim_add_kernel_module(${name}): no sources")
  endif()
  if(NOT KM_OUTPUT_DIRECTORY)
    set(KM_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
  endif()
  # The generator: beside this file when installed, python/ascsim/_codegen.py in the source tree.
  if(EXISTS ${_ASCSIM_KM_DIR}/ascsim_codegen.py)
    set(generator ${_ASCSIM_KM_DIR}/ascsim_codegen.py)
  else()
    set(generator ${_ASCSIM_KM_DIR}/../python/ascsim/_codegen.py)
  endif()
  # Its kernel scanner: the toolkit's ascsim-launch-transform (the one ascendc_library uses), a
  # target in ascsim's own build, else <prefix>/bin of the install (or of the pip package).
  if(TARGET ascsim-launch-transform)
    set(scanner $<TARGET_FILE:ascsim-launch-transform>)
    set(scanner_dep ascsim-launch-transform)
  else()
    get_filename_component(_prefix "${_ASCSIM_KM_DIR}/../../.." ABSOLUTE)
    set(scanner ${_prefix}/bin/ascsim-launch-transform)
    if(NOT EXISTS ${scanner})
      message(FATAL_ERROR "ascsim_add_kernel_module(${name}): the kernel scanner ${scanner} "
                          "(ascsim-launch-transform, installed with ascsim) is missing")
    endif()
    set(scanner_dep ${scanner})
  endif()
  if(DEFINED Python_EXECUTABLE)
    set(python ${Python_EXECUTABLE})
  elseif(DEFINED Python3_EXECUTABLE)
    set(python ${Python3_EXECUTABLE})
  else()
    find_package(Python3 COMPONENTS Interpreter REQUIRED)
    set(python ${Python3_EXECUTABLE})
  endif()

  set(gen_dir ${CMAKE_CURRENT_BINARY_DIR}/${name}_kernel_module)
  set(absolute)
  set(generated)
  set(index 0)
  foreach(src ${sources})
    get_filename_component(src ${src} ABSOLUTE)
    list(APPEND absolute ${src})
    get_filename_component(stem ${src} NAME_WE)
    string(MAKE_C_IDENTIFIER "${stem}" stem)
    list(APPEND generated ${gen_dir}/${index}_${stem}.ascsim.cpp)
    math(EXPR index "${index} + 1")
  endforeach()
  list(APPEND generated ${gen_dir}/table.cpp)
  add_custom_command(OUTPUT ${generated}
    COMMAND ${python} ${generator} --launch-transform ${scanner} --out-dir ${gen_dir} ${absolute}
    DEPENDS ${absolute} ${generator} ${scanner_dep}
    COMMENT "ascsim: kernel table of ${name}" VERBATIM)

  add_library(${name} SHARED ${generated})
  # The sources' folders, for their "local.h" includes (also from a transformed copy).
  set(source_dirs)
  foreach(src ${absolute})
    get_filename_component(dir ${src} DIRECTORY)
    list(APPEND source_dirs ${dir})
  endforeach()
  list(REMOVE_DUPLICATES source_dirs)
  foreach(dir ${source_dirs})
    target_compile_options(${name} PRIVATE "-iquote${dir}")
  endforeach()
  target_link_libraries(${name} PRIVATE ascsim::ascsim)
  target_compile_features(${name} PRIVATE cxx_std_17)
  set_target_properties(${name} PROPERTIES
    OUTPUT_NAME ${name}_kernels PREFIX "" SUFFIX ".so"
    LIBRARY_OUTPUT_DIRECTORY ${KM_OUTPUT_DIRECTORY})
  # The sources are compiled through the generated wrappers, which #include them (so an edit of
  # a source or of a header it includes rebuilds, through the compiler's dependency scan). The
  # sources themselves are not added to the target: the same file may be compiled directly by
  # another target of the directory (as examples/python_leaky_relu does).
  file(WRITE ${KM_OUTPUT_DIRECTORY}/${name}.py
"\"\"\"Kernel module ${name}, built by ascsim_add_kernel_module(): each kernel of
${sources}
is a callable ${name}.<kernel>(*args, block_dim, stream=None).\"\"\"
import os as _os

import ascsim as _ascsim

_ascsim._load_library_into(
    globals(), _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), \"${name}_kernels.so\"))
")
endfunction()
