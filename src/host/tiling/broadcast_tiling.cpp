// GetBroadCastMaxMinTmpSize (tiling/broadcast_tiling.h). The rules are asc-devkit's
// (impl/adv_api/tiling/pad/broadcast_tiling.cpp), restated: the kernel broadcasts through Brcb into
// a block-wide scratch (rows rounded up to 8, one block per row), plus, when the destination rows
// are not whole 32-byte blocks, a copy of the destination rounded up to blocks; an 8-bit type is
// first widened to 16 bits in a copy of source and destination (each rounded up to 16 elements).
#include "tiling/broadcast_tiling.h"

#include <cstdio>

#include "ascsim/ceil_align.h"

namespace AscendC {
namespace {
constexpr uint32_t kBlockBytes = 32;
constexpr uint32_t kBrcbRows = 8;
constexpr uint32_t kHalfBlockElems = 16;

uint32_t RoundUp(uint64_t v, uint32_t to) {
  return static_cast<uint32_t>(ascsim::AlignUp<uint64_t>(v, to));
}

// The widening copy of an 8-bit type; switches typeSize to the 16 bits the kernel then works in.
uint32_t WideningBytes(const ge::Shape& src, const ge::Shape& dst, uint32_t& typeSize) {
  if (typeSize != 1) return 0;
  typeSize = 2;
  return (RoundUp(static_cast<uint64_t>(src.GetShapeSize()), kHalfBlockElems) +
          RoundUp(static_cast<uint64_t>(dst.GetShapeSize()), kHalfBlockElems)) *
         typeSize;
}

void Report(const char* why) {
  std::fprintf(stderr, "[Broadcast][GetBroadCastMaxMinTmpSize] %s\n", why);
}
}  // namespace

void GetBroadCastMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,
                               const AscendC::TensorShape& srcShape,
                               const AscendC::TensorShape& dstShape, uint32_t typeSize,
                               const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  using platform_ascendc::SocVersion;
  const SocVersion soc = ascendcPlatform.GetSocVersion();
  const bool a2 = soc == SocVersion::ASCEND910B || soc == SocVersion::ASCEND910_93;
  const bool v200 = soc == SocVersion::ASCEND310P;
  const size_t rank = dstShape.GetDimNum();
  if (a2 || v200) {
    // CANN only warns about these three and goes on; the checks below stop the call.
    if (typeSize != 1 && typeSize != 2 && typeSize != 4) {
      std::fprintf(stderr,
                   "[Broadcast][GetBroadCastMaxMinTmpSize] typeSize is %u, should be 1, 2 or 4\n",
                   typeSize);
    }
    if (isReuseSource) {
      Report("isReuseSource is true; it may have no effect");
    }
    if (rank != 1 && rank != 2) {
      std::fprintf(stderr,
                   "[Broadcast][GetBroadCastMaxMinTmpSize] dstShape has %zu dims; only 1 or 2 are "
                   "supported\n",
                   rank);
      return;
    }
  }
  if (srcShape.GetDimNum() != rank) {
    std::fprintf(stderr,
                 "[Broadcast][GetBroadCastMaxMinTmpSize] srcShape has %zu dims, dstShape %zu; "
                 "they must be equal\n",
                 srcShape.GetDimNum(), rank);
    return;
  }
  if (typeSize == 0) {
    Report("typeSize must be greater than 0");
    return;
  }
  for (size_t i = 0; i < rank; ++i) {
    if (srcShape.GetDim(i) != dstShape.GetDim(i) && srcShape.GetDim(i) != 1) {
      std::fprintf(stderr,
                   "[Broadcast][GetBroadCastMaxMinTmpSize] srcShape dim %zu is %lld, which does "
                   "not broadcast to %lld\n",
                   i, static_cast<long long>(srcShape.GetDim(i)),
                   static_cast<long long>(dstShape.GetDim(i)));
      return;
    }
  }
  const int64_t srcSize = srcShape.GetShapeSize();
  if (srcSize <= 0) {
    Report("srcShape has no elements");
    return;
  }
  // Nothing to broadcast, or one value duplicated: only the widening copy (and one block) of an
  // 8-bit type.
  if (srcSize == dstShape.GetShapeSize() || srcSize == 1) {
    if (typeSize != 1) {
      maxValue = minValue = 0;
      return;
    }
    maxValue = minValue = WideningBytes(srcShape, dstShape, typeSize) + kBlockBytes;
    return;
  }
  const bool lastAxis = srcShape.GetDim(1) == 1;  // [m, 1] -> [m, k]; else [1, k] -> [m, k]
  if (!a2 && !v200) {
    Report("this SoC has no Broadcast temporary-space rule (Atlas A2/A3 and 310P only)");
    return;
  }
  const uint32_t widen = WideningBytes(srcShape, dstShape, typeSize);
  const uint32_t perBlock = kBlockBytes / typeSize;
  const uint64_t rows = static_cast<uint64_t>(dstShape.GetDim(0));
  const uint64_t cols = static_cast<uint64_t>(dstShape.GetDim(1));
  if (!lastAxis) {
    if (cols % perBlock != 0) {
      Report("dstShape dim 1 is not a whole number of 32-byte blocks");
      return;
    }
    maxValue = minValue = kBlockBytes + widen;
    return;
  }
  if (a2) {
    const uint32_t brcbMin = perBlock * perBlock * typeSize;
    const uint32_t brcbMax = RoundUp(rows, kBrcbRows) * perBlock * typeSize;
    if (cols % perBlock == 0) {
      minValue = brcbMin + widen;
      maxValue = brcbMax + widen;
    } else {
      const uint32_t colsAligned = RoundUp(cols, perBlock);
      minValue = brcbMin + perBlock * colsAligned * typeSize + widen;
      maxValue = brcbMax + static_cast<uint32_t>(rows) * colsAligned * typeSize + widen;
    }
    return;
  }
  if (rows % perBlock != 0) {
    Report("dstShape dim 0 is not a whole number of 32-byte blocks");
    return;
  }
  minValue = kBlockBytes + widen +
             perBlock * static_cast<uint32_t>((cols + kBrcbRows - 1) / kBrcbRows) * typeSize;
  maxValue = kBlockBytes + widen + static_cast<uint32_t>(rows * cols) * typeSize;
}
}  // namespace AscendC
