// System names of the Ascend C API that production kernels use beside the vector ops:
//   workspace      GetUserWorkspace, SetSysWorkspace(Force), GetSysWorkSpacePtr
//   registers      SetDeqScale (int32_t -> half Cast), GetAccVal / GetReduceRepeatSumSpr,
//                  GetCtrlSpr / SetCtrlSpr / ResetCtrlSpr, AscendCUtils, InitSocState
//   cache          DataCacheCleanAndInvalid, GlobalTensor::SetL2CacheHint (global_tensor.h)
//   scalar         ToFloat / ToBfloat16 / scalar Cast, ScalarCast, GetDataBlockSizeInBytes,
//                  GetUintDivMagicAndShift (Ascend 950 only: rejected at compile time here)
//   GM fill        InitOutput
//   debugging      Trap, InitDump
// Sources: asc-devkit include/basic_api/kernel_operator_{common,cache,scalar,sys_var,vec_vconv,
// vec_reduce}_intf.h, impl/basic_api/dav_c220/kernel_operator_common_impl.h,
// impl/basic_api/kernel_operator_common_intf_impl.h (InitOutput), impl/basic_api/kernel_scalar*.h,
// impl/basic_api/kernel_utils_base.h (AscendCUtils), impl/basic_api/utils/kernel_utils_constants.h
// (RESERVED_WORKSPACE) and the API pages under docs/zh/api/SIMD-API/基础API.
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

// The system workspace the device reserves in front of the user workspace: 16 MiB on A2/A3
// (2201), 2 MiB on the 310P (2002) (kernel_utils_constants.h RESERVED_WORKSPACE; the host's
// PlatformAscendC::GetLibApiWorkSpaceSize gives the same sizes).
uint64_t ReservedWorkspaceBytes(const SocProfile& soc);

uint8_t* UserWorkspaceImpl(uint8_t* workspace);
void SetSysWorkspaceImpl(uint8_t* workspace, bool force);
void SetDeqScaleImpl(uint16_t half_bits);
void RequireArch(const char* call, int arch, const char* what);
void SetCtrlBit48(int64_t value);
// One element through the vector Cast's conversion (the scalar unit's conv_* instructions round
// the same way): float -> half (`to_half`) or float -> int32_t under `mode`.
void ScalarCastValue(float value, bool to_half, AscendC::RoundMode mode, void* out);
// InitOutput's checks (A2 only; needs UB above the TPipe's buffers) and its call records.
uint64_t InitOutputBurst(const char* call, uint64_t elem_bytes);
void RecordInitOutput(CoreContext& core, uint64_t elem_bytes, uint64_t count, uint64_t burst);
trace::ApiCall CacheCall(const char* name);
// The raw vector-mask register write of AscendCUtils::SetMask (set_vector_mask: no mode check).
void WriteRawMask(uint64_t high, uint64_t low);

}  // namespace ascsim::aicore

namespace AscendC {

// ---------------------------------------------------------------- workspace
// The device returns the system workspace + the reserved system workspace size (16 MiB on A2):
// the system workspace is the one SetSysWorkspace set (the custom-operator framework sets it to
// the launch's workspace before the kernel runs), else `workspace`. ascsim does the same, so a host
// that sized the workspace without GetLibApiWorkSpaceSize() gets a warning here and a fault at the
// first access past its allocation (CPU-debug CANN returns `workspace` itself and so hides that
// bug). A null workspace with no system workspace set faults, as the CPU-debug assertion does.
inline GM_ADDR GetUserWorkspace(GM_ADDR workspace) {
  return ascsim::aicore::UserWorkspaceImpl(workspace);
}
// Sets the system workspace pointer GetSysWorkSpacePtr() returns, once per block (later calls keep
// the first, as g_sysWorkspaceReserved on the device); the Force form always sets it.
inline void SetSysWorkspace(GM_ADDR workspace) {
  ascsim::aicore::SetSysWorkspaceImpl(workspace, false);
}
inline void SetSysWorkspaceForce(GM_ADDR workspace) {
  ascsim::aicore::SetSysWorkspaceImpl(workspace, true);
}
// nullptr until SetSysWorkspace (kernel-direct launches have no framework to set it).
inline __gm__ uint8_t* GetSysWorkSpacePtr() {
  ascsim::aicore::CoreContext& core = ascsim::aicore::CurrentCore();
  ascsim::aicore::EnterApiCall(core);
  return core.sys_workspace;
}

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
  return core.acc_val;
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
  return static_cast<int64_t>((ascsim::aicore::CurrentCore().ctrl >> 48) & 1u);
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

// ---------------------------------------------------------------- cache control
// Writes back and invalidates data-cache lines so scalar GM writes reach GM (and GM data written by
// other cores or the MTEs is re-read). ascsim's scalar GM accesses go straight to memory, so this
// changes nothing here; it is checked (the tensor must be bound) and recorded on pipe S.
namespace detail {
template <class T>
void Dcci(const char* call, const GlobalTensor<T>& dst, CacheLine entireType) {
  ascsim::aicore::CoreContext& core = ascsim::aicore::CurrentCore();
  ascsim::aicore::EnterApiCall(core);
  if (entireType == CacheLine::SINGLE_CACHE_LINE) {
    ascsim::aicore::TensorAccess::CheckedAddress(dst, call, "line", 0, 0);
  }
  ascsim::aicore::Record(core, [&] { return ascsim::aicore::CacheCall(call); });
}
}  // namespace detail
template <class T, CacheLine entireType, DcciDst dcciDst>
void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst) {
  // dav_c220 only: the 310P has the two-parameter form.
  ascsim::aicore::RequireArch("DataCacheCleanAndInvalid<T, CacheLine, DcciDst>", 2201,
                              "the DcciDst form");
  detail::Dcci("DataCacheCleanAndInvalid", dst, entireType);
}
template <class T, CacheLine entireType>
void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst) {
  detail::Dcci("DataCacheCleanAndInvalid", dst, entireType);
}
template <class T, CacheLine entireType, DcciDst dcciDst>
void DataCacheCleanAndInvalid(const LocalTensor<T>& dst) {
  ascsim::aicore::RequireArch("DataCacheCleanAndInvalid<T, CacheLine, DcciDst>(LocalTensor)", 2201,
                              "the DcciDst form");
  ascsim::aicore::CoreContext& core = ascsim::aicore::CurrentCore();
  ascsim::aicore::EnterApiCall(core);
  ascsim::aicore::TensorAccess::CheckLive(dst, "DataCacheCleanAndInvalid", "dst");
  ascsim::aicore::Record(core,
                         [&] { return ascsim::aicore::CacheCall("DataCacheCleanAndInvalid"); });
}

// ---------------------------------------------------------------- scalar conversions
// bfloat16_t <-> float on the scalar unit (kernel_scalar_convert.h): exact widening; narrowing
// rounds to nearest even, overflow to inf, and every NaN becomes 0x7FFF.
inline float Cast(const bfloat16_t& bVal) { return float(bVal); }
inline bfloat16_t Cast(const float& fVal) {
  if (fVal != fVal) return bfloat16_t::FromRaw(0x7FFF);
  return bfloat16_t(fVal);
}
// The older names (non-templates as on A2, so a half argument does not convert).
inline float ToFloat(const bfloat16_t& bVal) { return Cast(bVal); }
inline bfloat16_t ToBfloat16(const float& fVal) { return Cast(fVal); }

// float -> half (CAST_ODD only) or float -> int32_t (CAST_ROUND/CEIL/FLOOR/RINT) on the scalar
// unit (kernel_scalar.h CastImpl).
template <class T, class U, RoundMode roundMode>
U ScalarCast(T valueIn) {
  static_assert(std::is_same_v<U, half> || std::is_same_v<U, int32_t>,
                "ScalarCast: U is half or int32_t");
  static_assert(!std::is_same_v<U, half> || roundMode == RoundMode::CAST_ODD,
                "ScalarCast to half supports RoundMode::CAST_ODD only");
  static_assert(!std::is_same_v<U, int32_t> ||
                    (roundMode == RoundMode::CAST_ROUND || roundMode == RoundMode::CAST_CEIL ||
                     roundMode == RoundMode::CAST_FLOOR || roundMode == RoundMode::CAST_RINT),
                "ScalarCast to int32_t supports CAST_ROUND, CAST_CEIL, CAST_FLOOR, CAST_RINT");
  U out;
  ascsim::aicore::ScalarCastValue(static_cast<float>(valueIn), std::is_same_v<U, half>, roundMode,
                                  &out);
  return out;
}

// Exists only on Ascend 950 (kernel_operator_scalar_intf_impl.h: __NPU_ARCH__ 3510/5102).
template <class T>
void GetUintDivMagicAndShift(T& magic, T& shift, T divisor) {
  static_assert(sizeof(T) == 0,
                "ascsim: GetUintDivMagicAndShift exists only on Ascend 950 (__NPU_ARCH__ 3510); "
                "Atlas A2/A3 and the 310P have no such API");
  (void)magic, (void)shift, (void)divisor;
}

// ---------------------------------------------------------------- InitOutput
// Fills `size` elements of GM from the tensor's start with `value` (the device duplicates `value`
// into the free UB above the TPipe's buffers and copies it out with DataCopyPad, MTE3, so atomic
// modes apply). A2/A3 only: on the 310P the device does nothing, which ascsim reports. Deprecated
// in favour of Fill; kept because production kernels use it.
template <class T>
void InitOutput(GlobalTensor<T> gmWorkspaceAddr, uint32_t size, T value = 0) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const uint64_t burst = ai::InitOutputBurst("InitOutput", sizeof(T));
  if (size == 0) return;
  T* d = ai::TensorAccess::CheckedAddress(gmWorkspaceAddr, "InitOutput", "write", 0, size);
  T chunk[256];  // one burst of the duplicated UB buffer is at most 255 blocks; fill in pieces
  constexpr uint64_t kChunk = sizeof(chunk) / sizeof(T);
  for (uint64_t i = 0; i < kChunk; ++i) chunk[i] = value;
  for (uint64_t done = 0; done < size; done += kChunk) {
    const uint64_t n = size - done < kChunk ? size - done : kChunk;
    ai::StoreToGm("InitOutput", d + done, chunk, n);
  }
  ai::RecordInitOutput(core, sizeof(T), size, burst);
}

// ---------------------------------------------------------------- debugging
// Trap stops the core on the device (an AI core exception); here it faults with the block named.
void Trap();
// The dump machinery is set up by the CPU-debug framework; here DumpTensor/printf need nothing.
inline void InitDump(bool mixFlag, uint32_t gmLen) { (void)mixFlag, (void)gmLen; }
inline void InitDump(bool mixFlag, GM_ADDR dumpStartAddr, uint32_t gmLen) {
  (void)mixFlag, (void)dumpStartAddr, (void)gmLen;
}

}  // namespace AscendC
