// The kernel-side tiling structures of the advanced APIs: plain structs in AscendC::tiling with the
// fields the host's tiling functions fill (tiling/rmsnorm_tiling.h, tiling/softmax_tiling.h), also
// visible as AscendC::X and, for the structs CANN exports so, as ::X (asc-devkit
// impl/adv_api/cmake/scripts/gen_kernel_tiling_data_def.py: namespace AscendC::tiling, the legacy
// structs re-exported globally; fields from include/adv_api/activation/softmax_tilingdata.h and
// docs/zh/api/SIMD-API/高阶API/归一化操作/RmsNorm-Tiling.md).
#pragma once

#include <cstdint>

namespace AscendC {
namespace tiling {

#pragma pack(push, 8)
struct RmsNormTiling {
  uint32_t bLength = 0;
  uint32_t sLength = 0;
  uint32_t hLength = 0;
  uint32_t originalHLength = 0;
  float reciprocalOfHLength = 0;
  uint32_t mainBshLength = 0;
  uint32_t mainBsLength = 0;
  uint32_t mainBsLengthAlign = 0;
  uint32_t loopRound = 0;
  uint32_t inputTailPos = 0;
  uint32_t tailBshLength = 0;
  uint32_t tailBsLength = 0;
};

struct SoftMaxTiling {
  uint32_t srcM = 0;
  uint32_t srcK = 0;
  uint32_t srcSize = 0;
  uint32_t outMaxM = 0;
  uint32_t outMaxK = 0;
  uint32_t outMaxSize = 0;
  uint32_t splitM = 0;
  uint32_t splitK = 0;
  uint32_t splitSize = 0;
  uint32_t reduceM = 0;
  uint32_t reduceK = 0;
  uint32_t reduceSize = 0;
  uint32_t rangeM = 0;
  uint32_t tailM = 0;
  uint32_t tailSplitSize = 0;
  uint32_t tailReduceSize = 0;
};
#pragma pack(pop)

}  // namespace tiling

namespace tiling_structs_detail {
// The SoftMax-family fields that follow from [m, k], the rows per pass and the elements per 32 B
// block: asc-devkit's SoftMaxTilingFunc and SoftMaxFlashV2TilingFunc
// (impl/adv_api/tiling/activation/softmax_tiling.cpp) derive them the same way once base_m is
// chosen. constexpr for the kernel-side SoftMaxFlashV2TilingFunc; plain inline where the host
// headers are compiled as C++11 (a constexpr void function needs C++14).
#if __cplusplus >= 201402L
constexpr
#else
inline
#endif
void FillSoftMaxTiling(tiling::SoftMaxTiling& t, uint32_t m, uint32_t k, uint32_t base_m,
                       uint32_t blk) {
  t.srcM = m;
  t.srcK = k;
  t.srcSize = m * k;
  t.outMaxM = m;
  t.outMaxK = blk;
  t.outMaxSize = m * blk;
  t.splitM = base_m;
  t.splitK = k;
  t.splitSize = base_m * k;
  t.reduceM = base_m;
  t.reduceK = blk;
  t.reduceSize = base_m * blk;
  t.rangeM = base_m == 0 ? 0 : m / base_m;
  t.tailM = base_m == 0 ? 0 : m % base_m;
  t.tailSplitSize = t.tailM * k;
  t.tailReduceSize = t.tailM * blk;
}
}  // namespace tiling_structs_detail

using tiling::RmsNormTiling;
using tiling::SoftMaxTiling;

}  // namespace AscendC

using AscendC::tiling::RmsNormTiling;
using AscendC::tiling::SoftMaxTiling;
