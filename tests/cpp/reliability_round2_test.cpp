// Reliability round 2 (issue 11): crashes, hangs and silent wrong answers found by adversarial
// testing, each pinned by a regression test. ReliabilityRound2.* exercises threads (it is in the
// TSan filter of scripts/sanitizers.sh); GuardsRound2.* runs on one simulated core.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_add_custom.h"
#include "aicore_test_util.h"
#include "ascsim/kernel_launcher.h"
#include "ascsim/runtime.h"
#include "kernel_launchers.h"
#include "kernel_operator.h"
#include "tikicpulib.h"

extern "C" __global__ __aicore__ void spin_forever_custom(GM_ADDR flag);

namespace {

using ascsim::ErrorKind;
using ascsim_test::DeviceBuffer;
using ascsim_test::ErrorOf;
using ::testing::HasSubstr;
using ::testing::Not;

using AscendC::LocalTensor;
using AscendC::TPosition;
using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

class TimeoutScope {
 public:
  explicit TimeoutScope(double seconds) : previous_(ascsim::GetLaunchTimeout()) {
    ascsim::SetLaunchTimeout(seconds);
  }
  ~TimeoutScope() { ascsim::SetLaunchTimeout(previous_); }

 private:
  double previous_;
};

class SerialScope {
 public:
  explicit SerialScope(bool serial) : previous_(ascsim::IsSerial()) { ascsim::SetSerial(serial); }
  ~SerialScope() { ascsim::SetSerial(previous_); }

 private:
  bool previous_;
};

// Runs `body` as a launch of `block_dim` blocks; returns the KernelError (kind and message).
template <class F>
std::string LaunchError(uint32_t block_dim, F body, ErrorKind* kind = nullptr,
                        const char* name = "round2") {
  try {
    ascsim::Launch(name, block_dim, body);
  } catch (const ascsim::KernelError& e) {
    if (kind != nullptr) *kind = e.fault_kind();
    return e.what();
  }
  ADD_FAILURE() << "expected a KernelError";
  return "";
}

// z = x + y on the real add kernel over `stream` (nullptr: synchronous); checks every element.
void ExpectAddWorks(ascsim::Stream* stream = nullptr) {
  constexpr uint64_t kN = 2048;
  std::vector<float> x(kN), y(kN), z(kN, -1.0f);
  for (uint64_t i = 0; i < kN; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 0.5f;
  }
  ascsim::ExternalMemory xm(x.data(), kN * 4), ym(y.data(), kN * 4), zm(z.data(), kN * 4);
  ascsim::kernels::LaunchAddCustom(ascsim::kernels::ElementType::kFloat32, x.data(), y.data(),
                                   z.data(), kN, 4, stream);
  if (stream != nullptr) stream->Synchronize();
  for (uint64_t i = 0; i < kN; ++i) ASSERT_EQ(z[i], x[i] + 0.5f) << i;
}

// ---- 2. ACL stream synchronisation racing stream destruction ---------------------------------

// A launch that runs until the timeout (0.3 s) stops it, queued on `stream`.
void QueueStuckLaunch(aclrtStream stream, void* flag) {
  ASSERT_EQ(ACLRT_LAUNCH_KERNEL(spin_forever_custom)(2, stream, flag), ACL_SUCCESS);
}

TEST(ReliabilityRound2, DestroyingAStreamWhileAnotherThreadSynchronizesIt) {
  TimeoutScope timeout(0.3);
  void* flag = nullptr;
  ASSERT_EQ(aclrtMalloc(&flag, 32, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(flag, 32, 0, 32), ACL_SUCCESS);
  for (int device_wide = 0; device_wide < 2; ++device_wide) {
    aclrtStream s = nullptr;
    ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
    QueueStuckLaunch(s, flag);
    std::atomic<bool> waiting{false};
    std::thread waiter([&] {
      waiting = true;
      // The stuck launch's timeout, or nothing if the destroy dropped it first.
      const aclError rc = device_wide ? aclrtSynchronizeDevice() : aclrtSynchronizeStream(s);
      EXPECT_TRUE(rc == ACL_SUCCESS || rc == ACL_ERROR_RT_AICORE_TIMEOUT ||
                  rc == ACL_ERROR_INVALID_PARAM)
          << rc;
    });
    while (!waiting) std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the waiter is inside the wait
    EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
    waiter.join();
  }
  EXPECT_EQ(aclrtFree(flag), ACL_SUCCESS);
}

TEST(ReliabilityRound2, DeviceSyncLoopWhileOtherThreadsCycleTheirStreams) {
  constexpr uint32_t kN = 1024;
  std::atomic<bool> stop{false};
  std::thread syncer([&] {
    while (!stop) EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  });
  std::vector<std::thread> workers;
  for (int t = 0; t < 2; ++t) {
    workers.emplace_back([&] {
      void *x = nullptr, *z = nullptr;
      ASSERT_EQ(aclrtMalloc(&x, kN * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
      ASSERT_EQ(aclrtMalloc(&z, kN * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
      ASSERT_EQ(aclrtMemset(x, kN * 4, 0, kN * 4), ACL_SUCCESS);
      const auto start = Clock::now();
      while (SecondsSince(start) < 1.0) {
        aclrtStream s = nullptr;
        ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
        ASSERT_EQ(ACLRT_LAUNCH_KERNEL(add_custom_float)(2, s, x, x, z, kN), ACL_SUCCESS);
        ASSERT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
      }
      EXPECT_EQ(aclrtFree(x), ACL_SUCCESS);
      EXPECT_EQ(aclrtFree(z), ACL_SUCCESS);
    });
  }
  for (auto& w : workers) w.join();
  stop = true;
  syncer.join();
}

// ---- 3. scalar access is a cancellation point ------------------------------------------------

TEST(ReliabilityRound2, KernelsPollingWithScalarAccessObserveTheTimeout) {
  TimeoutScope timeout(0.2);
  DeviceBuffer flag(64);
  std::memset(flag.gm(), 0, 64);
  int32_t* gm = flag.as<int32_t>();
  const std::vector<std::pair<const char*, std::function<void()>>> kernels = {
      {"poll_gm_get",
       [gm] {
         AscendC::GlobalTensor<int32_t> g;
         g.SetGlobalBuffer(gm, 16);
         while (g.GetValue(0) == 0) {
         }
       }},
      {"poll_gm_set",
       [gm] {
         AscendC::GlobalTensor<int32_t> g;
         g.SetGlobalBuffer(gm, 16);
         for (;;) g.SetValue(1 + AscendC::GetBlockIdx(), 0);
       }},
      {"poll_ub_get",
       [] {
         AscendC::TPipe pipe;
         AscendC::TBuf<TPosition::VECCALC> buf;
         pipe.InitBuffer(buf, 64);
         LocalTensor<int32_t> t = buf.Get<int32_t>();
         t.SetValue(0, 0);
         while (t.GetValue(0) == 0) {
         }
       }},
      // One block polls a GM flag nobody sets while the others wait at SyncAll.
      {"poll_gm_sync_all",
       [gm] {
         AscendC::GlobalTensor<int32_t> g;
         g.SetGlobalBuffer(gm, 16);
         if (AscendC::GetBlockIdx() == 0) {
           while (g.GetValue(0) == 0) {
           }
         }
         AscendC::SyncAll();
       }},
  };
  for (const auto& [name, body] : kernels) {
    SCOPED_TRACE(name);
    const auto start = Clock::now();
    ErrorKind kind{};
    const std::string message = LaunchError(2, body, &kind, name);
    EXPECT_EQ(kind, ErrorKind::kTimeout);
    EXPECT_THAT(message, HasSubstr("launch timed out"));
    EXPECT_LT(SecondsSince(start), 5.0);
  }
  ExpectAddWorks();
}

// ---- 4. a kernel throwing something that is not a std::exception -----------------------------

extern "C" __global__ __aicore__ void round2_throws_int(GM_ADDR) {
  if (AscendC::GetBlockIdx() == 1) throw 42;
}

TEST(ReliabilityRound2, NonStandardExceptionsFailTheLaunchInEveryMode) {
  for (bool serial : {false, true}) {
    SCOPED_TRACE(serial ? "serial" : "parallel");
    SerialScope mode(serial);
    ErrorKind kind{};
    const std::string message = LaunchError(
        8,
        [] {
          if (AscendC::GetBlockIdx() >= 1) throw 42;
        },
        &kind);
    EXPECT_THAT(message, HasSubstr("round2: block 1/8: kernel threw an exception that is not a "
                                   "std::exception"));
    uint8_t* gm = static_cast<uint8_t*>(AscendC::GmAlloc(32));
    try {
      ICPU_RUN_KF(round2_throws_int, 4, gm);
      ADD_FAILURE() << "expected a KernelError";
    } catch (const ascsim::KernelError& e) {
      EXPECT_THAT(e.what(), HasSubstr("round2_throws_int: block 1/4: kernel threw"));
    }
    AscendC::GmFree(gm);
  }
  ExpectAddWorks();
}

// ---- 6. a huge timeout is no timeout ---------------------------------------------------------

TEST(ReliabilityRound2, HugeTimeoutsDoNotOverflowIntoAnImmediateTimeout) {
  for (double seconds : {1e10, 1e12, 1e300}) {
    TimeoutScope timeout(seconds);
    EXPECT_EQ(ascsim::GetLaunchTimeout(), seconds);
    ExpectAddWorks();
    ascsim::Stream stream;
    ExpectAddWorks(&stream);
  }
}

// ---- rough edges: a kernel launching a kernel ------------------------------------------------

TEST(ReliabilityRound2, AKernelLaunchingAKernelIsReported) {
  ErrorKind kind{};
  const std::string message = LaunchError(
      2, [] { ascsim::Launch("inner", 1, [] {}); }, &kind);
  EXPECT_THAT(message, HasSubstr("round2: block 0/2: kernel launch of inner from inside a kernel"));
  EXPECT_EQ(kind, ErrorKind::kInvalidArgument);
  // Through ACL the inner launch returns an error code the kernel may ignore: the outer launch
  // still fails.
  void* x = nullptr;
  ASSERT_EQ(aclrtMalloc(&x, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclError inner_rc = ACL_SUCCESS;
  const std::string acl_message = LaunchError(
      1, [&] { inner_rc = ACLRT_LAUNCH_KERNEL(add_custom_float)(1, nullptr, x, x, x, 1024); });
  EXPECT_NE(inner_rc, ACL_SUCCESS);
  EXPECT_THAT(acl_message, HasSubstr("kernel launch of add_custom_float from inside a kernel"));
  EXPECT_EQ(aclrtFree(x), ACL_SUCCESS);
}

// ---- 12. printf text of a faulting block -----------------------------------------------------

TEST(ReliabilityRound2, PartialPrintfLineOfAFaultingBlockKeepsItsOwnTag) {
  SerialScope serial(true);  // both launches run on this thread, one after the other
  testing::internal::CaptureStdout();
  LaunchError(2, [] {
    if (AscendC::GetBlockIdx() == 1) {
      AscendC::printf("partial");
      ASSERT(false);
    }
  });
  ascsim::Launch("next", 1, [] { AscendC::printf("hello\n"); });
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_THAT(out, HasSubstr("[block 1] partial\n"));
  EXPECT_THAT(out, HasSubstr("[block 0] hello\n"));
  EXPECT_THAT(out, Not(HasSubstr("partialhello")));
}

// ---- 7. negative and wrapping GM indices -------------------------------------------------------

TEST(GuardsRound2, NegativeAndWrappingGmIndicesAreOutOfBounds) {
  ascsim_test::CoreFixture f;
  DeviceBuffer buf(64 * sizeof(float));
  float* base = buf.as<float>();
  for (int i = 0; i < 64; ++i) base[i] = static_cast<float>(i);
  AscendC::GlobalTensor<float> block1;  // block 1's slice of a 4 x 16 allocation
  block1.SetGlobalBuffer(base + 16, 16);
  ErrorKind kind{};
  EXPECT_THAT(ErrorOf([&] { block1.GetValue(static_cast<uint64_t>(-1)); }, &kind),
              HasSubstr("GlobalTensor::GetValue read"));
  EXPECT_EQ(kind, ErrorKind::kOutOfBounds);
  EXPECT_THAT(ErrorOf([&] { block1.SetValue(static_cast<uint64_t>(-1), 0.0f); }),
              HasSubstr("GlobalTensor::SetValue write"));
  LocalTensor<float> l = f.Take<float>(8);
  EXPECT_THAT(ErrorOf([&] { AscendC::DataCopy(l, block1[static_cast<uint64_t>(-8)], 8); }, &kind),
              HasSubstr("DataCopy"));
  EXPECT_EQ(kind, ErrorKind::kOutOfBounds);
  EXPECT_THAT(ErrorOf([&] { block1[static_cast<uint64_t>(-8)].GetValue(0); }),
              HasSubstr("GlobalTensor::GetValue read"));
  // Unsized: only the device allocation bounds the access; index * sizeof(T) must not wrap.
  AscendC::GlobalTensor<half> unsized;
  unsized.SetGlobalBuffer(reinterpret_cast<half*>(base));
  EXPECT_THAT(ErrorOf([&] { unsized.GetValue(1ull << 63); }, &kind),
              HasSubstr("GlobalTensor::GetValue read"));
  EXPECT_EQ(kind, ErrorKind::kOutOfBounds);
  AscendC::GlobalTensor<float> unsized_slice;
  unsized_slice.SetGlobalBuffer(base + 16);
  EXPECT_THAT(ErrorOf([&] { unsized_slice.GetValue(static_cast<uint64_t>(-1)); }),
              HasSubstr("GlobalTensor::GetValue read"));
  // In-range accesses still work.
  EXPECT_EQ(block1.GetValue(15), 31.0f);
  EXPECT_EQ(unsized_slice.GetValue(47), 63.0f);
  AscendC::DataCopy(l, block1[8], 8);
  EXPECT_EQ(l.GetValue(7), 31.0f);
}

// ---- 8. in-place widening Cast and in-place Brcb ----------------------------------------------

TEST(GuardsRound2, InPlaceWideningCastAndBrcbAreRejected) {
  ascsim_test::CoreFixture f;
  LocalTensor<float> wide = f.Take<float>(64);
  LocalTensor<half> narrow = wide.ReinterpretCast<half>();
  ErrorKind kind{};
  EXPECT_THAT(
      ErrorOf([&] { AscendC::Cast(wide, narrow, AscendC::RoundMode::CAST_NONE, 64); }, &kind),
      HasSubstr("Cast: dst UB [0x0, 0x100) overlaps src UB [0x0, 0x80)"));
  EXPECT_EQ(kind, ErrorKind::kInvalidArgument);
  LocalTensor<float> b = f.Take<float>(128);
  EXPECT_THAT(ErrorOf([&] { AscendC::Brcb(b, b, 2, AscendC::BrcbRepeatParams(1, 8)); }),
              HasSubstr("Brcb: dst UB"));
  // Same-size element types in place (100% overlap) stay allowed.
  LocalTensor<int32_t> ints = wide.ReinterpretCast<int32_t>();
  for (int i = 0; i < 64; ++i) wide.SetValue(i, 1.5f + i);
  AscendC::Cast(ints, wide, AscendC::RoundMode::CAST_FLOOR, 64);
  EXPECT_EQ(ints.GetValue(3), 4);
}

// ---- 9 and 10. TPipe lifetime -------------------------------------------------------------------

TEST(GuardsRound2, TensorOfADestroyedPipeIsStaleAfterANewPipe) {
  ascsim::aicore::SingleCore core(ascsim::FindSocProfile("Ascend910B1"));
  LocalTensor<float> kept;
  {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    kept = buf.Get<float>();
    kept.SetValue(0, 1.0f);
  }
  AscendC::TPipe pipe2;
  AscendC::TBuf<TPosition::VECCALC> buf2;
  pipe2.InitBuffer(buf2, 256);
  LocalTensor<float> fresh = buf2.Get<float>();
  fresh.SetValue(0, 7.0f);
  EXPECT_THAT(ErrorOf([&] { kept.SetValue(0, 2.0f); }), HasSubstr("its TPipe was destroyed"));
  EXPECT_THAT(ErrorOf([&] { kept.GetValue(0); }), HasSubstr("its TPipe was destroyed"));
  EXPECT_EQ(fresh.GetValue(0), 7.0f);
}

TEST(GuardsRound2, ASecondLiveTPipeIsAnErrorAndDestroyAllowsTheNext) {
  ascsim::aicore::SingleCore core(ascsim::FindSocProfile("Ascend910B1"));
  AscendC::TPipe first;
  AscendC::TBuf<TPosition::VECCALC> a;
  first.InitBuffer(a, 256);
  ErrorKind kind{};
  EXPECT_THAT(ErrorOf([&] { AscendC::TPipe second; }, &kind),
              HasSubstr("TPipe: another TPipe is still alive on this core"));
  EXPECT_EQ(kind, ErrorKind::kInvalidArgument);
  LocalTensor<float> old = a.Get<float>();
  first.Destroy();  // as the tpipe_reuse sample does before constructing the next TPipe
  AscendC::TPipe next;
  AscendC::TBuf<TPosition::VECCALC> b;
  next.InitBuffer(b, 256);
  EXPECT_EQ(b.Get<float>().GetPhyAddr(), 0u);
  EXPECT_THAT(ErrorOf([&] { old.GetValue(0); }), HasSubstr("its TPipe was destroyed"));
  EXPECT_EQ(AscendC::GetTPipePtr(), &next);
}

// ---- 11. Cast rounding modes for float->bf16, int32->float and float->float ---------------------

uint16_t BitsOf(bfloat16_t v) {
  uint16_t b;
  std::memcpy(&b, &v, 2);
  return b;
}

TEST(GuardsRound2, CastHonoursTheRoundModeForBf16AndInt32ToFloat) {
  using AscendC::RoundMode;
  ascsim_test::CoreFixture f;
  LocalTensor<float> src = f.Take<float>(8);
  LocalTensor<bfloat16_t> bf = f.Take<bfloat16_t>(16);
  const float values[] = {1.01171875f, -1.01171875f, 1.01171875f, 1.0f};
  for (int i = 0; i < 4; ++i) src.SetValue(i, values[i]);
  // 1.01171875 = 0x3f818000: exactly between 0x3f81 and 0x3f82.
  const std::pair<RoundMode, std::vector<uint16_t>> expected[] = {
      {RoundMode::CAST_RINT, {0x3f82, 0xbf82, 0x3f82, 0x3f80}},
      {RoundMode::CAST_FLOOR, {0x3f81, 0xbf82, 0x3f81, 0x3f80}},
      {RoundMode::CAST_CEIL, {0x3f82, 0xbf81, 0x3f82, 0x3f80}},
      {RoundMode::CAST_ROUND, {0x3f82, 0xbf82, 0x3f82, 0x3f80}},
      {RoundMode::CAST_TRUNC, {0x3f81, 0xbf81, 0x3f81, 0x3f80}},
  };
  for (const auto& [mode, bits] : expected) {
    AscendC::Cast(bf, src, mode, 4);
    for (int i = 0; i < 4; ++i) {
      EXPECT_EQ(BitsOf(bf.GetValue(i)), bits[i]) << static_cast<int>(mode) << " " << i;
    }
  }
  LocalTensor<int32_t> ints = f.Take<int32_t>(8);
  LocalTensor<float> fl = f.Take<float>(8);
  ints.SetValue(0, 16777217);
  ints.SetValue(1, -16777217);
  ints.SetValue(2, 16777219);
  ints.SetValue(3, 5);
  const std::pair<RoundMode, std::vector<float>> to_float[] = {
      {RoundMode::CAST_NONE, {16777216.0f, -16777216.0f, 16777220.0f, 5.0f}},
      {RoundMode::CAST_RINT, {16777216.0f, -16777216.0f, 16777220.0f, 5.0f}},
      {RoundMode::CAST_FLOOR, {16777216.0f, -16777218.0f, 16777218.0f, 5.0f}},
      {RoundMode::CAST_CEIL, {16777218.0f, -16777216.0f, 16777220.0f, 5.0f}},
      {RoundMode::CAST_ROUND, {16777218.0f, -16777218.0f, 16777220.0f, 5.0f}},
      {RoundMode::CAST_TRUNC, {16777216.0f, -16777216.0f, 16777218.0f, 5.0f}},
  };
  for (const auto& [mode, want] : to_float) {
    AscendC::Cast(fl, ints, mode, 4);
    for (int i = 0; i < 4; ++i) {
      EXPECT_EQ(fl.GetValue(i), want[i]) << static_cast<int>(mode) << " " << i;
    }
  }
  // float -> float rounds to an integral value under the mode.
  LocalTensor<float> rounded = f.Take<float>(8);
  src.SetValue(0, 2.5f);
  src.SetValue(1, -2.5f);
  src.SetValue(2, 1.25f);
  src.SetValue(3, -0.75f);
  AscendC::Cast(rounded, src, RoundMode::CAST_FLOOR, 4);
  EXPECT_EQ(rounded.GetValue(0), 2.0f);
  EXPECT_EQ(rounded.GetValue(1), -3.0f);
  EXPECT_EQ(rounded.GetValue(2), 1.0f);
  EXPECT_EQ(rounded.GetValue(3), -1.0f);
  AscendC::Cast(rounded, src, RoundMode::CAST_RINT, 4);
  EXPECT_EQ(rounded.GetValue(0), 2.0f);
  EXPECT_EQ(rounded.GetValue(1), -2.0f);
}

TEST(GuardsRound2, CastRejectsRoundModesTheDeviceDoesNotOffer) {
  using AscendC::RoundMode;
  ascsim_test::CoreFixture f;
  LocalTensor<float> fl = f.Take<float>(16);
  LocalTensor<bfloat16_t> bf = f.Take<bfloat16_t>(16);
  LocalTensor<half> h = f.Take<half>(16);
  LocalTensor<int32_t> i32 = f.Take<int32_t>(16);
  ErrorKind kind{};
  EXPECT_THAT(ErrorOf([&] { AscendC::Cast(bf, fl, RoundMode::CAST_NONE, 16); }, &kind),
              HasSubstr("Cast float -> bfloat16_t: CAST_NONE is not supported on Ascend910B1 "
                        "(supported: CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC)"));
  EXPECT_EQ(kind, ErrorKind::kInvalidArgument);
  EXPECT_THAT(ErrorOf([&] { AscendC::Cast(bf, fl, RoundMode::CAST_ODD, 16); }),
              HasSubstr("CAST_ODD is not supported"));
  EXPECT_THAT(ErrorOf([&] { AscendC::Cast(fl, h, RoundMode::CAST_FLOOR, 16); }),
              HasSubstr("Cast half -> float: CAST_FLOOR is not supported"));
  EXPECT_THAT(ErrorOf([&] { AscendC::Cast(i32, fl, RoundMode::CAST_NONE, 16); }),
              HasSubstr("Cast float -> int32_t: CAST_NONE is not supported"));
  EXPECT_THAT(ErrorOf([&] { AscendC::Cast(bf, i32, RoundMode::CAST_RINT, 16); }),
              HasSubstr("Cast int32_t -> bfloat16_t is not a conversion Ascend910B1 offers"));
  // The documented pairs and modes pass.
  AscendC::Cast(h, fl, RoundMode::CAST_ODD, 16);
  AscendC::Cast(fl, h, RoundMode::CAST_NONE, 16);
  AscendC::Cast(fl, i32, RoundMode::CAST_NONE, 16);
}

// ---- rough edges: HardEvent::MAX, atomics on misaligned GM ---------------------------------

TEST(GuardsRound2, HardEventMaxIsNotAnEvent) {
  ascsim_test::CoreFixture f;
  EXPECT_THAT(ErrorOf([] { AscendC::SetFlag<AscendC::HardEvent::MAX>(0); }),
              HasSubstr("SetFlag<MAX>: HardEvent::MAX is not an event"));
  EXPECT_THAT(ErrorOf([] { AscendC::WaitFlag<AscendC::HardEvent::MAX>(0); }),
              HasSubstr("WaitFlag<MAX>: HardEvent::MAX is not an event"));
}

TEST(GuardsRound2, AtomicCopyToAMisalignedGmAddressIsReported) {
  ascsim_test::CoreFixture f;
  DeviceBuffer buf(256);
  std::memset(buf.gm(), 0, 256);
  AscendC::GlobalTensor<float> g;
  g.SetGlobalBuffer(reinterpret_cast<float*>(buf.gm() + 2), 32);
  LocalTensor<float> l = f.Take<float>(8);
  AscendC::Duplicate(l, 1.0f, 8);
  AscendC::SetAtomicAdd<float>();
  EXPECT_THAT(ErrorOf([&] { AscendC::DataCopy(g, l, 8); }),
              HasSubstr("is not aligned to the 4 B of float"));
  AscendC::SetAtomicNone();
}

}  // namespace
