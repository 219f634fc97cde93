// Host-side tiling of Pad and UnPad (ascsim/adv/pad.h): GetPadMaxMinTmpSize, PadTilingFunc,
// GetUnPadMaxMinTmpSize and UnPadTilingFunc with asc-devkit's formulas
// (include/adv_api/pad/pad_tiling.h, impl/adv_api/tiling/pad/pad_tiling_impl.cpp): the
// temporary space is, per 16 rows of one 32-byte block, two buffers; the tiling splits the height
// into groups of 255 rows and the width into pieces of the temporary buffer. The tiling classes
// optiling::PadTiling / UnPadTiling (BEGIN_TILING_DATA_DEF in CANN) have set_x / get_x per field,
// GetDataSize and SaveToBuffer; their bytes are those of the kernel structs. A shape that is not
// two-dimensional or a typeSize other than 2 or 4 is reported on stderr and leaves the outputs
// unset, as CANN's host asserts do. Implemented in libascsim (src/host/tiling/pad_tiling.cpp), as
// CANN's are in libtiling_api.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "ascsim/adv/pad_tiling_structs.h"
#include "graph/tensor.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

#define ASCSIM_PAD_TILING_CLASS(Name, FIELDS)                                          \
  class Name {                                                                         \
   public:                                                                             \
    FIELDS(ASCSIM_PAD_TILING_ACCESSORS)                                                \
    size_t GetDataSize() const { return sizeof(data_); }                               \
    void SaveToBuffer(void* pData, size_t capacity) const {                            \
      std::memcpy(pData, &data_, capacity < sizeof(data_) ? capacity : sizeof(data_)); \
    }                                                                                  \
    const AscendC::tiling::Name& Data() const { return data_; }                        \
                                                                                       \
   private:                                                                            \
    AscendC::tiling::Name data_;                                                       \
  };
#define ASCSIM_PAD_TILING_ACCESSORS(name)         \
  void set_##name(uint32_t v) { data_.name = v; } \
  uint32_t get_##name() const { return data_.name; }
#define ASCSIM_UNPAD_FIELDS(X)                                                             \
  X(srcHeight)                                                                             \
  X(srcWidth) X(tmpBuffer1BlockNum) X(tmpBuffer1RowNum) X(tmpBuffer2Offset) X(widthTiling) \
      X(widthFractal) X(widthFractalTail)
#define ASCSIM_PAD_FIELDS(X)                                                                   \
  X(srcHeight)                                                                                 \
  X(srcWidth) X(srcOriWidth) X(widthWithoutLastBlock) X(blocksPerRow) X(heightTiling)          \
      X(heightFractal) X(heightFractalTail) X(mainLoopOffset) X(tailBlockOffset)               \
          X(tmpBuffer1BlockNum) X(tmpBuffer1RowNum) X(tmpBuffer2Offset) X(widthTiling)         \
              X(widthFractal) X(widthFractalTail) X(widthFractalTailAlingned) X(brcbTiling)    \
                  X(brcbFractal) X(brcbFractalTail) X(maxRepeatTimes) X(brcbTilingRepeatTimes) \
                      X(brcbTilingRepeatTimesTail) X(brcbFractalTailRepeatTimes)               \
                          X(brcbFractalTailRepeatTimesTail) X(reserved)
ASCSIM_PAD_TILING_CLASS(PadTiling, ASCSIM_PAD_FIELDS)
ASCSIM_PAD_TILING_CLASS(UnPadTiling, ASCSIM_UNPAD_FIELDS)
#undef ASCSIM_PAD_TILING_CLASS
#undef ASCSIM_PAD_TILING_ACCESSORS
#undef ASCSIM_PAD_FIELDS
#undef ASCSIM_UNPAD_FIELDS

}  // namespace optiling

namespace AscendC {
#ifndef ASCSIM_TENSOR_SHAPE_DEFINED
#define ASCSIM_TENSOR_SHAPE_DEFINED
using TensorShape = ge::Shape;  // asc-devkit include/adv_api/utils/types.h
#endif
void GetPadMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                         uint32_t& minValue);
void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape,
                   const uint32_t stackBufferSize, const uint32_t typeSize,
                   optiling::PadTiling& tiling);
void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape,
                   const uint32_t stackBufferSize, const uint32_t typeSize,
                   AscendC::tiling::PadTiling& tiling);
// A2/A3 unpad with GatherMask and need no temporary space; the 310P does (the Pad formula).
void GetUnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                           const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                           uint32_t& minValue);
void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize,
                     const uint32_t typeSize, optiling::UnPadTiling& tiling);
void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize,
                     const uint32_t typeSize, AscendC::tiling::UnPadTiling& tiling);

}  // namespace AscendC
