// ShapeInfo and DataFormat: the shape description a tensor carries (LocalTensor / GlobalTensor
// SetShapeInfo, GetShapeInfo) and DumpTensor prints by (asc-devkit docs 基础API/辅助数据结构/
// ShapeInfo; include/basic_api/kernel_tensor.h; K_MAX_DIM from impl/basic_api/utils/
// kernel_utils_constants.h).
//
// CANN sizes the arrays by the K_MAX_SHAPE_DIM macro (default 8; a kernel may define it 0 to save
// stack, asc-devkit guide "通过缩减Tensor ShapeInfo维度，优化栈空间"). Here the arrays always hold
// 8 dims: the tensors' layout is shared with the simulator's own compiled code, so it cannot
// change with a kernel's macro, and a kernel that defines it 0 does not use shape info.
#pragma once

#include <cstdint>

#include "ascsim/aicore/checks.h"
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
      : shapeDim(Checked(inputShapeDim, "inputShapeDim")),
        originalShapeDim(Checked(inputOriginalShapeDim, "inputOriginalShapeDim")),
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
  // More dims than fit: CANN's constructor asserts (ASCENDC_ASSERT inputShapeDim <=
  // K_MAX_SHAPE_DIM).
  static uint8_t Checked(uint8_t dims, const char* role) {
    if (dims > K_MAX_DIM) [[unlikely]] {
      ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                            ascsim::aicore::Str("ShapeInfo: ", role, " is ", unsigned{dims},
                                                ", which should be at most ", K_MAX_DIM,
                                                " (K_MAX_SHAPE_DIM)"));
    }
    return dims;
  }
};

// The product of the dims (1 for a shape of no dims).
inline int GetShapeSize(const ShapeInfo& shapeInfo) {
  int size = 1;
  for (uint8_t i = 0; i < shapeInfo.shapeDim; ++i) size *= static_cast<int>(shapeInfo.shape[i]);
  return size;
}

}  // namespace AscendC
