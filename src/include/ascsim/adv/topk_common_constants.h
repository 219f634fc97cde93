// The constants CANN's TopK implementation declares at global scope, in an unnamed namespace, for
// the 310P, Atlas A2/A3 and later arches (asc-devkit impl/adv_api/detail/sort/topk/
// topk_common_utils.h, under __NPU_ARCH__ 2002 / 2201 / 3510 / 5102 / 3003 / 3113). CANN's
// kernel_operator.h reaches that header through kernel_operator_intf.h -> adv_api/kernel_api.h ->
// sort/topk.h, so every kernel that includes kernel_operator.h sees these names, and production
// kernels use them unqualified (ops-nn top_k_top_p_sample uses SIXTEEN and EIGHT without declaring
// them). ascsim declares the same names with the same types and values in the same place, so code
// that compiles against CANN compiles here, and code that would clash with them on the device
// (its own global TWO, EIGHT, ... used unqualified) is ambiguous here too.
#pragma once

#include <cstdint>

#include "ascsim/npu_arch.h"

#if __NPU_ARCH__ == 2002 || __NPU_ARCH__ == 2201 || __NPU_ARCH__ == 3510 || \
    __NPU_ARCH__ == 5102 || __NPU_ARCH__ == 3003 || __NPU_ARCH__ == 3113
namespace {
constexpr uint16_t MIN_SORT32_SIZE = 32;
constexpr uint16_t MIN_RPSORT16_SIZE = 16;
constexpr uint32_t BUF_LIST_SIZE = 2;
constexpr uint32_t MRG_MAX_ARRAY_SIZE = 15;
constexpr uint32_t MRGSORT_VALID_QUEUE = 4;
constexpr uint32_t MRGSORT_VALID_TWO = 2;
constexpr uint32_t MRGSORT_VALID_TWO_OFFSET = 769;
constexpr uint32_t TWO = 2;
constexpr uint32_t THREE = 3;
constexpr uint32_t FOUR = 4;
constexpr uint32_t FIVE = 5;
constexpr uint32_t SIX = 6;
constexpr uint32_t SEVEN = 7;
constexpr uint32_t EIGHT = 8;
constexpr uint32_t NINE = 9;
constexpr uint32_t TWELVE = 12;
constexpr uint32_t SIXTEEN = 16;
constexpr uint32_t THIRTY_TWO = 32;
constexpr uint32_t FORTYEIGHT = 48;
constexpr uint32_t VREDUCEV2_HALF_MASK = 128;
constexpr uint32_t VREDUCEV2_FOUR_BYTE_MASK = 64;
constexpr uint32_t SRC1_STACK_TENSORSIZE = 10;
constexpr uint32_t SRC1_STACK_VAL_OFFSET = 16;
constexpr uint32_t TOPK_INNER_ALIGN_LEN = 32;
constexpr uint32_t TOPK_NORMAL_INNER_MAX_HALF_LEN = 2048;
constexpr uint32_t TOPK_NSMALL_INNER_LEN = 32;
constexpr uint32_t TOPK_NORMAL_INNER_MAX_LEN = 4096;
}  // namespace
#endif
