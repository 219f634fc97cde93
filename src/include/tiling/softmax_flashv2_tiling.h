// Host-side sizes and tiling of SoftmaxFlashV2 (ascsim/adv/softmax_flashv2.h), with asc-devkit's
// Atlas A2/A3 formulas (include/adv_api/activation/softmax_tiling.h; impl/adv_api/tiling/
// activation/softmax_tiling.cpp GetSoftMaxFlashV2MinTmpSize / GetSoftMaxFlashV2MaxTmpSize /
// SoftMaxFlashV2TilingFunc), in floats of the [m, k] last-axis shape (blk = 32 B / dataTypeSize2):
//   not a basic block: min half (2 blk + k + 64), float (blk + 64); max m times that
//   basic block (isBasicBlock, k % 64 == 0; m % 8 == 0 for max and tiling): per row of 8 (min) or
//   of m (max, m halved while m * k >= 16384) blk + (half: k) + 64, 128 when k == 1024
// and the tiling's rows per pass from the workspace the same way. A shape, type or workspace it
// does not take returns 0 / leaves the tiling unset, with CANN's message on stderr.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "ascsim/adv/tiling_structs.h"
#include "graph/tensor.h"
#include "tiling/softmax_tiling.h"

namespace AscendC {
namespace softmax_flashv2_detail {

// The checks CANN's three functions share; false after the message.
inline bool Check(const char* func, const ge::Shape& srcShape, uint32_t size1, uint32_t size2,
                  uint32_t& m, uint32_t& k) {
  softmax_tiling_detail::LastAxis(srcShape, m, k);
  const char* problem = nullptr;
  if (srcShape.GetShapeSize() <= 0) {
    problem = "input srcShape size must be greater than 0.";
  } else if (size1 != 2 && size1 != 4) {
    problem = "dataTypeSize1 input error, dataType now only support half or float.";
  } else if (size2 != 2 && size2 != 4) {
    problem = "dataTypeSize2 input error, dataType now only support half or float.";
  } else if ((uint64_t{k} * size1) % 32 != 0) {
    problem = "the last axis of srcShape must be 32 B aligned.";
  }
  if (problem != nullptr) std::fprintf(stderr, "[%s] %s\n", func, problem);
  return problem == nullptr;
}

// Floats per row (CANN's non-basic-block and basic-block terms).
inline uint32_t RowFloats(bool basic, uint32_t size1, uint32_t blk, uint32_t k) {
  constexpr uint32_t kUnit = 64, kSpecialK = 1024;
  if (basic) {
    const uint32_t unit = k == kSpecialK ? kUnit * 2 : kUnit;
    return size1 == 2 ? blk + k + unit : blk + unit;
  }
  return size1 == 2 ? blk * 2 + k + kUnit : blk + kUnit;
}

}  // namespace softmax_flashv2_detail

inline uint32_t GetSoftMaxFlashV2MinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool isUpdate,
                                            const bool isBasicBlock = false,
                                            const bool isFlashOutputBrc = false) {
  (void)isUpdate;
  using namespace softmax_flashv2_detail;
  uint32_t m = 0, k = 0;
  if (!Check("GetSoftMaxFlashV2MinTmpSize", srcShape, dataTypeSize1, dataTypeSize2, m, k)) return 0;
  const uint32_t blk = 32 / dataTypeSize2;
  const bool basic = isBasicBlock && k % 64 == 0;
  uint32_t need = RowFloats(basic, dataTypeSize1, blk, k) * (basic ? 8 : 1);
  if (isFlashOutputBrc) {
    const uint32_t rows = std::min(32 / dataTypeSize1, m);
    need = basic ? need / 8 * rows : need * rows;
  }
  return need * 4;
}

inline uint32_t GetSoftMaxFlashV2MaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool isUpdate,
                                            const bool isBasicBlock = false,
                                            const bool isFlashOutputBrc = false) {
  (void)isUpdate;
  (void)isFlashOutputBrc;
  using namespace softmax_flashv2_detail;
  uint32_t m = 0, k = 0;
  if (!Check("GetSoftMaxFlashV2MaxTmpSize", srcShape, dataTypeSize1, dataTypeSize2, m, k)) return 0;
  const uint32_t blk = 32 / dataTypeSize2;
  const bool basic = isBasicBlock && k % 64 == 0 && m % 8 == 0;
  if (basic) {
    while (uint64_t{m} * k >= 64u * 256u) m /= 2;  // a repeat count of at most 255
  }
  return m * RowFloats(basic, dataTypeSize1, blk, k) * 4;
}

inline void SoftMaxFlashV2TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2,
                                     const uint32_t localWorkSpaceSize,
                                     tiling::SoftMaxTiling& softmaxFlashTiling,
                                     const bool isUpdate, const bool isBasicBlock = false,
                                     const bool isFlashOutputBrc = false) {
  (void)isUpdate;
  using namespace softmax_flashv2_detail;
  uint32_t m = 0, k = 0;
  if (!Check("SoftMaxFlashV2TilingFunc", srcShape, dataTypeSize1, dataTypeSize2, m, k)) return;
  const uint32_t blk = 32 / dataTypeSize2;
  const uint32_t work = localWorkSpaceSize / 4;
  const bool basic = isBasicBlock && k % 64 == 0 && m % 8 == 0;
  uint32_t base_m = work / RowFloats(basic, dataTypeSize1, blk, k);
  if (basic) {
    // AdjustToBasicBlockBaseM: whole groups of 8 rows that divide m, within 255 repeats.
    base_m = std::min(base_m, m);
    if (base_m > 8) {
      base_m = base_m / 8 * 8;
      while (m % base_m != 0) base_m -= 8;
      while (uint64_t{base_m} * k >= 64u * 256u) base_m /= 2;
    }
  }
  const uint32_t tile = isFlashOutputBrc && dataTypeSize1 == 2 ? 16u : 8u;
  base_m = std::min(base_m, m);
  if (base_m < m && base_m > tile) base_m = base_m / tile * tile;
  tiling_structs_detail::FillSoftMaxTiling(softmaxFlashTiling, m, k, base_m, blk);
}

}  // namespace AscendC
