// CANN's CPU-debug build puts tools/cpudebug/lib/include on the include path, and kernel code
// written for both builds includes its stub headers under __CCE_KT_TEST__:
//   #ifdef __CCE_KT_TEST__
//   #include "stub_def.h"   // kernel qualifiers and the half / bfloat16_t types on the CPU
//   #include "stub_fun.h"   // the CCE intrinsics on the CPU
//   #else
//   #include "kernel_macros.h"
//   #endif
// (asc-devkit .clangd: "CANN headers #include \"stub_def.h\" when ASCENDC_CPU_DEBUG=1; half,
// bfloat16_t, threadIdx and the like are defined there"; the pattern above is ops-transformer
// common/include/kernel/common_func.h). In ascsim kernel_operator.h declares them.
#pragma once

#include "kernel_operator.h"
