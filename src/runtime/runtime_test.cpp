// The host runtime: launches (argument checks, first fault wins, serial == parallel), streams,
// device memory (registry, caching allocator, external memory) and the launch observer.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <future>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "aicore_test_util.h"
#include "ascsim/runtime.h"
#include "kernel_launchers.h"
#include "kernel_operator.h"

namespace {

using ascsim::ErrorKind;
using ascsim_test::DeviceBuffer;
using ascsim_test::ErrorOf;
using ::testing::HasSubstr;

// Restores serial mode after a test that changes it.
class SerialGuard : ascsim::ScopedSettings {
 public:
  explicit SerialGuard(bool serial) { ascsim::SetSerial(serial); }
};

TEST(Launch, BlockDimOutsideTheDeviceRange) {
  auto body = [] {};
  ErrorKind kind{};
  EXPECT_EQ(ErrorOf([&] { ascsim::Launch("k", 0, body); }, &kind),
            "k: blockDim 0 is outside [1, 65535]");
  EXPECT_EQ(kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(ErrorOf([&] { ascsim::Launch("k", 65536, body); }, &kind),
            "k: blockDim 65536 is outside [1, 65535]");
  EXPECT_EQ(kind, ErrorKind::kInvalidArgument);
  EXPECT_THROW(ascsim::Launch("k", 1, ascsim::KernelBody()), ascsim::InvalidArgument);
}

TEST(Launch, EveryBlockRunsOnceWithItsIndex) {
  for (bool serial : {false, true}) {
    SerialGuard guard(serial);
    std::vector<std::atomic<int>> hits(1000);
    ascsim::Launch("count", 1000, [&] {
      EXPECT_EQ(AscendC::GetBlockNum(), 1000);
      ++hits[AscendC::GetBlockIdx()];
    });
    for (auto& h : hits) ASSERT_EQ(h.load(), 1);
  }
}

TEST(Launch, AFaultFailsTheLaunchNamingKernelAndLowestFailingBlock) {
  for (bool serial : {false, true}) {
    SerialGuard guard(serial);
    for (int round = 0; round < 5; ++round) {
      try {
        ascsim::Launch("faulty", 48, [] {
          const int64_t b = AscendC::GetBlockIdx();
          if (b == 5 || b == 9 || b == 30 || b == 47) {
            AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
          }
        });
        FAIL() << "no error";
      } catch (const ascsim::KernelError& e) {
        EXPECT_THAT(e.what(), ::testing::StartsWith("faulty: block 5/48: WaitFlag<V_MTE3>"));
        EXPECT_EQ(e.fault_kind(), ErrorKind::kSyncMisuse);
        EXPECT_EQ(e.kind(), ErrorKind::kKernel);
      }
    }
  }
  // The next launch works.
  std::atomic<int> ran{0};
  ascsim::Launch("fine", 8, [&] { ++ran; });
  EXPECT_EQ(ran.load(), 8);
}

TEST(Launch, ANonAscsimExceptionInAKernelIsReportedToo) {
  const std::string msg =
      ErrorOf([] { ascsim::Launch("thrower", 2, [] { throw std::runtime_error("boom"); }); });
  EXPECT_THAT(msg, HasSubstr("thrower: block 0/2: kernel threw boom"));
}

// Runs add and gelu over n elements and returns the output bytes.
std::vector<uint8_t> RunShipped(bool gelu, ascsim::kernels::ElementType type, uint64_t n,
                                uint32_t block_dim) {
  const size_t elem = type == ascsim::kernels::ElementType::kFloat16 ? 2 : 4;
  DeviceBuffer x(n * elem), y(n * elem), z(n * elem);
  std::mt19937 rng(static_cast<uint32_t>(n));
  std::uniform_real_distribution<float> dist(-4, 4);
  for (uint64_t i = 0; i < n; ++i) {
    const float a = dist(rng), b = dist(rng);
    if (elem == 2) {
      x.as<half>()[i] = half(a);
      y.as<half>()[i] = half(b);
    } else {
      x.as<float>()[i] = a;
      y.as<float>()[i] = b;
    }
  }
  if (gelu) {
    ascsim::kernels::LaunchGeluCustom(type, x.gm(), z.gm(), n, block_dim, nullptr);
  } else {
    ascsim::kernels::LaunchAddCustom(type, x.gm(), y.gm(), z.gm(), n, block_dim, nullptr);
  }
  return std::vector<uint8_t>(z.gm(), z.gm() + n * elem);
}

TEST(Launch, SerialAndParallelRunsAreBitIdentical) {
  using ascsim::kernels::ElementType;
  for (bool gelu : {false, true}) {
    for (ElementType type : {ElementType::kFloat16, ElementType::kFloat32}) {
      for (uint64_t n : {17u, 4097u, 100003u}) {
        std::vector<uint8_t> serial, parallel;
        {
          SerialGuard guard(true);
          serial = RunShipped(gelu, type, n, 48);
        }
        {
          SerialGuard guard(false);
          parallel = RunShipped(gelu, type, n, 48);
        }
        EXPECT_EQ(serial, parallel) << (gelu ? "gelu" : "add") << " n " << n;
      }
    }
  }
}

TEST(Launch, TheObserverSeesEveryLaunchWithPerBlockTraces) {
  std::vector<ascsim::LaunchRecord> records;
  const int id =
      ascsim::AddLaunchObserver([&](const ascsim::LaunchRecord& r) { records.push_back(r); });
  ascsim::Launch("observed", 3, [] { AscendC::PipeBarrier<PIPE_V>(); });
  EXPECT_ANY_THROW(ascsim::Launch("observed_fail", 2, [] { AscendC::GetTPipePtr(); }));
  ascsim::RemoveLaunchObserver(id);
  ascsim::Launch("unobserved", 1, [] {});
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].kernel, "observed");
  EXPECT_EQ(records[0].block_dim, 3u);
  EXPECT_FALSE(records[0].failed);
  ASSERT_TRUE(records[0].traces);
  ASSERT_EQ(records[0].traces->size(), 3u);
  EXPECT_EQ((*records[0].traces)[2].block_idx, 2u);
  EXPECT_EQ((*records[0].traces)[2].calls.size(), 1u);
  EXPECT_TRUE(records[1].failed);
}

// ---- streams ----

TEST(Streams, TasksRunInOrderAndErrorsSurfaceAtSynchronize) {
  ascsim::Stream stream;
  std::vector<int> order;
  std::mutex mu;
  for (int i = 0; i < 20; ++i) {
    stream.Enqueue([&, i] {
      std::this_thread::sleep_for(std::chrono::microseconds((20 - i) * 50));
      std::lock_guard<std::mutex> lock(mu);
      order.push_back(i);
    });
  }
  ascsim::Launch("stream_fault", 4, [] { AscendC::GetTPipePtr(); }, &stream);
  ascsim::Launch("stream_fault_2", 4, [] { AscendC::GetTPipePtr(); }, &stream);
  std::atomic<bool> after{false};
  stream.Enqueue([&] { after = true; });  // work after a failure still runs
  try {
    stream.Synchronize();
    FAIL() << "no error";
  } catch (const ascsim::KernelError& e) {
    EXPECT_THAT(e.what(), HasSubstr("stream_fault: block 0/4: GetTPipePtr"));  // the first one
  }
  EXPECT_TRUE(after);
  ASSERT_EQ(order.size(), 20u);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(order[i], i);
  EXPECT_NO_THROW(stream.Synchronize());  // the error was reported once and cleared
  EXPECT_TRUE(stream.Idle());
  ascsim::Launch("stream_ok", 2, [] {}, &stream);
  EXPECT_EQ(stream.Wait(), nullptr);
}

TEST(Streams, TwoStreamsAreIndependent) {
  ascsim::Stream blocked, free_stream;
  std::promise<void> release;
  std::shared_future<void> gate = release.get_future().share();
  blocked.Enqueue([gate] { gate.wait(); });
  std::atomic<bool> ran{false};
  free_stream.Enqueue([&] { ran = true; });
  free_stream.Synchronize();  // must not wait for the other stream
  EXPECT_TRUE(ran);
  EXPECT_FALSE(blocked.Idle());
  release.set_value();
  blocked.Synchronize();
  EXPECT_TRUE(blocked.Idle());
}

TEST(Streams, ConcurrentLaunchesFromSeveralStreamsShareThePool) {
  constexpr uint64_t kN = 40000;
  constexpr int kStreams = 3, kLaunches = 10;
  std::vector<std::unique_ptr<ascsim::Stream>> streams;
  std::vector<std::unique_ptr<DeviceBuffer>> outs;
  DeviceBuffer x(kN * sizeof(float)), y(kN * sizeof(float));
  for (uint64_t i = 0; i < kN; ++i) {
    x.as<float>()[i] = float(i % 1000);
    y.as<float>()[i] = 0.5f;
  }
  for (int s = 0; s < kStreams; ++s) streams.push_back(std::make_unique<ascsim::Stream>());
  for (int l = 0; l < kLaunches; ++l) {
    for (int s = 0; s < kStreams; ++s) {
      outs.push_back(std::make_unique<DeviceBuffer>(kN * sizeof(float)));
      ascsim::kernels::LaunchAddCustom(ascsim::kernels::ElementType::kFloat32, x.gm(), y.gm(),
                                       outs.back()->gm(), kN, 7 + l, streams[s].get());
    }
  }
  // Meanwhile a synchronous launch on the calling thread.
  DeviceBuffer z(kN * sizeof(float));
  ascsim::kernels::LaunchAddCustom(ascsim::kernels::ElementType::kFloat32, x.gm(), x.gm(), z.gm(),
                                   kN, 48, nullptr);
  for (auto& s : streams) s->Synchronize();
  for (uint64_t i = 0; i < kN; ++i) ASSERT_EQ(z.as<float>()[i], 2.0f * float(i % 1000));
  for (const auto& out : outs) {
    for (uint64_t i = 0; i < kN; ++i) ASSERT_EQ(out->as<float>()[i], float(i % 1000) + 0.5f);
  }
}

TEST(Streams, ALaunchOnAStreamCapturesItsArgumentsByValue) {
  ascsim::Stream stream;
  DeviceBuffer x(64 * sizeof(float)), y(64 * sizeof(float)), z(64 * sizeof(float));
  for (int i = 0; i < 64; ++i) {
    x.as<float>()[i] = float(i);
    y.as<float>()[i] = 1.0f;
  }
  {
    uint64_t n = 64;  // goes out of scope before the stream runs
    ascsim::kernels::LaunchAddCustom(ascsim::kernels::ElementType::kFloat32, x.gm(), y.gm(),
                                     z.gm(), n, 4, &stream);
  }
  stream.Synchronize();
  for (int i = 0; i < 64; ++i) ASSERT_EQ(z.as<float>()[i], float(i) + 1.0f);
}

// ---- device memory ----

TEST(DeviceMemory, FreeOfANonDevicePointerOrTwiceIsInvalidArgument) {
  int local = 0;
  ErrorKind kind{};
  EXPECT_THAT(ErrorOf([&] { ascsim::DeviceFree(&local); }, &kind),
              HasSubstr("not the start of a device allocation"));
  EXPECT_EQ(kind, ErrorKind::kInvalidArgument);
  void* p = ascsim::DeviceMalloc(100);
  EXPECT_THROW(ascsim::DeviceFree(static_cast<uint8_t*>(p) + 4), ascsim::InvalidArgument);
  ascsim::DeviceFree(p);
  EXPECT_THAT(ErrorOf([&] { ascsim::DeviceFree(p); }, &kind), HasSubstr("double free?"));
  EXPECT_EQ(kind, ErrorKind::kInvalidArgument);
  EXPECT_NO_THROW(ascsim::DeviceFree(nullptr));
}

TEST(DeviceMemory, RegistryKnowsAllocationsByBaseAndSize) {
  void* p = ascsim::DeviceMalloc(1000);
  auto* b = static_cast<uint8_t*>(p);
  EXPECT_TRUE(ascsim::IsDeviceMemory(b));
  EXPECT_TRUE(ascsim::IsDeviceMemory(b + 999));
  EXPECT_EQ(ascsim::DeviceAllocationSize(b), 1000u);
  EXPECT_EQ(ascsim::DeviceAllocationSize(b + 1), 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 32, 0u);
  ascsim::DeviceFree(p);
  EXPECT_FALSE(ascsim::IsDeviceMemory(b));
}

TEST(DeviceMemory, StatsMoveWithAllocationsAndTheCache) {
  ascsim::ReleaseCachedMemory();
  const ascsim::MemoryStats before = ascsim::GetMemoryStats();
  EXPECT_EQ(before.cached_bytes, 0u);
  void* p = ascsim::DeviceMalloc(3000);
  const ascsim::MemoryStats during = ascsim::GetMemoryStats();
  EXPECT_EQ(during.allocations, before.allocations + 1);
  EXPECT_GE(during.in_use_bytes, before.in_use_bytes + 3000);
  EXPECT_GE(during.peak_bytes, during.in_use_bytes);
  ascsim::DeviceFree(p);
  const ascsim::MemoryStats after = ascsim::GetMemoryStats();
  EXPECT_EQ(after.allocations, before.allocations);
  EXPECT_EQ(after.in_use_bytes, before.in_use_bytes);
  EXPECT_EQ(after.cached_bytes, during.in_use_bytes - before.in_use_bytes);  // kept for reuse
  void* q = ascsim::DeviceMalloc(3000);  // same size class: served from the cache
  EXPECT_EQ(q, p);
  EXPECT_EQ(ascsim::GetMemoryStats().cached_bytes, 0u);
  ascsim::DeviceFree(q);
  ascsim::ReleaseCachedMemory();
  EXPECT_EQ(ascsim::GetMemoryStats().cached_bytes, 0u);
}

// Reads the first element of `p` from a kernel; returns the error message or "".
std::string ReadFromKernel(const float* p, float* out) {
  try {
    ascsim::Launch("reader", 1, [&] {
      AscendC::GlobalTensor<float> gm;
      gm.SetGlobalBuffer(const_cast<float*>(p), 8);
      *out = gm.GetValue(7);
    });
  } catch (const ascsim::KernelError& e) {
    return e.what();
  }
  return "";
}

TEST(DeviceMemory, ExternalMemoryIsVisibleToKernelsWhileRegistered) {
  std::vector<float> host(8, 2.5f);
  float value = 0;
  EXPECT_THAT(ReadFromKernel(host.data(), &value), HasSubstr("address is not device memory"));
  {
    ascsim::ExternalMemory registration(host.data(), host.size() * sizeof(float));
    EXPECT_TRUE(ascsim::IsDeviceMemory(host.data()));
    EXPECT_EQ(ReadFromKernel(host.data(), &value), "");
    EXPECT_EQ(value, 2.5f);
    // Not an allocation: DeviceFree refuses it.
    EXPECT_THROW(ascsim::DeviceFree(host.data()), ascsim::InvalidArgument);
  }
  EXPECT_FALSE(ascsim::IsDeviceMemory(host.data()));
  EXPECT_THAT(ReadFromKernel(host.data(), &value), HasSubstr("address is not device memory"));
}

TEST(DeviceMemory, ExternalMemoryRegisteredTwiceStaysUntilTheLastHandleGoes) {
  // One host array given to two launches on two streams: the handles end in either order.
  std::vector<float> host(8, 1.0f);
  auto first = std::make_unique<ascsim::ExternalMemory>(host.data(), 32);
  auto second = std::make_unique<ascsim::ExternalMemory>(host.data(), 32);
  first.reset();
  EXPECT_TRUE(ascsim::IsDeviceMemory(host.data()));
  float value = 0;
  EXPECT_EQ(ReadFromKernel(host.data(), &value), "");
  second.reset();
  EXPECT_FALSE(ascsim::IsDeviceMemory(host.data()));
}

TEST(Settings, SerialAndStrictFlagsRoundTrip) {
  ascsim::ScopedSettings settings;
  const bool serial = ascsim::IsSerial(), strict = ascsim::IsStrict();
  ascsim::SetSerial(!serial);
  EXPECT_EQ(ascsim::IsSerial(), !serial);
  ascsim::SetStrict(!strict);
  EXPECT_EQ(ascsim::IsStrict(), !strict);
  EXPECT_GE(ascsim::WorkerCount(), 1);
}

}  // namespace
