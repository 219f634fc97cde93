// The arithmetic of one Mmad: unpack the fractal operands, multiply with an optimised GEMM and
// add the product into L0C. Built three times (gemm_*.cpp: baseline x86-64, AVX2+FMA+F16C,
// AVX-512) and chosen at run time, like the vector math (Highway) is.
#pragma once

#include <cstdint>

#include "ascsim/aicore/simd/vector_math.h"

namespace ascsim::aicore::cube {

// How L0C starts: zero (cmatrixInitVal), the bias row (BiasTable), or its current contents.
enum class MmadInit : uint8_t { kZero, kBias, kAccumulate };

struct MmadJob {
  const uint8_t* a = nullptr;  // L0A (Zz; a 1 x K row in GEMV mode)
  const uint8_t* b = nullptr;  // L0B (Zn)
  uint8_t* c = nullptr;        // L0C (Nz, 16 x 16 fractals)
  const uint8_t* bias = nullptr;
  simd::DType a_t = simd::DType::kF16, b_t = simd::DType::kF16, c_t = simd::DType::kF32,
              bias_t = simd::DType::kF32;
  int m = 0, n = 0, k = 0;
  int a_k1 = 0;  // fractals along K in a row of L0A fractals (K1, with kDirectionAlign applied)
  bool gemv = false;
  MmadInit init = MmadInit::kZero;
};

// Variants (one per instruction set); MmadCompute picks the best the CPU has.
void MmadComputeBaseline(const MmadJob& job);
void MmadComputeAvx2(const MmadJob& job);
void MmadComputeAvx512(const MmadJob& job);
void MmadCompute(const MmadJob& job);
// Which variant MmadCompute uses ("avx512", "avx2", "baseline").
const char* MmadVariant();

}  // namespace ascsim::aicore::cube
