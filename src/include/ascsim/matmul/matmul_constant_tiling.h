// GetMatmulApiTiling: a constant Matmul tiling computed at compile time from a MatmulConfig that
// carries the shapes (asc-devkit include/adv_api/matmul/constant_tiling.h and
// impl/adv_api/tiling/matmul/matmul_constant_tiling_impl.h / _utils.h). The result is a
// MatmulApiStaticTiling, passed as the MM_CFG of Matmul<A, B, C, Bias, staticTiling>; each of its
// fields that is not -1 overrides the runtime TCubeTiling's (MatmulTiling<MM_CFG> in
// impl/adv_api/tiling/matmul/matmul_constant_tiling_struct.h; MatmulImpl::Init applies it).
//
// Two forms, as the documentation (Matmul-Kernel侧接口/GetMatmulApiTiling.md) describes them:
//  - partly constant (singleCoreM, singleCoreN or singleCoreK of the config is 0): only baseM/N/K,
//    dbL0A/dbL0B and isBias are fixed (when basicM/N/K are all set); Init still needs the runtime
//    tiling;
//  - fully constant: the shapes, the L1 factors (stepM/N/Ka/Kb, depthA1/B1), iterateOrder,
//    transLength and the share sizes too; Init accepts a null tiling pointer.
//
// The L1 factors: CANN searches four layouts (both inputs' K whole in L1, A's only, B's only,
// neither) and keeps the first that fits. ascsim computes the first one as CANN does and, when it
// does not fit, the last one's starting point (one base block of K per tile, double-buffered as far
// as L1 allows) without CANN's search for larger K tiles in between. The factors decide buffer
// counts and copy sizes, never the numbers in C.
#pragma once

#include <climits>
#include <cstdint>

#include "ascsim/aicore/kernel_constants.h"
#include "ascsim/matmul/matmul_config.h"

namespace AscendC {

namespace Impl {
#if __NPU_ARCH__ == 2201
constexpr int32_t L1_SIZE = 512 * 1024;
#else
constexpr int32_t L1_SIZE = 1024 * 1024;
#endif
}  // namespace Impl

namespace ascsim_constant_tiling {

constexpr int32_t kC0Bytes = 32;
constexpr int32_t kHwC0 = 16;
constexpr int32_t kDbOn = 2;
constexpr int32_t kDbOff = 1;

constexpr int32_t CeilDiv(int32_t a, int32_t b) { return b == 0 ? 0 : (a + b - 1) / b; }
constexpr int32_t AlignUp(int32_t a, int32_t b) { return CeilDiv(a, b) * b; }
constexpr int32_t Max(int32_t a, int32_t b) { return a > b ? a : b; }

// Elements of the input type in 32 bytes (one fractal row of K).
template <class T>
constexpr int32_t ReduceC0() {
  return kC0Bytes / static_cast<int32_t>(sizeof(T));
}

// L1 layout: K of A and B in units of 32 bytes, base blocks of M and N per tile, buffer counts.
struct L1Status {
  int32_t kAL1;
  int32_t kBL1;
  int32_t mAL1;
  int32_t nBL1;
  int32_t dbAL1;
  int32_t dbBL1;
  int32_t loadSize;
};

template <class A_TYPE>
constexpr int32_t KL0(const MatmulConfig& c) {
  return CeilDiv(static_cast<int32_t>(c.basicK), ReduceC0<typename A_TYPE::T>());
}
constexpr int32_t MaxMAL1(const MatmulConfig& c) {
  return CeilDiv(CeilDiv(static_cast<int32_t>(c.singleCoreM), kHwC0),
                 CeilDiv(static_cast<int32_t>(c.basicM), kHwC0));
}
constexpr int32_t MaxNBL1(const MatmulConfig& c) {
  return CeilDiv(CeilDiv(static_cast<int32_t>(c.singleCoreN), kHwC0),
                 CeilDiv(static_cast<int32_t>(c.basicN), kHwC0));
}
// float A transposed (B not transposed) keeps K in pairs of fractal rows.
template <class A_TYPE>
constexpr int32_t KAAlign() {
  return (sizeof(typename A_TYPE::T) == 4 && A_TYPE::isTrans) ? 2 : 1;
}
template <class B_TYPE>
constexpr int32_t KBAlign() {
  return (sizeof(typename B_TYPE::T) == 4 && !B_TYPE::isTrans) ? 2 : 1;
}

template <class A_TYPE>
constexpr int32_t AL1Bytes(const L1Status& s, const MatmulConfig& c) {
  using T = typename A_TYPE::T;
  return s.dbAL1 * s.mAL1 * static_cast<int32_t>(c.basicM) * CeilDiv(s.kAL1, KL0<A_TYPE>(c)) *
         AlignUp(static_cast<int32_t>(c.basicK), KAAlign<A_TYPE>() * ReduceC0<T>()) *
         static_cast<int32_t>(sizeof(T));
}
template <class A_TYPE, class B_TYPE>
constexpr int32_t BL1Bytes(const L1Status& s, const MatmulConfig& c) {
  using T = typename B_TYPE::T;
  return s.dbBL1 * s.nBL1 * static_cast<int32_t>(c.basicN) * CeilDiv(s.kBL1, KL0<A_TYPE>(c)) *
         AlignUp(static_cast<int32_t>(c.basicK), KBAlign<B_TYPE>() * ReduceC0<T>()) *
         static_cast<int32_t>(sizeof(T));
}
template <class BIAS_TYPE>
constexpr int32_t BiasL1Bytes(const L1Status& s, const MatmulConfig& c) {
  if (!c.enableSetBias) return 0;
  using T = typename BIAS_TYPE::T;
  const int32_t channelWise = sizeof(T) == 4 ? 2 : 1;
  return s.nBL1 * static_cast<int32_t>(c.basicN) * channelWise * s.dbBL1 *
         static_cast<int32_t>(sizeof(T));
}
constexpr int32_t DequantL1Bytes(const L1Status& s, const MatmulConfig& c) {
  return c.enableQuantVector ? s.nBL1 * static_cast<int32_t>(c.basicN) * 8 : 0;
}
template <class A_TYPE, class B_TYPE, class BIAS_TYPE>
constexpr int32_t L1Bytes(const L1Status& s, const MatmulConfig& c) {
  return AL1Bytes<A_TYPE>(s, c) + BL1Bytes<A_TYPE, B_TYPE>(s, c) + BiasL1Bytes<BIAS_TYPE>(s, c) +
         DequantL1Bytes(s, c);
}

template <class A_TYPE, class B_TYPE, class BIAS_TYPE>
constexpr L1Status L1Factor(const MatmulConfig& c, int32_t l1Size) {
  const int32_t k = CeilDiv(static_cast<int32_t>(c.singleCoreK), ReduceC0<typename A_TYPE::T>());
  const int32_t kL0 = KL0<A_TYPE>(c);
  // Both inputs' whole K (and all their blocks of M and N) in L1, one buffer each.
  const int32_t kFull = AlignUp(k, kL0);
  L1Status both{kFull, kFull, MaxMAL1(c), MaxNBL1(c), kDbOff, kDbOff, 0};
  if (L1Bytes<A_TYPE, B_TYPE, BIAS_TYPE>(both, c) <= l1Size) return both;
  // One base block of K per tile, two buffers of each while they fit.
  L1Status neither{kL0, kL0, 1, 1, kDbOn, kDbOn, INT_MAX};
  if (L1Bytes<A_TYPE, B_TYPE, BIAS_TYPE>(neither, c) > l1Size) {
    neither.dbBL1 = kDbOff;
    if (L1Bytes<A_TYPE, B_TYPE, BIAS_TYPE>(neither, c) > l1Size) neither.dbAL1 = kDbOff;
  }
  return neither;
}

// 1 (N first) when only A's K is whole in L1, or both are and A is reloaded less; else 0.
template <class A_TYPE>
constexpr int32_t IterateOrderOf(const L1Status& s, const MatmulConfig& c) {
  const int32_t reduce = ReduceC0<typename A_TYPE::T>();
  const bool fullA = static_cast<int32_t>(c.singleCoreK) <= s.kAL1 * reduce;
  const bool fullB = static_cast<int32_t>(c.singleCoreK) <= s.kBL1 * reduce;
  if (fullA != fullB) return fullA ? 1 : 0;
  if (!fullA) return 0;
  const int32_t sm = static_cast<int32_t>(c.singleCoreM), sn = static_cast<int32_t>(c.singleCoreN);
  const int32_t mLoop = CeilDiv(sm, s.mAL1 * static_cast<int32_t>(c.basicM));
  const int32_t nLoop = CeilDiv(sn, s.nBL1 * static_cast<int32_t>(c.basicN));
  return (sm + sn * mLoop) < (sn + sm * nLoop) ? 1 : 0;
}

// Double buffering of L0A / L0B when a base block fits in half of it.
template <class T>
constexpr int32_t L0Db(uint32_t rows, uint32_t basicK, uint32_t l0Size) {
  return rows * basicK * sizeof(T) > l0Size / kDbOn ? kDbOff : kDbOn;
}

}  // namespace ascsim_constant_tiling

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
constexpr MatmulApiStaticTiling GetMatmulApiTiling(const MatmulConfig& mmCFG,
                                                   int32_t l1Size = Impl::L1_SIZE) {
  namespace ct = ascsim_constant_tiling;
  using SrcAT = typename A_TYPE::T;
  using SrcBT = typename B_TYPE::T;
  MatmulApiStaticTiling tiling;
  tiling.cfg = mmCFG;
  if (mmCFG.singleCoreM == 0 || mmCFG.singleCoreN == 0 || mmCFG.singleCoreK == 0) {
    if (mmCFG.basicM != 0 && mmCFG.basicN != 0 && mmCFG.basicK != 0) {
      tiling.baseM = static_cast<int32_t>(mmCFG.basicM);
      tiling.baseN = static_cast<int32_t>(mmCFG.basicN);
      tiling.baseK = static_cast<int32_t>(mmCFG.basicK);
      tiling.dbL0A = ct::L0Db<SrcAT>(mmCFG.basicM, mmCFG.basicK, TOTAL_L0A_SIZE);
      tiling.dbL0B = ct::L0Db<SrcBT>(mmCFG.basicN, mmCFG.basicK, TOTAL_L0B_SIZE);
      tiling.isBias = mmCFG.enableSetBias ? 1 : 0;
    }
    return tiling;
  }
  const ct::L1Status l1 = ct::L1Factor<A_TYPE, B_TYPE, BIAS_TYPE>(mmCFG, l1Size);
  const int32_t sm = static_cast<int32_t>(mmCFG.singleCoreM);
  const int32_t sn = static_cast<int32_t>(mmCFG.singleCoreN);
  const int32_t sk = static_cast<int32_t>(mmCFG.singleCoreK);
  // The original shape is the single-core one; a kernel with a larger matrix sets it with
  // SetOrgShape.
  tiling.M = sm;
  tiling.N = sn;
  tiling.Ka = sk;
  tiling.Kb = sk;
  tiling.singleCoreM = sm;
  tiling.singleCoreN = sn;
  tiling.singleCoreK = sk;
  tiling.baseM = static_cast<int32_t>(mmCFG.basicM);
  tiling.baseN = static_cast<int32_t>(mmCFG.basicN);
  tiling.baseK = static_cast<int32_t>(mmCFG.basicK);
  tiling.stepM = l1.mAL1;
  tiling.stepN = l1.nBL1;
  const int32_t kL0 = ct::KL0<A_TYPE>(mmCFG);
  tiling.stepKa = ct::CeilDiv(l1.kAL1, kL0);
  tiling.stepKb = ct::CeilDiv(l1.kBL1, kL0);
  tiling.depthA1 = tiling.stepKa * l1.mAL1 * l1.dbAL1;
  tiling.depthB1 = tiling.stepKb * l1.nBL1 * l1.dbBL1;
  tiling.iterateOrder = ct::IterateOrderOf<A_TYPE>(l1, mmCFG);
  tiling.isBias = mmCFG.enableSetBias ? 1 : 0;
  tiling.dbL0A = ct::L0Db<SrcAT>(mmCFG.basicM, mmCFG.basicK, TOTAL_L0A_SIZE);
  tiling.dbL0B = ct::L0Db<SrcBT>(mmCFG.basicN, mmCFG.basicK, TOTAL_L0B_SIZE);
  tiling.dbL0C = 1;
  // The C tile bound for GM (or ND), and the bias tiles, are what crosses a transit buffer.
  int32_t transLength = ct::BiasL1Bytes<BIAS_TYPE>(l1, mmCFG);
  if (C_TYPE::format == CubeFormat::ND || C_TYPE::pos == TPosition::GM) {
    transLength = ct::Max(transLength, tiling.baseM * tiling.baseN *
                                           static_cast<int32_t>(sizeof(typename C_TYPE::T)));
  }
  tiling.transLength = transLength;
  tiling.shareMode = 0;
  int32_t shareL1 = tiling.depthA1 * tiling.baseM * tiling.baseK * static_cast<int32_t>(sizeof(SrcAT)) +
                    tiling.depthB1 * tiling.baseN * tiling.baseK * static_cast<int32_t>(sizeof(SrcAT));
  if (mmCFG.enableSetBias) {
    shareL1 += tiling.baseN * static_cast<int32_t>(sizeof(typename BIAS_TYPE::T));
  }
  shareL1 += ct::DequantL1Bytes(l1, mmCFG);
  tiling.shareL1Size = shareL1;
  tiling.shareL0CSize = tiling.baseM * tiling.baseN * 4;
  tiling.shareUbSize = 0;
  return tiling;
}

}  // namespace AscendC
