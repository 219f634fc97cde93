# find_package(tikicpulib) for ascsim's toolkit: CANN's CPU-debug library, here the simulator.
# Installed as <P>/tools/tikicpulib/lib/cmake/tikicpulib/tikicpulib-config.cmake, where the
# official cpu_lib.cmake looks (CMAKE_PREFIX_PATH=<P>/tools/tikicpulib/lib/cmake).
#
# Defines tikicpulib::<SOC> for every SoC name the official scripts accept (both spellings; see
# share/ascsim/toolkit/ascsim_toolkit.cmake). Linking one gives what CANN's does to a kernel file
# and the program around it: the CPU-debug API (kernel_operator.h, tikicpulib.h: ICPU_RUN_KF,
# GmAlloc; securec's memcpy_s & co. through it, linked with libc_sec), ASCENDC_CPU_DEBUG and
# __CCE_KT_TEST__ defined, the ACL headers, libascsim, and the SoC the program is simulated as.
include("${CMAKE_CURRENT_LIST_DIR}/../../../../../share/ascsim/toolkit/ascsim_toolkit.cmake")

foreach(_soc IN LISTS ASCSIM_TOOLKIT_SOCS)
  if(TARGET tikicpulib::${_soc})
    continue()
  endif()
  ascsim_toolkit_soc_target("${_soc}")
  add_library(tikicpulib::${_soc} INTERFACE IMPORTED GLOBAL)
  set_target_properties(tikicpulib::${_soc} PROPERTIES
    INTERFACE_COMPILE_DEFINITIONS "ASCENDC_CPU_DEBUG=1;__CCE_KT_TEST__=1"
    INTERFACE_SOURCES "${ASCSIM_TOOLKIT_SHARE}/ascsim_select_soc.cpp"
    INTERFACE_LINK_LIBRARIES "ascsim_toolkit::soc_${_soc};c_sec")  # securec, as CANN links it
endforeach()
if(DEFINED SOC_VERSION AND TARGET tikicpulib::${SOC_VERSION})
  ascsim_toolkit_note_soc("${SOC_VERSION}")
endif()
set(tikicpulib_FOUND TRUE)
