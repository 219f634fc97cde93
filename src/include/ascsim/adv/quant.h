// AscendQuant, the quantisation advanced API of asc-devkit include/adv_api/quantization/
// ascend_quant.h (docs/zh/api/SIMD-API/高阶API/量化操作/AscendQuant.md): half or float src to
// int8_t, dst = round(src * scale + offset), per tensor (scalar scale and offset) or per channel
// (a scale tensor of scaleCount values repeated over calCount / scaleCount rows, with a scalar or
// a tensor offset).
//
// The Atlas A2/A3 (arch 2201) algorithm, impl/adv_api/detail/quantization/quant/
// ascend_quant_pre_impl.h, as the same basic-API calls, so its roundings are the device's: all of
// it in half in sharedTmpBuffer (pieces of its bytes / 2 elements, whole 32 elements):
//   - float src cast to half (CAST_NONE: round to nearest even), scale and offset scalars to half;
//   - Muls (per tensor) or Mul by the half scale tensor (per channel), then Adds / Add the offset,
//     each rounded to half;
//   - Cast half -> int8_t with CAST_NONE (round to nearest even, saturating).
// Per channel with float src, the scale (and offset) tensors are cast to half in place first: the
// device overwrites the caller's float scale / offset tensors with their half values, and ascsim
// does too. The static AscendQuantConfig forms (calcCount and workLocalSize non-zero) split by
// config.workLocalSize as CANN does for per tensor; a per-channel static config is refused (not
// simulated), as are the 950-only dstT / srcT and AscendQuantPolicy forms.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/adv/adv_support.h"

namespace AscendC {

// asc-devkit include/adv_api/quantization/ascend_quant_utils.h (the A2/A3 fields).
struct AscendQuantConfig {
  constexpr AscendQuantConfig(const uint32_t calcCount, const uint32_t offsetCount,
                              const uint32_t scaleCount, const uint32_t workLocalSize)
      : calcCount(calcCount),
        offsetCount(offsetCount),
        scaleCount(scaleCount),
        workLocalSize(workLocalSize) {}
  uint32_t calcCount = 0;
  uint32_t offsetCount = 0;
  uint32_t scaleCount = 0;
  uint32_t workLocalSize = 0;
};
constexpr AscendQuantConfig ASCEND_QUANT_DEFAULT_CFG = {0, 0, 0, 0};

enum class AscendQuantPolicy : int32_t {
  PER_TENSOR,
  PER_CHANNEL,
  PER_TOKEN,
  PER_GROUP,
  PER_CHANNEL_PER_GROUP,
  PER_TOKEN_PER_GROUP
};

namespace detail {

[[noreturn]] inline void QuantFault(const std::string& what) {
  namespace ai = ascsim::aicore;
  ai::Fault(ascsim::ErrorKind::kInvalidArgument, ai::Str("AscendQuant: ", what));
}

template <class T>
constexpr void QuantCheckType() {
  static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                "AscendQuant: src is half or float on Atlas A2/A3");
}

// The piece size: sharedTmpBuffer's (or config.workLocalSize's) bytes / 2, whole 32 elements
// ("splitSize should not be 0!").
inline uint32_t QuantSplit(uint64_t bytes) {
  const uint32_t split = static_cast<uint32_t>(bytes / sizeof(half) / 32 * 32);
  if (split == 0) {
    ascsim::aicore::FaultTmpTooSmall("AscendQuant", bytes, 64,
                                     "one piece of 32 half elements needs (splitSize should not "
                                     "be 0!);");
  }
  return split;
}

// One piece: stack = half(src) (float) or src (half), then the scale and offset step, then int8.
template <class T, class ScaleStep, class OffsetStep>
void QuantPiece(const LocalTensor<int8_t>& dst, const LocalTensor<T>& src,
                const LocalTensor<half>& stack, uint32_t n, ScaleStep scale_step,
                OffsetStep offset_step) {
  if constexpr (std::is_same_v<T, float>) {
    Cast(stack, src, RoundMode::CAST_NONE, n);
    scale_step(stack, stack, n);
  } else {
    scale_step(stack, src, n);
  }
  offset_step(stack, n);
  Cast(dst, stack, RoundMode::CAST_NONE, n);
}

template <class T, const AscendQuantConfig& config>
void QuantPerTensor(const LocalTensor<int8_t>& dst, const LocalTensor<T>& src,
                    const LocalTensor<uint8_t>& tmp, float scale, float offset,
                    uint32_t calCount) {
  QuantCheckType<T>();
  namespace ai = ascsim::aicore;
  if (ai::OnCubeCoreOnly()) return;
  const bool is_static = config.workLocalSize != 0 && config.calcCount != 0;
  if (calCount > src.GetSize()) {
    QuantFault(ai::Str("calCount is ", calCount, ", which should not larger than srcTensor size ",
                       src.GetSize(), "."));
  }
  if (config.calcCount > src.GetSize() || config.workLocalSize > tmp.GetSize()) {
    QuantFault(ai::Str("config.calcCount ", config.calcCount, " / workLocalSize ",
                       config.workLocalSize, " exceed srcTensor size ", src.GetSize(),
                       " / sharedTmpBuffer size ", tmp.GetSize()));
  }
  const uint32_t count = is_static ? config.calcCount : calCount;
  ai::CheckCalCount("AscendQuant", count, src.GetSize(), dst.GetSize());
  const uint32_t split = QuantSplit(is_static ? config.workLocalSize : tmp.GetSize());
  ai::CheckTmpDisjoint("AscendQuant", tmp, "srcTensor", src, count);
  ai::CheckTmpDisjoint("AscendQuant", tmp, "dstTensor", dst, count);
  const half hs = static_cast<half>(scale), ho = static_cast<half>(offset);
  const LocalTensor<half> stack = tmp.ReinterpretCast<half>();
  for (uint32_t off = 0; off < count; off += split) {
    const uint32_t n = count - off < split ? count - off : split;
    QuantPiece<T>(
        dst[off], src[off], stack, n,
        [&](const LocalTensor<half>& d, const LocalTensor<half>& s, uint32_t m) {
          Muls(d, s, hs, m);
        },
        [&](const LocalTensor<half>& d, uint32_t m) { Adds(d, d, ho, m); });
  }
}

// Per channel: `scale` (and `offset_tensor` when given) scaleCount values; the float forms cast
// them to half in place first.
template <class T, const AscendQuantConfig& config>
void QuantPerChannel(const LocalTensor<int8_t>& dst, const LocalTensor<T>& src,
                     const LocalTensor<uint8_t>& tmp, const LocalTensor<T>& scale,
                     const LocalTensor<T>* offset_tensor, T offset, uint32_t scaleCount,
                     uint32_t offsetCount, uint32_t calCount) {
  QuantCheckType<T>();
  namespace ai = ascsim::aicore;
  if (ai::OnCubeCoreOnly()) return;
  if constexpr (config.scaleCount != 0 && config.calcCount != 0) {
    QuantFault("a per-channel static AscendQuantConfig (scaleCount and calcCount set) is not "
               "simulated");
  }
  if (calCount > src.GetSize()) {
    QuantFault(ai::Str("calCount is ", calCount, ", which should not larger than srcTensor size ",
                       src.GetSize(), "."));
  }
  if (scaleCount > scale.GetSize()) {
    QuantFault(ai::Str("scaleCount is ", scaleCount,
                       ", which should not larger than scaleTensor size ", scale.GetSize(), "."));
  }
  if (offset_tensor != nullptr) {
    if (offsetCount > offset_tensor->GetSize()) {
      QuantFault(ai::Str("offsetCount is ", offsetCount,
                         ", which should not larger than offsetTensor size ",
                         offset_tensor->GetSize(), "."));
    }
    if (scaleCount != offsetCount || scaleCount == 0) {
      QuantFault(ai::Str("scaleCount is ", scaleCount, ", which should be equal to offsetCount ",
                         offsetCount, " and not zero."));
    }
  } else if (scaleCount == 0) {
    QuantFault("scaleCount is 0, which should be not zero.");
  }
  if (calCount % scaleCount != 0 || calCount == 0) {
    QuantFault(ai::Str("calCount is ", calCount,
                       ", which should be integral multiple of scaleCount ", scaleCount,
                       " and not zero."));
  }
  ai::CheckCalCount("AscendQuant", calCount, src.GetSize(), dst.GetSize());
  const uint32_t split = QuantSplit(tmp.GetSize());
  ai::CheckTmpDisjoint("AscendQuant", tmp, "srcTensor", src, calCount);
  ai::CheckTmpDisjoint("AscendQuant", tmp, "dstTensor", dst, calCount);
  ai::CheckTmpDisjoint("AscendQuant", tmp, "scaleTensor", scale, scaleCount);
  LocalTensor<half> hscale, hoffset;
  if constexpr (std::is_same_v<T, float>) {
    hscale = scale.template ReinterpretCast<half>();
    Cast(hscale, scale, RoundMode::CAST_NONE, scaleCount);
    if (offset_tensor != nullptr) {
      hoffset = offset_tensor->template ReinterpretCast<half>();
      Cast(hoffset, *offset_tensor, RoundMode::CAST_NONE, scaleCount);
    }
  } else {
    hscale = scale;
    if (offset_tensor != nullptr) hoffset = *offset_tensor;
  }
  const half ho = static_cast<half>(offset);
  const LocalTensor<half> stack = tmp.ReinterpretCast<half>();
  for (uint32_t row = 0; row < calCount / scaleCount; ++row) {
    const uint32_t base = row * scaleCount;
    for (uint32_t off = 0; off < scaleCount; off += split) {
      const uint32_t n = scaleCount - off < split ? scaleCount - off : split;
      QuantPiece<T>(
          dst[base + off], src[base + off], stack, n,
          [&](const LocalTensor<half>& d, const LocalTensor<half>& s, uint32_t m) {
            Mul(d, s, hscale[off], m);
          },
          [&](const LocalTensor<half>& d, uint32_t m) {
            if (offset_tensor != nullptr)
              Add(d, d, hoffset[off], m);
            else
              Adds(d, d, ho, m);
          });
    }
  }
}

}  // namespace detail

// ============================================================================ per tensor
template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset,
                 const uint32_t calCount) {
  detail::QuantPerTensor<T, config>(dstTensor, srcTensor, sharedTmpBuffer, scale, offset,
                                    calCount);
}

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const float scale, const float offset, const uint32_t calCount) {
  if (ascsim::aicore::OnCubeCoreOnly()) return;
  detail::QuantPerTensor<T, config>(dstTensor, srcTensor, detail::AdvStack("AscendQuant"), scale,
                                    offset, calCount);
}

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale,
                 const float offset) {
  detail::QuantPerTensor<T, config>(dstTensor, srcTensor, sharedTmpBuffer, scale, offset,
                                    srcTensor.GetSize());
}

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const float scale, const float offset) {
  if (ascsim::aicore::OnCubeCoreOnly()) return;
  detail::QuantPerTensor<T, config>(dstTensor, srcTensor, detail::AdvStack("AscendQuant"), scale,
                                    offset, srcTensor.GetSize());
}

// ============================================================ per channel, scalar offset
template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                 const T offset, const uint32_t scaleCount, const uint32_t calCount) {
  detail::QuantPerChannel<T, config>(dstTensor, srcTensor, sharedTmpBuffer, scaleTensor, nullptr,
                                     offset, scaleCount, scaleCount, calCount);
}

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<T>& scaleTensor, const T offset, const uint32_t scaleCount,
                 const uint32_t calCount) {
  if (ascsim::aicore::OnCubeCoreOnly()) return;
  detail::QuantPerChannel<T, config>(dstTensor, srcTensor, detail::AdvStack("AscendQuant"),
                                     scaleTensor, nullptr, offset, scaleCount, scaleCount,
                                     calCount);
}

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                 const T offset) {
  detail::QuantPerChannel<T, config>(dstTensor, srcTensor, sharedTmpBuffer, scaleTensor, nullptr,
                                     offset, scaleTensor.GetSize(), scaleTensor.GetSize(),
                                     srcTensor.GetSize());
}

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<T>& scaleTensor, const T offset) {
  if (ascsim::aicore::OnCubeCoreOnly()) return;
  detail::QuantPerChannel<T, config>(dstTensor, srcTensor, detail::AdvStack("AscendQuant"),
                                     scaleTensor, nullptr, offset, scaleTensor.GetSize(),
                                     scaleTensor.GetSize(), srcTensor.GetSize());
}

// ============================================================ per channel, offset tensor
template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                 const LocalTensor<T>& offsetTensor, const uint32_t scaleCount,
                 const uint32_t offsetCount, const uint32_t calCount) {
  detail::QuantPerChannel<T, config>(dstTensor, srcTensor, sharedTmpBuffer, scaleTensor,
                                     &offsetTensor, T{}, scaleCount, offsetCount, calCount);
}

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor,
                 const uint32_t scaleCount, const uint32_t offsetCount, const uint32_t calCount) {
  if (ascsim::aicore::OnCubeCoreOnly()) return;
  detail::QuantPerChannel<T, config>(dstTensor, srcTensor, detail::AdvStack("AscendQuant"),
                                     scaleTensor, &offsetTensor, T{}, scaleCount, offsetCount,
                                     calCount);
}

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const LocalTensor<T>& scaleTensor,
                 const LocalTensor<T>& offsetTensor) {
  detail::QuantPerChannel<T, config>(dstTensor, srcTensor, sharedTmpBuffer, scaleTensor,
                                     &offsetTensor, T{}, scaleTensor.GetSize(),
                                     offsetTensor.GetSize(), srcTensor.GetSize());
}

template <typename T, bool isReuseSource = false,
          const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<T>& scaleTensor, const LocalTensor<T>& offsetTensor) {
  if (ascsim::aicore::OnCubeCoreOnly()) return;
  detail::QuantPerChannel<T, config>(dstTensor, srcTensor, detail::AdvStack("AscendQuant"),
                                     scaleTensor, &offsetTensor, T{}, scaleTensor.GetSize(),
                                     offsetTensor.GetSize(), srcTensor.GetSize());
}

}  // namespace AscendC
