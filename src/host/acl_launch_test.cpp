// ACL-path launches of the toolkit: a struct parameter given by pointer (as the generated
// aclrtlaunch_<kernel> takes tiling data), the generated launcher's body (GeneratedLaunch) and the
// <<<>>> lowering (ChevronLaunch), with their errors: on a stream at aclrtSynchronizeStream, on the
// default stream returned, printed and kept for the next default-stream synchronize; a queued
// launch runs with the SetKernelMode of the moment it was issued.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <pthread.h>

#include <string>
#include <vector>

#include "acl/acl.h"
#include "ascsim/runtime.h"
#include "kernel_operator.h"
#include "tikicpulib.h"

struct ScaleTilingData {
  uint32_t totalLength;
  uint32_t tileLength;
  float factor;
};

namespace {
constexpr int32_t BUFFER_NUM = 2;

class KernelScale {
 public:
  __aicore__ inline KernelScale() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ScaleTilingData& tiling) {
    blockLength = tiling.totalLength / AscendC::GetBlockNum();
    tileLength = tiling.tileLength;
    factor = tiling.factor;
    xGm.SetGlobalBuffer((__gm__ float*)x + blockLength * AscendC::GetBlockIdx(), blockLength);
    yGm.SetGlobalBuffer((__gm__ float*)y + blockLength * AscendC::GetBlockIdx(), blockLength);
    pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(float));
    pipe.InitBuffer(outQueueY, BUFFER_NUM, tileLength * sizeof(float));
  }
  __aicore__ inline void Process() {
    const uint32_t loopCount = blockLength / tileLength;
    for (uint32_t i = 0; i < loopCount; i++) {
      CopyIn(i);
      Compute();
      CopyOut(i);
    }
  }

 private:
  __aicore__ inline void CopyIn(uint32_t progress) {
    AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
    AscendC::DataCopy(xLocal, xGm[progress * tileLength], tileLength);
    inQueueX.EnQue(xLocal);
  }
  __aicore__ inline void Compute() {
    AscendC::LocalTensor<float> xLocal = inQueueX.DeQue<float>();
    AscendC::LocalTensor<float> yLocal = outQueueY.AllocTensor<float>();
    AscendC::Muls(yLocal, xLocal, factor, tileLength);
    outQueueY.EnQue<float>(yLocal);
    inQueueX.FreeTensor(xLocal);
  }
  __aicore__ inline void CopyOut(uint32_t progress) {
    AscendC::LocalTensor<float> yLocal = outQueueY.DeQue<float>();
    AscendC::DataCopy(yGm[progress * tileLength], yLocal, tileLength);
    outQueueY.FreeTensor(yLocal);
  }

  AscendC::TPipe pipe;
  AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
  AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueY;
  AscendC::GlobalTensor<float> xGm;
  AscendC::GlobalTensor<float> yGm;
  uint32_t blockLength = 0;
  uint32_t tileLength = 0;
  float factor = 0;
};
}  // namespace

extern "C" __global__ __aicore__ void scale_custom(GM_ADDR x, GM_ADDR y, ScaleTilingData tiling) {
  KernelScale op;
  op.Init(x, y, tiling);
  op.Process();
}

// Each core writes the unit it runs on to its block's word: 1 on an AIC, 2 on an AIV.
extern "C" __global__ __aicore__ void unit_of_block(GM_ADDR out) {
  AscendC::GlobalTensor<int32_t> g;
  g.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(out), 8);
  g.SetValue(AscendC::GetBlockIdx(), ASCEND_IS_AIC ? 1 : 2);
}

namespace {

using ::testing::HasSubstr;

class AclLaunch : public ::testing::Test {
 protected:
  static constexpr uint32_t kLength = 8 * 512;
  void SetUp() override {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&x_, kLength * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&y_, kLength * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    host_.resize(kLength);
    for (uint32_t i = 0; i < kLength; ++i) host_[i] = static_cast<float>(i % 97) - 40.5f;
    ASSERT_EQ(aclrtMemcpy(x_, kLength * sizeof(float), host_.data(), kLength * sizeof(float),
                          ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtMemset(y_, kLength * sizeof(float), 0, kLength * sizeof(float)), ACL_SUCCESS);
  }
  void TearDown() override {
    // Nothing may be left for the next test's default-stream synchronize.
    EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(aclrtFree(x_), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(y_), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  }
  void ExpectScaled(float factor) {
    std::vector<float> y(kLength);
    ASSERT_EQ(aclrtMemcpy(y.data(), kLength * sizeof(float), y_, kLength * sizeof(float),
                          ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    for (uint32_t i = 0; i < kLength; ++i) ASSERT_EQ(y[i], host_[i] * factor) << i;
  }
  aclrtStream stream_ = nullptr;
  void* x_ = nullptr;
  void* y_ = nullptr;
  std::vector<float> host_;
};

TEST_F(AclLaunch, StructParameterByValueOrByPointer) {
  ScaleTilingData tiling{kLength, 128, 2.5f};
  EXPECT_EQ(ACLRT_LAUNCH_KERNEL(scale_custom)(8, stream_, x_, y_, tiling), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ExpectScaled(2.5f);
  // By pointer, as aclrtlaunch_<kernel> takes it: the struct is copied at the launch, so changing
  // it before the queued launch runs changes nothing.
  ScaleTilingData* host_tiling = nullptr;
  ASSERT_EQ(aclrtMallocHost(reinterpret_cast<void**>(&host_tiling), sizeof(ScaleTilingData)),
            ACL_SUCCESS);
  *host_tiling = {kLength, 64, -0.5f};
  EXPECT_EQ(ACLRT_LAUNCH_KERNEL(scale_custom)(8, stream_, x_, y_, host_tiling), ACL_SUCCESS);
  host_tiling->factor = 100.0f;
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ExpectScaled(-0.5f);
  EXPECT_EQ(aclrtFreeHost(host_tiling), ACL_SUCCESS);
}

TEST_F(AclLaunch, NullStructPointerIsRefusedNamingTheArgument) {
  ScaleTilingData* none = nullptr;
  EXPECT_EQ(ACLRT_LAUNCH_KERNEL(scale_custom)(8, stream_, x_, y_, none), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()),
              HasSubstr("scale_custom: argument 2 is a struct taken by value and was given as a "
                        "null pointer"));
}

TEST_F(AclLaunch, GeneratedLauncherQueuesOnTheStream) {
  ScaleTilingData tiling{kLength, 128, 3.0f};
  EXPECT_EQ(
      ascsim::acl::GeneratedLaunch("scale_custom", &scale_custom, 8, stream_, x_, y_, &tiling), 0u);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ExpectScaled(3.0f);
}

TEST_F(AclLaunch, GeneratedLauncherFaultOnAStreamSurfacesAtItsSynchronize) {
  // 1000 elements per block of 128-element tiles: the last tile of block 7 reads past x.
  ScaleTilingData tiling{kLength + 8 * 128, 128, 1.0f};
  EXPECT_EQ(
      ascsim::acl::GeneratedLaunch("scale_custom", &scale_custom, 8, stream_, x_, y_, &tiling), 0u);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_RT_AICORE_TRAP_EXCEPTION);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()), HasSubstr("scale_custom: block"));
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);  // reported once
}

TEST_F(AclLaunch, DefaultStreamFaultIsReturnedPrintedAndKeptForTheNextSynchronize) {
  ScaleTilingData tiling{kLength + 8 * 128, 128, 1.0f};
  testing::internal::CaptureStderr();
  const uint32_t rc =
      ascsim::acl::GeneratedLaunch("scale_custom", &scale_custom, 8, nullptr, x_, y_, &tiling);
  const std::string printed = testing::internal::GetCapturedStderr();
  EXPECT_EQ(rc, static_cast<uint32_t>(ACL_ERROR_RT_AICORE_TRAP_EXCEPTION));
  EXPECT_THAT(printed, HasSubstr("ascsim: launch of scale_custom failed with aclError 507016"));
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);  // another stream: not its error
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_ERROR_RT_AICORE_TRAP_EXCEPTION);
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  // aclrtSynchronizeDevice reports it too.
  testing::internal::CaptureStderr();
  ascsim::acl::ChevronLaunch("scale_custom", &scale_custom, 8, nullptr, nullptr)(x_, y_, tiling);
  testing::internal::GetCapturedStderr();
  EXPECT_EQ(aclrtSynchronizeDevice(), ACL_ERROR_RT_AICORE_TRAP_EXCEPTION);
}

TEST_F(AclLaunch, ChevronLaunchOnAStreamAndItsIssueErrors) {
  ScaleTilingData tiling{kLength, 256, 0.25f};
  // kernel<<<8, nullptr, stream>>>(x, y, tiling), as ascsim-launch-transform writes it.
  ascsim::acl::ChevronLaunch("scale_custom", &scale_custom, 8, nullptr, stream_)(x_, y_, tiling);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ExpectScaled(0.25f);
  // <<<blockDim, 0, 0>>>: literal zeros for l2ctrl and the default stream.
  ascsim::acl::ChevronLaunch("scale_custom", &scale_custom, 8, 0, 0)(x_, y_, &tiling);
  ExpectScaled(0.25f);
  // blockDim 0 cannot be issued; the statement has no value, so the stream reports it.
  ascsim::acl::ChevronLaunch("scale_custom", &scale_custom, 0, nullptr, stream_)(x_, y_, tiling);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(std::string(aclGetRecentErrMsg()), HasSubstr("blockDim 0"));
}

void NothingToDo(void*) {}

// The kernel mode is process-wide: leave it unset for the tests that follow, whatever happens.
struct KernelModeReset {
  ~KernelModeReset() { ascsim::aicore::SetRequestedKernelMode(-1); }
};

// SetKernelMode applies to the launches issued after it (tikicpulib), so a launch queued on a
// stream keeps the mode of its issue even when the mode changes before the stream reaches it.
TEST_F(AclLaunch, QueuedLaunchRunsWithTheKernelModeOfItsIssue) {
  ascsim::ScopedSettings restore;
  KernelModeReset reset_mode;
  ascsim::Settings settings = ascsim::GetSettings();
  settings.soc = &ascsim::FindSocProfile("Ascend910B1");  // split AIC / AIV cores
  ascsim::SetSettings(settings);
  void* units = nullptr;
  ASSERT_EQ(aclrtMalloc(&units, 2 * sizeof(int32_t), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(units, 2 * sizeof(int32_t), 0, 2 * sizeof(int32_t)), ACL_SUCCESS);
  // A blocking callback for this thread holds the stream until aclrtProcessReport below.
  const uint64_t self = static_cast<uint64_t>(pthread_self());
  ASSERT_EQ(aclrtSubscribeReport(self, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtLaunchCallback(NothingToDo, nullptr, ACL_CALLBACK_BLOCK, stream_), ACL_SUCCESS);
  AscendC::SetKernelMode(KernelMode::AIV_MODE);
  EXPECT_EQ(ACLRT_LAUNCH_KERNEL(unit_of_block)(2, stream_, units), ACL_SUCCESS);
  AscendC::SetKernelMode(KernelMode::AIC_MODE);  // before the stream has run the launch
  EXPECT_EQ(aclrtProcessReport(10000), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
  int32_t seen[2] = {0, 0};
  ASSERT_EQ(aclrtMemcpy(seen, sizeof seen, units, sizeof seen, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(seen[0], 2);  // AIV_MODE: every block is an AIV
  EXPECT_EQ(seen[1], 2);
  // The mode of this moment (AIC_MODE) applies to what is issued now.
  EXPECT_EQ(ACLRT_LAUNCH_KERNEL(unit_of_block)(2, stream_, units), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtMemcpy(seen, sizeof seen, units, sizeof seen, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_SUCCESS);
  EXPECT_EQ(seen[0], 1);
  EXPECT_EQ(seen[1], 1);
  EXPECT_EQ(aclrtUnSubscribeReport(self, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(units), ACL_SUCCESS);
}

}  // namespace
