// ShapeInfo and DataFormat: the shape description DumpTensor prints by (asc-devkit docs
// 基础API/辅助数据结构/ShapeInfo; K_MAX_DIM from impl/basic_api/utils/kernel_utils_constants.h).
#pragma once

#include <cstdint>

#include "ascsim/aicore/internal.h"

namespace AscendC {

#ifndef ASCSIM_K_MAX_DIM_DEFINED
#define ASCSIM_K_MAX_DIM_DEFINED
constexpr int32_t K_MAX_DIM = 8;
#endif

enum class DataFormat : uint8_t {
  ND = 0,
  NZ,
  NCHW,
  NC1HWC0,
  NHWC,
};

struct ShapeInfo {
 public:
  ShapeInfo() = default;
  ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[],
            const uint8_t inputOriginalShapeDim, const uint32_t inputOriginalShape[],
            const DataFormat inputFormat)
      : shapeDim(Clamp(inputShapeDim)),
        originalShapeDim(Clamp(inputOriginalShapeDim)),
        dataFormat(inputFormat) {
    for (uint8_t i = 0; i < shapeDim; ++i) shape[i] = inputShape[i];
    for (uint8_t i = 0; i < originalShapeDim; ++i) originalShape[i] = inputOriginalShape[i];
  }
  ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[], const DataFormat inputFormat)
      : ShapeInfo(inputShapeDim, inputShape, inputShapeDim, inputShape, inputFormat) {}
  ShapeInfo(const uint8_t inputShapeDim, const uint32_t inputShape[])
      : ShapeInfo(inputShapeDim, inputShape, inputShapeDim, inputShape, DataFormat::ND) {}

  uint8_t shapeDim = 0;
  uint8_t originalShapeDim = 0;
  uint32_t shape[K_MAX_DIM] = {};
  uint32_t originalShape[K_MAX_DIM] = {};
  DataFormat dataFormat = DataFormat::ND;

 private:
  // More dims than K_MAX_DIM do not fit; the first K_MAX_DIM are kept.
  static uint8_t Clamp(uint8_t dims) {
    return dims > K_MAX_DIM ? static_cast<uint8_t>(K_MAX_DIM) : dims;
  }
};

// The product of the dims (1 for a shape of no dims).
inline int GetShapeSize(const ShapeInfo& shapeInfo) {
  int size = 1;
  for (uint8_t i = 0; i < shapeInfo.shapeDim; ++i) size *= static_cast<int>(shapeInfo.shape[i]);
  return size;
}

}  // namespace AscendC
