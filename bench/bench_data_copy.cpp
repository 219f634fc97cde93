// DataCopy GM<->UB through the kernel API on one simulated core: per-call overhead (small
// copies) and bandwidth (tile-sized copies), against a plain memcpy of the same bytes.
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "ascsim/aicore/core_context.h"
#include "ascsim/runtime.h"
#include "ascsim/soc.h"
#include "kernel_operator.h"
#include "runtime/device_memory_internal.h"

namespace {

struct CopyFixture {
  explicit CopyFixture(uint32_t bytes)
      : core(ascsim::FindSocProfile("Ascend910B1")), gm(ascsim::DeviceMalloc(bytes)) {
    core.launch().find_gm = ascsim::runtime::FindDeviceMemory;
    std::memset(gm, 1, bytes);
    pipe.InitBuffer(buf, bytes);
    gm_tensor.SetGlobalBuffer(static_cast<half*>(gm), bytes / sizeof(half));
    ub = buf.Get<half>();
  }
  ~CopyFixture() { ascsim::DeviceFree(gm); }
  ascsim::aicore::SingleCore core;
  void* gm;
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
  AscendC::GlobalTensor<half> gm_tensor;
  AscendC::LocalTensor<half> ub;
};

void BM_DataCopyIn(benchmark::State& state) {
  const uint32_t bytes = static_cast<uint32_t>(state.range(0));
  CopyFixture f(bytes);
  for (auto _ : state) {
    AscendC::DataCopy(f.ub, f.gm_tensor, bytes / 2);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
}
void BM_DataCopyOut(benchmark::State& state) {
  const uint32_t bytes = static_cast<uint32_t>(state.range(0));
  CopyFixture f(bytes);
  for (auto _ : state) {
    AscendC::DataCopy(f.gm_tensor, f.ub, bytes / 2);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
}
void BM_Memcpy(benchmark::State& state) {
  const size_t bytes = static_cast<size_t>(state.range(0));
  std::vector<uint8_t> a(bytes, 1), b(bytes, 2);
  for (auto _ : state) {
    std::memcpy(b.data(), a.data(), bytes);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * bytes));
}

BENCHMARK(BM_DataCopyIn)->Name("DataCopy/GM->UB")->Arg(32)->Arg(1024)->Arg(16384)->Arg(65536);
BENCHMARK(BM_DataCopyOut)->Name("DataCopy/UB->GM")->Arg(32)->Arg(1024)->Arg(16384)->Arg(65536);
BENCHMARK(BM_Memcpy)->Name("memcpy")->Arg(32)->Arg(1024)->Arg(16384)->Arg(65536);

}  // namespace

BENCHMARK_MAIN();
