// Out-of-line parts of ascsim/aicore/special_registers.h: DEQSCALE and the int32_t -> half Cast
// through it, CTRL[48], the raw mask write, and the per-architecture refusal.
#include "ascsim/aicore/special_registers.h"

#include "ascsim/aicore/simd/vector_math.h"
#include "ascsim/aicore/vector_ops.h"

namespace ascsim::aicore {

void SetDeqScaleImpl(uint16_t half_bits) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  core.deq_scale = half_bits;
  core.deq_scale_set = true;
}

void CastInt32ToHalfDeq(CoreContext& core, half* dst, const int32_t* src, uint64_t n) {
  if (!core.deq_scale_set) {
    Warn(
        "Cast int32_t->half: the device scales by the DEQSCALE register, which this kernel never "
        "set (call SetDeqScale((half)1.0) before the Cast); ascsim uses 1.0",
        "Cast/deqscale");
  }
  const float scale =
      core.deq_scale_set ? HalfBitsToFloat(static_cast<uint16_t>(core.deq_scale)) : 1.0f;
  for (uint64_t i = 0; i < n; ++i) dst[i] = half(static_cast<float>(src[i]) * scale);
}

void SetCtrlBit48(int64_t value) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  if (value != 0 && value != 1) {
    Fault(ErrorKind::kInvalidArgument,
          Str("SetCtrlSpr<48, 48>: value ", value, " does not fit the 1-bit field CTRL[48]"));
  }
  if (value == 0) {
    Warn(
        "SetCtrlSpr<48, 48>(0): saturation mode (inf -> +-MAX, NaN -> 0 for half/bfloat16_t) is "
        "not simulated; ascsim keeps computing in inf/NaN mode",
        "CtrlSpr/48/0");
  }
  core.ctrl = (core.ctrl & ~(uint64_t{1} << 48)) | (static_cast<uint64_t>(value) << 48);
}

void WriteRawMask(uint64_t high, uint64_t low) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  core.mask_high = high;
  core.mask_low = low;
}

}  // namespace ascsim::aicore
