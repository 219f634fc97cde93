// Out-of-line parts of ascsim/aicore/vector_ops.h: the vector call record, and the round modes
// Cast accepts per architecture and type pair.
#include "ascsim/aicore/vector_ops.h"

#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/kernel_type.h"

namespace ascsim::aicore {

trace::ApiCall VectorCall(const char* name, trace::VectorClass cls, uint8_t elem, uint64_t n,
                          BufferRef dst, BufferRef src0, BufferRef src1) {
  trace::ApiCall call{};
  call.name = name;
  call.kind = trace::CallKind::kVector;
  call.pipe = trace::Pipe::kV;
  call.vector_class = cls;
  call.dtype_bytes = elem;
  call.elements = n;
  call.bytes = n * elem;
  call.dst_buffer = dst.id;
  call.src_buffers[0] = src0.id;
  call.src_buffers[1] = src1.id;
  call.ub_addr[0] = dst.ub;
  call.ub_addr[1] = src0.ub;
  call.ub_addr[2] = src1.ub;
  return call;
}

simd::Rounding ToRounding(AscendC::RoundMode mode) {
  switch (mode) {
    case AscendC::RoundMode::CAST_NONE:
      return simd::Rounding::kNone;
    case AscendC::RoundMode::CAST_RINT:
      return simd::Rounding::kRint;
    case AscendC::RoundMode::CAST_FLOOR:
      return simd::Rounding::kFloor;
    case AscendC::RoundMode::CAST_CEIL:
      return simd::Rounding::kCeil;
    case AscendC::RoundMode::CAST_ROUND:
      return simd::Rounding::kRound;
    case AscendC::RoundMode::CAST_TRUNC:
      return simd::Rounding::kTrunc;
    case AscendC::RoundMode::CAST_ODD:
      return simd::Rounding::kOdd;
  }
  return simd::Rounding::kNone;
}

namespace {

constexpr uint8_t Bit(AscendC::RoundMode m) {
  return static_cast<uint8_t>(1u << static_cast<int>(m));
}
constexpr uint8_t kNone = Bit(AscendC::RoundMode::CAST_NONE);
constexpr uint8_t kOdd = Bit(AscendC::RoundMode::CAST_ODD);
constexpr uint8_t kRint = Bit(AscendC::RoundMode::CAST_RINT);
constexpr uint8_t kDirected =
    Bit(AscendC::RoundMode::CAST_FLOOR) | Bit(AscendC::RoundMode::CAST_CEIL) |
    Bit(AscendC::RoundMode::CAST_ROUND) | Bit(AscendC::RoundMode::CAST_TRUNC);
constexpr uint8_t kR5 = kRint | kDirected;  // RINT/FLOOR/CEIL/ROUND/TRUNC
constexpr uint8_t kAnyMode = 0x7f;          // "roundMode不生效" (int32 -> half)

// The round modes Cast offers per (src, dst), from the asc-devkit Cast.md tables "Atlas A2
// 训练系列产品/Atlas A2 推理系列产品支持的数据类型组合情况" (arch 2201) and "Atlas 推理系列产品AI
// Core支持的数据类型组合情况" (310P, arch 2002), for the types the simulator has (no int4b_t).
// A pair missing from its profile's table is not a conversion the profile offers.
struct CastModes {
  simd::DType src;
  simd::DType dst;
  uint8_t modes;
};

using simd::DType;

constexpr CastModes kCastModes310P[] = {
    {DType::kI8, DType::kF16, kNone},
    {DType::kU8, DType::kF16, kNone},
    {DType::kI16, DType::kF16, kNone},
    {DType::kF16, DType::kI8, kDirected | kNone},
    {DType::kF16, DType::kU8, kDirected | kNone},
    {DType::kF16, DType::kI16, kRint},
    {DType::kF16, DType::kI32, kR5},
    {DType::kF16, DType::kF32, kNone},
    {DType::kI32, DType::kI16, kNone},
    {DType::kI32, DType::kF16, kAnyMode},
    {DType::kI32, DType::kF32, kNone},
    {DType::kF32, DType::kF16, kOdd | kNone},
    // Not in Cast.md's 310P table, but asc-devkit's own 310P code casts float -> int32_t with a
    // rounding mode (impl/adv_api/detail/math/{tan,cos,ceil,floor,frac,digamma}/*_v200_impl.h:
    // Cast<int32_t, float, false>(..., CAST_RINT / CAST_FLOOR / ...)).
    {DType::kF32, DType::kI32, kR5},
    {DType::kF32, DType::kI64, kR5},
};

constexpr CastModes kCastModesA2[] = {
    {DType::kI8, DType::kF16, kNone},
    {DType::kU8, DType::kF16, kNone},
    {DType::kI16, DType::kF16, kR5 | kNone},
    {DType::kI16, DType::kF32, kNone},
    {DType::kF16, DType::kI8, kR5 | kNone},
    {DType::kF16, DType::kU8, kR5 | kNone},
    {DType::kF16, DType::kI16, kR5},
    {DType::kF16, DType::kI32, kR5},
    {DType::kF16, DType::kF32, kNone},
    {DType::kBF16, DType::kI32, kR5},
    {DType::kBF16, DType::kF32, kNone},
    {DType::kI32, DType::kI16, kNone},
    {DType::kI32, DType::kF16, kAnyMode},
    {DType::kI32, DType::kF32, kR5 | kNone},
    {DType::kI32, DType::kI64, kNone},
    {DType::kF32, DType::kI16, kR5},
    {DType::kF32, DType::kF16, kR5 | kOdd | kNone},
    {DType::kF32, DType::kBF16, kR5},
    {DType::kF32, DType::kI32, kR5},
    {DType::kF32, DType::kF32, kR5},
    {DType::kF32, DType::kI64, kR5},
    {DType::kI64, DType::kI32, kNone},
    {DType::kI64, DType::kF32, kR5},
};

template <size_t N>
uint8_t LookUpCastModes(const CastModes (&table)[N], DType src, DType dst) {
  for (const CastModes& row : table) {
    if (row.src == src && row.dst == dst) return row.modes;
  }
  return 0;
}

// 0: the pair is not a conversion the profile offers.
uint8_t AllowedCastModes(int arch, DType src, DType dst) {
  return arch == 2002 ? LookUpCastModes(kCastModes310P, src, dst)
                      : LookUpCastModes(kCastModesA2, src, dst);
}

const char* RoundModeName(AscendC::RoundMode mode) {
  static const char* const kNames[] = {"CAST_NONE",  "CAST_RINT",  "CAST_FLOOR", "CAST_CEIL",
                                       "CAST_ROUND", "CAST_TRUNC", "CAST_ODD"};
  const auto i = static_cast<size_t>(mode);
  return i < sizeof(kNames) / sizeof(kNames[0]) ? kNames[i] : "?";
}

}  // namespace

void CheckCastMode(simd::DType dst, simd::DType src, AscendC::RoundMode mode) {
  const SocProfile& soc = *CurrentCore().launch->soc;
  const uint8_t allowed = AllowedCastModes(soc.arch, src, dst);
  const auto bit = static_cast<unsigned>(mode) < 7 ? Bit(mode) : 0;
  if ((allowed & bit) != 0) [[likely]]
    return;
  if (allowed == 0) {
    Fault(ErrorKind::kInvalidArgument,
          Str("Cast ", simd::DTypeName(src), " -> ", simd::DTypeName(dst), " is not a conversion ",
              soc.name, " offers (see the Cast data type table)"));
  }
  std::string modes;
  for (int m = 0; m < 7; ++m) {
    if (allowed & (1u << m)) {
      modes += (modes.empty() ? "" : ", ");
      modes += RoundModeName(static_cast<AscendC::RoundMode>(m));
    }
  }
  Fault(ErrorKind::kInvalidArgument,
        Str("Cast ", simd::DTypeName(src), " -> ", simd::DTypeName(dst), ": ", RoundModeName(mode),
            " is not supported on ", soc.name, " (supported: ", modes, ")"));
}

}  // namespace ascsim::aicore
