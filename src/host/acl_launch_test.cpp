// ACL-path launches of the toolkit: a struct parameter given by pointer (as the generated
// aclrtlaunch_<kernel> takes tiling data), the generated launcher's body (GeneratedLaunch) and the
// <<<>>> lowering (ChevronLaunch), with their errors: on a stream at aclrtSynchronizeStream, on the
// default stream returned, printed and kept for the next default-stream synchronize.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "acl/acl.h"
#include "kernel_operator.h"

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

}  // namespace
