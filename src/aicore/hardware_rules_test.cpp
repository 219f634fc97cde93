// The hardware rules and their messages: tensors allocated at once per TPosition, SetFlag
// pairing, DataCopy lengths, DataCopyPad availability, non-device GM; kernel printf/DumpTensor.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "ascsim/error.h"
#include "ascsim/runtime.h"
#include "kernel_operator.h"

namespace {

using AscendC::TPosition;

using ascsim_test::FaultOf;

class SocGuard : ascsim::ScopedSettings {
 public:
  explicit SocGuard(const char* name) { ascsim::SetSoc(name); }
};

TEST(HardwareRules, NinthTensorAllocatedOnOnePositionIsAFault) {
  const std::string msg = FaultOf("nine_inputs", 2, [] {
    AscendC::TPipe pipe;
    AscendC::TQue<TPosition::VECIN, 1> q[9];
    for (auto& que : q) pipe.InitBuffer(que, 1, 256);  // carving 9 buffers is fine
    for (int i = 0; i < 8; ++i) q[i].AllocTensor<float>();
    q[8].AllocTensor<float>();
  });
  EXPECT_NE(msg.find("nine_inputs: block 0/2: AllocTensor on VECIN queue: 9 tensors allocated at "
                     "once on VECIN (across all its queues) exceeds the limit of 8 on Ascend910B1"),
            std::string::npos)
      << msg;
}

TEST(HardwareRules, PositionLimitCountsLiveTensorsNotCarvedBuffers) {
  const std::string msg = FaultOf("reuse", 1, [] {
    AscendC::TPipe pipe;
    AscendC::TQue<TPosition::VECIN, 1> in[6];
    AscendC::TQue<TPosition::VECOUT, 1> out[6];
    for (auto& que : in) pipe.InitBuffer(que, 2, 256);
    for (auto& que : out) pipe.InitBuffer(que, 2, 256);
    for (int round = 0; round < 3; ++round) {
      std::vector<AscendC::LocalTensor<float>> live;
      for (int i = 0; i < 6; ++i) live.push_back(in[i].AllocTensor<float>());  // 6 on VECIN
      for (int i = 0; i < 6; ++i) out[i].AllocTensor<float>();                 // 6 on VECOUT
      for (int i = 0; i < 6; ++i) in[i].FreeTensor(live[i]);
      // VECOUT tensors stay allocated: a second round reaches 12 on VECOUT.
    }
  });
  EXPECT_NE(msg.find("reuse: block 0/1: AllocTensor on VECOUT queue: 9 tensors allocated at once "
                     "on VECOUT"),
            std::string::npos)
      << msg;
}

TEST(HardwareRules, PositionLimitResetsWithANewPipe) {
  EXPECT_EQ(FaultOf("pipes", 1,
                    [] {
                      for (int k = 0; k < 3; ++k) {
                        AscendC::TPipe pipe;
                        AscendC::TQue<TPosition::VECIN, 1> q[8];
                        for (auto& que : q) pipe.InitBuffer(que, 1, 64);
                        for (auto& que : q) que.AllocTensor<half>();  // never freed
                      }
                    }),
            "");
}

TEST(HardwareRules, SecondSetFlagBeforeWaitIsAFault) {
  const std::string msg = FaultOf("flags", 1, [] {
    AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID1);
    AscendC::SetFlag<AscendC::HardEvent::V_S>(EVENT_ID1);
  });
  EXPECT_NE(msg.find("flags: block 0/1: SetFlag<V_S>(EVENT_ID1) set again before its WaitFlag"),
            std::string::npos)
      << msg;
}

TEST(HardwareRules, UnpairedSetFlagWarnsAndStrictFails) {
  auto body = [] { AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0); };
  ascsim::ScopedSettings saved;
  ascsim::SetSanitize(ascsim::kSanitizeRace | ascsim::kSanitizeInit);  // `sync` makes it a fault
  {
    ascsim_test::WarningCapture warnings;
    EXPECT_EQ(FaultOf("unpaired", 1, body), "");
    EXPECT_NE(warnings.All().find("unpaired: block 0/1: SetFlag<MTE2_V>(EVENT_ID0) was never "
                                  "waited for"),
              std::string::npos)
        << warnings.All();
  }
  ascsim::ScopedSettings settings;
  ascsim::SetStrict(true);
  const std::string msg = FaultOf("unpaired", 1, body);
  EXPECT_NE(msg.find("never waited for"), std::string::npos) << msg;
}

TEST(HardwareRules, WaitFlagWithoutSetFlagIsAFault) {
  const std::string msg =
      FaultOf("wait", 1, [] { AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID2); });
  EXPECT_NE(msg.find("wait: block 0/1: WaitFlag<MTE3_V>(EVENT_ID2) has no matching SetFlag"),
            std::string::npos)
      << msg;
}

TEST(HardwareRules, DataCopyLengthWarningNamesKernelBlockCallAndLengths) {
  auto* gm = static_cast<half*>(ascsim::DeviceMalloc(64 * sizeof(half)));
  ascsim_test::WarningCapture warnings;
  EXPECT_EQ(FaultOf("short_copy", 4,
                    [=] {
                      AscendC::TPipe pipe;
                      AscendC::TBuf<TPosition::VECCALC> buf;
                      pipe.InitBuffer(buf, 256);
                      AscendC::GlobalTensor<half> g;
                      g.SetGlobalBuffer(gm, 64);
                      AscendC::DataCopy(buf.Get<half>(), g, 40);  // 80 B
                    }),
            "");
  const std::string all = warnings.All();
  EXPECT_NE(all.find("short_copy: block "), std::string::npos) << all;
  EXPECT_NE(all.find("DataCopy GM->UB count 40 of half (80 B) is not a multiple of 32 B; the "
                     "device copies 64 B (32 elements)"),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("(x4)"), std::string::npos) << all;  // one line for all 4 blocks
  ascsim::DeviceFree(gm);
}

TEST(HardwareRules, DataCopyPadOn310PIsAFault) {
  SocGuard guard("Ascend310P3");
  auto* gm = static_cast<float*>(ascsim::DeviceMalloc(64 * sizeof(float)));
  const std::string msg = FaultOf("pad310", 1, [=] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer(gm, 64);
    AscendC::DataCopyPad(g, buf.Get<float>(), AscendC::DataCopyExtParams(1, 12, 0, 0, 0));
  });
  EXPECT_NE(msg.find("pad310: block 0/1: DataCopyPad UB->GM: DataCopyPad is not available on "
                     "Ascend310P3"),
            std::string::npos)
      << msg;
  ascsim::DeviceFree(gm);
}

TEST(HardwareRules, HostPointerAsGmIsNamedNotDeviceMemory) {
  std::vector<float> host(64);
  float* p = host.data();
  const std::string msg = FaultOf("host_gm", 1, [=] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer(p, 64);
    AscendC::DataCopy(buf.Get<float>(), g, 64);
  });
  EXPECT_NE(msg.find("host_gm: block 0/1: DataCopy GM->UB read at 0x"), std::string::npos) << msg;
  EXPECT_NE(msg.find("address is not device memory"), std::string::npos) << msg;
}

TEST(HardwareRules, PrintfTagsEveryLineWithItsBlock) {
  testing::internal::CaptureStdout();
  ascsim::Launch("printer", 8, [] {
    const auto b = static_cast<int>(AscendC::GetBlockIdx());
    AscendC::printf("hello from %d of %d\n", b, static_cast<int>(AscendC::GetBlockNum()));
    AscendC::PRINTF("partial %d", b);  // completed by the next call
    AscendC::PRINTF(" done %.2f\n", half(1.5f));
    AscendC::PRINTF("tail %d", b);  // no newline: flushed when the block ends
  });
  const std::string out = testing::internal::GetCapturedStdout();
  std::istringstream lines(out);
  std::string line;
  int count = 0;
  while (std::getline(lines, line)) {
    ++count;
    ASSERT_EQ(line.rfind("[block ", 0), 0u) << line;
  }
  EXPECT_EQ(count, 24) << out;
  for (int b = 0; b < 8; ++b) {
    const std::string tag = "[block " + std::to_string(b) + "] ";
    EXPECT_NE(out.find(tag + "hello from " + std::to_string(b) + " of 8\n"), std::string::npos);
    EXPECT_NE(out.find(tag + "partial " + std::to_string(b) + " done 1.50\n"), std::string::npos);
    EXPECT_NE(out.find(tag + "tail " + std::to_string(b) + "\n"), std::string::npos);
  }
}

TEST(HardwareRules, DumpTensorPrintsTheFirstDumpSizeElements) {
  testing::internal::CaptureStdout();
  ascsim::Launch("dumper", 1, [] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    AscendC::LocalTensor<float> t = buf.Get<float>();
    for (int i = 0; i < 64; ++i) t.SetValue(i, static_cast<float>(i));
    AscendC::DumpTensor(t, 5, 4);
  });
  const std::string out = testing::internal::GetCapturedStdout();
  EXPECT_NE(out.find("[block 0] DumpTensor: desc=5, addr=0, data_type=float32, position=UB, "
                     "dump_size=4\n[block 0] [0.000000, 1.000000, 2.000000, 3.000000]\n"),
            std::string::npos)
      << out;
  const std::string msg = FaultOf("dumper", 1, [] {
    AscendC::TPipe pipe;
    AscendC::TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
    AscendC::DumpTensor(buf.Get<float>(), 1, 17);
  });
  EXPECT_NE(msg.find("DumpTensor desc=1: dumpSize 17 exceeds the LocalTensor's 16 elements"),
            std::string::npos)
      << msg;
}

TEST(HardwareRules, GetSystemCycleAdvances) {
  int64_t first = 0, second = 0;
  ascsim::Launch("cycles", 1, [&] {
    first = AscendC::GetSystemCycle();
    volatile double x = 0;
    for (int i = 0; i < 100000; ++i) x = x + 1.0;
    second = AscendC::GetSystemCycle();
  });
  EXPECT_GT(first, 0);
  EXPECT_GT(second, first);
}

}  // namespace
