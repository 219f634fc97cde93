// Special registers and system constants (docs 基础API/特殊寄存器访问, 工具接口/系统初始化 and
// 系统资源与变量): SetDeqScale (the int32_t -> half Cast scale), GetAccVal /
// GetReduceRepeatSumSpr, GetCtrlSpr / SetCtrlSpr / ResetCtrlSpr, AscendCUtils, InitSocState,
// GetDataBlockSizeInBytes.
// Sources: asc-devkit include/basic_api/kernel_operator_{common,cache,scalar,sys_var,vec_vconv,
// vec_reduce}_intf.h, impl/basic_api/dav_c220/kernel_operator_common_impl.h,
// impl/basic_api/kernel_operator_common_intf_impl.h (InitOutput), impl/basic_api/kernel_scalar*.h,
// impl/basic_api/kernel_utils_base.h (AscendCUtils), impl/basic_api/utils/kernel_utils_constants.h
// (RESERVED_WORKSPACE) and the API pages under docs/zh/api/SIMD-API/基础API/
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ascsim/aicore/cache_types.h"
#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/core_context.h"
#include "ascsim/aicore/data_copy.h"
#include "ascsim/aicore/global_tensor.h"
#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/local_tensor.h"
#include "ascsim/aicore/tensor_access.h"
#include "ascsim/aicore/types.h"
#include "ascsim/aicore/vector_masked.h"

namespace ascsim::aicore {

void SetDeqScaleImpl(uint16_t half_bits);
void SetCtrlBit48(int64_t value);
// The raw vector-mask register write of AscendCUtils::SetMask (set_vector_mask: no mode check).
void WriteRawMask(uint64_t high, uint64_t low);

}  // namespace ascsim::aicore

namespace AscendC {

// ---------------------------------------------------------------- small constants
constexpr int32_t DEFAULT_C0_SIZE = 32;
constexpr int32_t ONE_BYTE_BIT_SIZE = 8;
constexpr int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;
__aicore__ inline constexpr int16_t GetDataBlockSizeInBytes() { return ONE_BLK_SIZE; }

// ---------------------------------------------------------------- DEQSCALE
// int32_t -> half Cast multiplies by this scale (vconv_deq); production kernels set 1.0.
inline void SetDeqScale(half scale) { ascsim::aicore::SetDeqScaleImpl(scale.bits); }

// ---------------------------------------------------------------- ACC_VAL
// The sum the last count-form ReduceSum left in ACC_VAL, as int64_t bits (the low bytes hold the
// element) or as T. (kernel_operator_vec_reduce_intf_impl.h: GetAccVal is the older name of
// GetReduceRepeatSumSpr.)
inline int64_t GetReduceRepeatSumSpr() {
  ascsim::aicore::CoreContext& core = ascsim::aicore::CurrentCore();
  ascsim::aicore::EnterApiCall(core);
  return core.vector.acc_val;
}
template <class T>
T GetReduceRepeatSumSpr() {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "GetReduceRepeatSumSpr/GetAccVal: T is half or float");
  const int64_t bits = GetReduceRepeatSumSpr();
  T value;
  std::memcpy(static_cast<void*>(&value), &bits, sizeof(T));
  return value;
}
inline int64_t GetAccVal() { return GetReduceRepeatSumSpr(); }
template <class T>
T GetAccVal() {
  return GetReduceRepeatSumSpr<T>();
}

// ---------------------------------------------------------------- CTRL register
// A2/A3 expose CTRL[48] only (dav_c220 CheckCtrlSprBitRange): 1 = inf/NaN mode, 0 = saturation
// mode. ascsim computes half/bfloat16_t in inf/NaN mode; writing 0 warns that saturation is not
// simulated. Not on the 310P.
template <int8_t startBit, int8_t endBit>
static inline void SetCtrlSpr(int64_t value) {
  static_assert(startBit == endBit && startBit == 48,
                "SetCtrlSpr: startBit and endBit must both be 48 on Atlas A2/A3 (CTRL[48], the "
                "float overflow mode); the other CTRL bits exist only on Ascend 950");
  ascsim::aicore::RequireArch("SetCtrlSpr", 2201, "CTRL[48]");
  ascsim::aicore::SetCtrlBit48(value);
}
template <int8_t startBit, int8_t endBit>
static inline int64_t GetCtrlSpr() {
  static_assert(startBit == endBit && startBit == 48,
                "GetCtrlSpr: startBit and endBit must both be 48 on Atlas A2/A3 (CTRL[48], the "
                "float overflow mode); the other CTRL bits exist only on Ascend 950");
  ascsim::aicore::RequireArch("GetCtrlSpr", 2201, "CTRL[48]");
  return static_cast<int64_t>((ascsim::aicore::CurrentCore().sys.ctrl >> 48) & 1u);
}
template <int8_t startBit, int8_t endBit>
static inline void ResetCtrlSpr() {
  SetCtrlSpr<startBit, endBit>(1);
}

// ---------------------------------------------------------------- AscendCUtils
class AscendCUtils {
 public:
  static inline int32_t GetBitSize(int32_t byteSize) { return byteSize * ONE_BYTE_BIT_SIZE; }
  static inline int32_t GetC0Size() { return DEFAULT_C0_SIZE; }
  static inline int32_t GetC0Count(const int32_t dtypeSize) {
    if (dtypeSize == 0) {
      ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                            "AscendCUtils::GetC0Count: dtypeSize can not be 0");
    }
    return GetC0Size() / dtypeSize;
  }
  static inline int32_t GetDefaultBlockNum() { return DEFAULT_BLK_NUM; }
  // RSVD_CNT, the number of elements the last GatherMask selected (asc-devkit
  // impl/basic_api/kernel_utils_base.h get_rsvd_cnt(); ops-math hans_encode reads it after its
  // GatherMask). 0 before any GatherMask of this core.
  static inline int64_t GetRsvdCnt() {
    ascsim::aicore::CoreContext& core = ascsim::aicore::CurrentCore();
    ascsim::aicore::EnterApiCall(core);
    return core.vector.rsvd_cnt;
  }
  // The raw mask register write (set_vector_mask): in either mask mode, no range check.
  template <class T, bool isSetMask = true>
  static inline void SetMask(const uint64_t& maskHigh, const uint64_t& maskLow) {
    if constexpr (isSetMask) ascsim::aicore::WriteRawMask(maskHigh, maskLow);
  }
  // The first `len` elements of a repeat (64 -> low word only, >= 128 or a whole repeat -> all).
  template <class T, bool isSetMask = true>
  static inline void SetMask(int32_t len) {
    if constexpr (!isSetMask) return;
    constexpr int32_t kTypeLen = ONE_REPEAT_BYTE_SIZE / static_cast<int32_t>(sizeof(T));
    constexpr int32_t kHalf = 64;
    if (len == kHalf) return SetMask<T>(0, FULL_MASK);
    if (len == kTypeLen || len >= 2 * kHalf) return SetMask<T>(FULL_MASK, FULL_MASK);
    const uint64_t high = len > kHalf ? (uint64_t{1} << (len - kHalf)) - 1 : 0;
    const uint64_t low = len > kHalf ? FULL_MASK : (len <= 0 ? 0 : (uint64_t{1} << len) - 1);
    SetMask<T>(high, low);
  }
  template <class T>
  static inline void SetMaskCount() {
    AscendC::SetMaskCount();
  }
  template <class T>
  static inline void SetMaskNorm() {
    AscendC::SetMaskNorm();
  }
  // CTRL[48]: 1 inf/NaN mode, 0 saturation mode.
  static inline void SetOverflow(uint64_t ctrlValue) { ascsim::aicore::SetCtrlBit48(ctrlValue); }
  static inline void InitSocStateImpl();
};

// Resets what a kernel may have left behind: atomic mode off, normal mask mode, full mask.
inline void InitSocState() {
  SetAtomicNone();
  SetMaskNorm();
  ResetMask();
}
inline void AscendCUtils::InitSocStateImpl() { InitSocState(); }

}  // namespace AscendC
