// The named constants of CANN's kernel_operator.h that production kernels use (sizes of the local
// memories, of blocks and repeats, DataCopy limits), with the values of the arch the kernel is
// compiled for (__NPU_ARCH__: 2201 = Atlas A2/A3, 2002 = 310P, 1001 = Ascend 910).
//
// Source: asc-devkit impl/basic_api/utils/kernel_utils_constants.h (names, types and per-arch
// values). Those ascsim already defined elsewhere (ONE_BLK_SIZE, MAX_REPEAT_TIMES,
// DEFAULT_REPEAT_STRIDE, ...) are not repeated here.
#pragma once

#include <cstdint>

#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/types.h"

namespace AscendC {

constexpr int32_t POWER_MASK_NUM = 8;
constexpr int32_t HALF_FACTOR = 2;
constexpr int32_t DOUBLE_FACTOR = 2;
constexpr int32_t DEFAULT_BLK_STRIDE = 1;
constexpr uint8_t HALF_DEFAULT_REPEAT_STRIDE = 4;
constexpr uint8_t ONE_FOURTH_DEFAULT_REPEAT_STRIDE = 2;
constexpr uint64_t CONST_MASK_VALUE = 0x8000000000000000;
constexpr uint16_t MAX_HALF_MASK_LEN = 64;
constexpr int32_t DEFAULT_BLOCK_SIZE = 256;
constexpr int32_t MIN_REPEAT_TIMES = 0;
constexpr uint16_t MASK_ARRAY_SIZE = 4;
constexpr uint32_t TOTAL_L0A_SIZE = 64 * 1024;
constexpr uint32_t TOTAL_L0B_SIZE = 64 * 1024;
constexpr uint32_t TMP_UB_SIZE = 8 * 1024;
constexpr uint32_t MAX_SLICE_SIZE = 6 * 256;
constexpr uint32_t F32_INF = 0x7f800000;
constexpr uint32_t F32_NEG_INF = 0xff800000;
constexpr uint32_t F32_NAN = 0x7fc00000;
constexpr uint32_t INT4_TWO = 2;
constexpr uint32_t INT4_BIT_NUM = 4;

#if __NPU_ARCH__ == 2201
constexpr int32_t TOTAL_VEC_LOCAL_SIZE = 184 * 1024;
constexpr uint32_t TOTAL_UB_SIZE = 192 * 1024;
constexpr uint32_t TMP_UB_OFFSET = 184 * 1024;
#ifndef KFC_L1_RESERVER_SIZE
#define KFC_L1_RESERVER_SIZE 128
#endif
constexpr uint32_t TOTAL_L1_SIZE = 512 * 1024 - KFC_L1_RESERVER_SIZE;
constexpr uint32_t SINGLE_MSG_SIZE = 64;
constexpr uint32_t CACHE_LINE_SIZE = 64;
constexpr uint32_t TOTAL_L0C_SIZE = 128 * 1024;
#else  // 2002 (310P), 1001 (910)
constexpr int32_t TOTAL_VEC_LOCAL_SIZE = 248 * 1024;
constexpr uint32_t TOTAL_UB_SIZE = 256 * 1024;
constexpr uint32_t TMP_UB_OFFSET = 248 * 1024;
constexpr uint32_t TOTAL_L1_SIZE = 1024 * 1024;
constexpr uint32_t TOTAL_L0C_SIZE = 256 * 1024;
#endif
constexpr uint32_t VECTOR_REG_WIDTH = 256;

constexpr int32_t BLOCK_CUBE = 16;
constexpr int32_t CUBE_MAX_SIZE = 256;
constexpr uint8_t DEFAULT_DATA_COPY_NBURST = 1;
constexpr int32_t BYTE_PER_FRACTAL = 512;
constexpr int32_t SRC_BURST_LEN_SIZE_ELE = 16;
constexpr int32_t SRC_GAP_SIZE_BYTE = 32;
constexpr int32_t DST_BURST_LEN_SIZE_ELE = 256;
constexpr int32_t VREDUCE_PER_REP_OUTPUT = 2;
constexpr uint16_t ONE_PARAM_SIZE = 8;
constexpr uint16_t AIV_CORE_NUM = 50;
constexpr int32_t FULL_MASK_LEN = 128;
constexpr int32_t HALF_MASK_LEN = 64;
constexpr int32_t DEFAULT_REDUCE_DST_REP_STRIDE = 1;
constexpr uint8_t B64_BYTE_SIZE = 8;
constexpr uint8_t B32_BYTE_SIZE = 4;
constexpr uint8_t B16_BYTE_SIZE = 2;
constexpr uint8_t B8_BYTE_SIZE = 1;
constexpr uint8_t B32_DATA_NUM_PER_BLOCK = 8;
constexpr uint8_t B16_DATA_NUM_PER_BLOCK = 16;
constexpr int32_t B16_DATA_NUM_PER_REPEAT = 128;
constexpr int32_t B32_DATA_NUM_PER_REPEAT = 64;
constexpr uint32_t HALF_REPEAT_SIZE = ONE_REPEAT_BYTE_SIZE / B16_BYTE_SIZE;
constexpr uint32_t FLOAT_REPEAT_SIZE = ONE_REPEAT_BYTE_SIZE / B32_BYTE_SIZE;
constexpr uint32_t ONE_REPEAT_FLOAT_SIZE = ONE_REPEAT_BYTE_SIZE / B32_BYTE_SIZE;
constexpr uint32_t ONE_REPEAT_HALF_SIZE = ONE_REPEAT_BYTE_SIZE / B16_BYTE_SIZE;
constexpr uint32_t MAX_REPEAT_FLOAT_SIZE = ONE_REPEAT_FLOAT_SIZE * MAX_REPEAT_TIMES;
constexpr uint32_t MAX_REPEAT_HALF_SIZE = ONE_REPEAT_HALF_SIZE * MAX_REPEAT_TIMES;
constexpr uint32_t ONE_BLK_HALF_NUM = ONE_BLK_SIZE / B16_BYTE_SIZE;
constexpr uint32_t ONE_BLK_FLOAT_NUM = ONE_BLK_SIZE / B32_BYTE_SIZE;
constexpr uint32_t BRCB_BROADCAST_NUMBER = 8;
constexpr uint32_t BRCB_MAX_REPEAT_SIZE = BRCB_BROADCAST_NUMBER * MAX_REPEAT_TIMES;
constexpr int32_t MIN_BLOCK_LEN = 1;
constexpr uint32_t DROPOUT_MODE_BYTE_MISALIGN = 1;
constexpr uint32_t DROPOUT_MODE_BYTE_ALIGN = 2;
constexpr uint32_t DROPOUT_MODE_BIT_ALIGN = 3;
constexpr uint32_t DROPOUT_MODE_BIT_MISALIGN = 4;
constexpr int32_t MAX_BLOCK_COUNT = 4095;
constexpr int32_t MIN_BLOCK_COUNT = 1;
constexpr int32_t MAX_BLOCK_LEN = 65535;
constexpr int32_t MAX_16BITS_STRIDE = 65535;
constexpr int32_t MAX_8BITS_STRIDE = 255;
constexpr int32_t MIN_BLOCK_NUM = 1;
#ifndef ASCSIM_K_MAX_DIM_DEFINED  // shape_info.h defines it too, for headers that need only that
#define ASCSIM_K_MAX_DIM_DEFINED
constexpr int32_t K_MAX_DIM = 8;
#endif

}  // namespace AscendC
