// TopK's plain types, shared by kernel and host code: TopKMode, TopKAlgo, TopKOrder, TopKConfig
// (asc-devkit include/adv_api/sort/topk_utils_constants.h), defaultTopKConfig
// (impl/adv_api/detail/sort/topk/topk_common_utils.h) and TopKInfo (include/adv_api/sort/
// topk_utils.h). Includable alone.
#pragma once

#include <cstdint>

namespace AscendC {

enum class TopKMode {
  TOPK_NORMAL,
  TOPK_NSMALL,
};
enum class TopKAlgo { RADIX_SELECT, MERGE_SORT };
enum class TopKOrder { UNSET, LARGEST, SMALLEST };
struct TopKConfig {
  TopKAlgo algo = TopKAlgo::MERGE_SORT;
  TopKOrder order = TopKOrder::UNSET;
  bool sorted = true;
};
// MERGE_SORT, UNSET, sorted (topk_common_utils.h); value-initialized so host code compiles as C++11.
constexpr TopKConfig defaultTopKConfig{};

// The shape of TopK's input: outter rows of inner elements (a multiple of 32), n of them real.
struct TopKInfo {
  int32_t outter = 1;
  int32_t inner;
  int32_t n;
};

}  // namespace AscendC
