// Throughput of every element-wise op of simd/vector_math.h per dtype, over one UB-sized tile
// (16 KiB per operand, L1-resident): the raw speed the vector API calls run at.
// Also one API-level Add (checks + dispatch included) to show the per-call overhead.
#include <benchmark/benchmark.h>

#include <cstring>
#include <utility>
#include <vector>

#include "ascsim/aicore/core_context.h"
#include "ascsim/aicore/simd/vector_math.h"
#include "ascsim/soc.h"
#include "kernel_operator.h"

namespace {
namespace simd = ascsim::simd;

constexpr size_t kTileBytes = 16 * 1024;

struct Tile {  // three operands, filled with small positive values valid for every op
  explicit Tile(simd::DType t) : n(kTileBytes / simd::DTypeSize(t)), a(kTileBytes), b(kTileBytes), d(kTileBytes) {
    for (size_t i = 0; i < n; ++i) {
      const float v = 0.5f + static_cast<float>(i % 97) / 64.0f;
      Put(t, a.data(), i, v);
      Put(t, b.data(), i, v * 0.75f + 0.25f);
    }
  }
  static void Put(simd::DType t, uint8_t* p, size_t i, float v) {
    switch (t) {
      case simd::DType::kF16: { half h(v); std::memcpy(p + 2 * i, &h, 2); break; }
      case simd::DType::kBF16: { bfloat16_t h(v); std::memcpy(p + 2 * i, &h, 2); break; }
      case simd::DType::kF32: std::memcpy(p + 4 * i, &v, 4); break;
      case simd::DType::kI16: { int16_t x = static_cast<int16_t>(v * 8); std::memcpy(p + 2 * i, &x, 2); break; }
      default: { int32_t x = static_cast<int32_t>(v * 8); std::memcpy(p + 4 * i, &x, 4); break; }
    }
  }
  size_t n;
  std::vector<uint8_t> a, b, d;
};

void Count(benchmark::State& state, size_t n, size_t bytes_per_elem_pass) {
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * n));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * n * bytes_per_elem_pass));
}

void BM_Binary(benchmark::State& state, simd::BinaryOp op, simd::DType t) {
  Tile tile(t);
  for (auto _ : state) {
    simd::Binary(op, t, tile.d.data(), tile.a.data(), tile.b.data(), tile.n);
    benchmark::ClobberMemory();
  }
  Count(state, tile.n, 3 * simd::DTypeSize(t));
}
void BM_Unary(benchmark::State& state, simd::UnaryOp op, simd::DType t) {
  Tile tile(t);
  for (auto _ : state) {
    simd::Unary(op, t, tile.d.data(), tile.a.data(), tile.n);
    benchmark::ClobberMemory();
  }
  Count(state, tile.n, 2 * simd::DTypeSize(t));
}
void BM_Scalar(benchmark::State& state, simd::ScalarOp op, simd::DType t) {
  Tile tile(t);
  uint8_t scalar[8];
  std::memcpy(scalar, tile.b.data(), simd::DTypeSize(t));
  for (auto _ : state) {
    simd::WithScalar(op, t, tile.d.data(), tile.a.data(), scalar, tile.n);
    benchmark::ClobberMemory();
  }
  Count(state, tile.n, 2 * simd::DTypeSize(t));
}
void BM_Cast(benchmark::State& state, simd::DType dst, simd::DType src, simd::Rounding mode) {
  Tile tile(src);
  const size_t n = kTileBytes / 4;  // fits both sides
  for (auto _ : state) {
    simd::Cast(dst, src, mode, tile.d.data(), tile.a.data(), n);
    benchmark::ClobberMemory();
  }
  Count(state, n, simd::DTypeSize(dst) + simd::DTypeSize(src));
}
void BM_ReduceSum(benchmark::State& state, simd::DType t) {
  Tile tile(t);
  uint8_t result[8];
  for (auto _ : state) {
    simd::ReduceSum(t, tile.a.data(), tile.n, result);
    benchmark::DoNotOptimize(result);
  }
  Count(state, tile.n, simd::DTypeSize(t));
}

// AscendC::Add through the API (operand checks, dispatch) on one simulated core.
template <class T>
void BM_ApiAdd(benchmark::State& state) {
  ascsim::aicore::SingleCore core(ascsim::FindSocProfile("Ascend910B1"));
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  const uint32_t n = static_cast<uint32_t>(state.range(0));
  pipe.InitBuffer(buf, 3 * n * sizeof(T));
  AscendC::LocalTensor<T> x = buf.GetWithOffset<T>(n, 0);
  AscendC::LocalTensor<T> y = buf.GetWithOffset<T>(n, n * sizeof(T));
  AscendC::LocalTensor<T> z = buf.GetWithOffset<T>(n, 2 * n * sizeof(T));
  AscendC::Duplicate(x, T(1.0f), n);
  AscendC::Duplicate(y, T(2.0f), n);
  for (auto _ : state) {
    AscendC::Add(z, x, y, n);
    benchmark::ClobberMemory();
  }
  Count(state, n, 3 * sizeof(T));
}

const struct { const char* name; simd::DType t; } kFloatTypes[] = {
    {"float16", simd::DType::kF16}, {"bfloat16", simd::DType::kBF16}, {"float32", simd::DType::kF32}};

int Register() {
  using simd::BinaryOp;
  using simd::ScalarOp;
  using simd::UnaryOp;
  const std::pair<const char*, BinaryOp> binaries[] = {{"Add", BinaryOp::kAdd}, {"Sub", BinaryOp::kSub},
      {"Mul", BinaryOp::kMul}, {"Div", BinaryOp::kDiv}, {"Max", BinaryOp::kMax}, {"Min", BinaryOp::kMin}};
  const std::pair<const char*, UnaryOp> unaries[] = {{"Exp", UnaryOp::kExp}, {"Ln", UnaryOp::kLn},
      {"Abs", UnaryOp::kAbs}, {"Sqrt", UnaryOp::kSqrt}, {"Rsqrt", UnaryOp::kRsqrt},
      {"Reciprocal", UnaryOp::kReciprocal}, {"Relu", UnaryOp::kRelu}};
  const std::pair<const char*, ScalarOp> scalars[] = {{"Adds", ScalarOp::kAdds}, {"Muls", ScalarOp::kMuls},
      {"Maxs", ScalarOp::kMaxs}, {"Mins", ScalarOp::kMins}, {"LeakyRelu", ScalarOp::kLeakyRelu}};
  for (const auto& [tname, t] : kFloatTypes) {
    for (const auto& [name, op] : binaries)
      benchmark::RegisterBenchmark((std::string("simd/") + name + "/" + tname).c_str(), BM_Binary, op, t);
    for (const auto& [name, op] : unaries)
      benchmark::RegisterBenchmark((std::string("simd/") + name + "/" + tname).c_str(), BM_Unary, op, t);
    for (const auto& [name, op] : scalars)
      benchmark::RegisterBenchmark((std::string("simd/") + name + "/" + tname).c_str(), BM_Scalar, op, t);
    benchmark::RegisterBenchmark((std::string("simd/ReduceSum/") + tname).c_str(), BM_ReduceSum, t);
  }
  const std::pair<const char*, simd::DType> ints[] = {{"int16", simd::DType::kI16}, {"int32", simd::DType::kI32}};
  for (const auto& [tname, t] : ints) {
    for (const auto& [name, op] : binaries) {
      if (op == BinaryOp::kDiv) continue;
      benchmark::RegisterBenchmark((std::string("simd/") + name + "/" + tname).c_str(), BM_Binary, op, t);
    }
    benchmark::RegisterBenchmark((std::string("simd/Abs/") + tname).c_str(), BM_Unary, UnaryOp::kAbs, t);
  }
  benchmark::RegisterBenchmark("simd/Cast/float32<-float16", BM_Cast, simd::DType::kF32,
                               simd::DType::kF16, simd::Rounding::kNone);
  // Every round mode of float -> half (each should run at the speed of rint).
  const std::pair<const char*, simd::Rounding> kModes[] = {
      {"none", simd::Rounding::kNone},   {"rint", simd::Rounding::kRint},
      {"floor", simd::Rounding::kFloor}, {"ceil", simd::Rounding::kCeil},
      {"round", simd::Rounding::kRound}, {"trunc", simd::Rounding::kTrunc},
      {"odd", simd::Rounding::kOdd}};
  for (const auto& [mode_name, mode] : kModes) {
    benchmark::RegisterBenchmark((std::string("simd/Cast/float16<-float32/") + mode_name).c_str(),
                                 BM_Cast, simd::DType::kF16, simd::DType::kF32, mode);
  }
  return 0;
}
const int kRegistered = Register();

BENCHMARK_TEMPLATE(BM_ApiAdd, half)->Name("api/Add/float16")->Arg(256)->Arg(8192)->Arg(32768);
BENCHMARK_TEMPLATE(BM_ApiAdd, float)->Name("api/Add/float32")->Arg(256)->Arg(4096)->Arg(16384);

}  // namespace

BENCHMARK_MAIN();
