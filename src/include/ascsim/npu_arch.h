// __NPU_ARCH__ for kernel code, from the SoC the kernel is compiled for. On the device the compiler
// defines it from --cce-aicore-arch (dav-c220 -> 2201 for Atlas A2/A3, dav-m200 -> 2002 for the
// 310P; see asc-devkit cmake/asc/asc_modules/CMakeASCInformation.cmake); here the SoC name comes
// from a define:
//
//   g++ -DASCSIM_SOC=Ascend310P3 ...   (or -DASCENDC_SOC=..., the CANN-style spelling)
//
// Unset, kernels compile for Ascend910B1 (2201), the default profile. A launch on a profile whose
// arch differs from the one the launching code was compiled for warns once per kernel
// (ascsim::Launch); code with no __NPU_ARCH__ branches can say so with
// -DASCSIM_ARCH_NEUTRAL_KERNELS (ascsim/kernel_launcher.h). Unknown SoC names fail to compile with
// a message naming the define.
#pragma once

#define ASCSIM_ARCH_OF_Ascend910B1 2201
#define ASCSIM_ARCH_OF_Ascend910B2 2201
#define ASCSIM_ARCH_OF_Ascend910B2C 2201
#define ASCSIM_ARCH_OF_Ascend910B3 2201
#define ASCSIM_ARCH_OF_Ascend910B4 2201
#define ASCSIM_ARCH_OF_Ascend910B4_1 2201
#define ASCSIM_ARCH_OF_Ascend910_9391 2201
#define ASCSIM_ARCH_OF_Ascend910_9392 2201
#define ASCSIM_ARCH_OF_Ascend910_9381 2201
#define ASCSIM_ARCH_OF_Ascend910_9382 2201
#define ASCSIM_ARCH_OF_Ascend910_9372 2201
#define ASCSIM_ARCH_OF_Ascend910_9362 2201
#define ASCSIM_ARCH_OF_Ascend310P1 2002
#define ASCSIM_ARCH_OF_Ascend310P3 2002
#define ASCSIM_ARCH_OF_Ascend310P5 2002
#define ASCSIM_ARCH_OF_Ascend310P7 2002
#define ASCSIM_ARCH_OF_Ascend910A 1001
#define ASCSIM_ARCH_OF_Ascend910B 2201

#define ASCSIM_ARCH_OF_IMPL_(soc) ASCSIM_ARCH_OF_##soc
#define ASCSIM_ARCH_OF_(soc) ASCSIM_ARCH_OF_IMPL_(soc)

#if !defined(ASCSIM_SOC) && defined(ASCENDC_SOC)
#define ASCSIM_SOC ASCENDC_SOC
#endif

#ifndef __NPU_ARCH__
#ifdef ASCSIM_SOC
#define __NPU_ARCH__ ASCSIM_ARCH_OF_(ASCSIM_SOC)
#if __NPU_ARCH__ + 0 == 0
#error "ASCSIM_SOC names a SoC ascsim does not know; see ascsim/npu_arch.h for the names"
#endif
#else
#define __NPU_ARCH__ 2201
#endif
#endif

// __CCE_AICORE__: the older arch number bisheng also predefines, which production kernels still test
// (`#if __CCE_AICORE__ == 220` for Atlas A2/A3, `== 200` for the 310P, `== 100` for the Ascend 910;
// ops-nn's kernel UT builds pass the same -D__CCE_AICORE__=220 for ascend910B1). Code that sets it
// on the command line keeps its value.
#ifndef __CCE_AICORE__
#if __NPU_ARCH__ == 2201
#define __CCE_AICORE__ 220
#elif __NPU_ARCH__ == 2002
#define __CCE_AICORE__ 200
#elif __NPU_ARCH__ == 1001
#define __CCE_AICORE__ 100
#endif
#endif
