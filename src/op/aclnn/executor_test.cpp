// The aclnn runtime of custom operators (executor.h), with variants registered in process: the
// two phases on a stream and on the default stream, two data types, an absent optional input,
// attributes, tiling keys, the user workspace behind the system one, a dynamic input, repeatable
// executors, the outputs InferShape gives without a kernel, and every error's status and message.
#include "op/aclnn/executor.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "ascsim/aclnn_op.h"
#include "ascsim/half.h"
#include "ascsim/runtime.h"
#include "ascsim/soc.h"
#include "op/aclnn/op_package.h"
#include "opdev/op_errno.h"
#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

const AscsimOpKernel* AclnnTestAddKernel(bool half);
const AscsimOpKernel* AclnnTestSumKernel();

namespace optiling {
BEGIN_TILING_DATA_DEF(AclnnTestAddTiling)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(float, alpha);
TILING_DATA_FIELD_DEF(uint32_t, writeWorkspace);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(AclnnTestAdd, AclnnTestAddTiling)

BEGIN_TILING_DATA_DEF(AclnnTestSumTiling)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(AclnnTestSum, AclnnTestSumTiling)

// mode: 1 add, 2 subtract (tiling key 2), 3 add and ask for a workspace, 0 no block dim, 7 a
// tiling key the kernel has no branch for, 8 a tiling data size over the capacity. A negative
// alpha fails.
static ge::graphStatus AclnnTestAddTilingFunc(gert::TilingContext* context) {
  AclnnTestAddTiling tiling;
  const float alpha = *context->GetAttrs()->GetFloat(0);
  const int64_t mode = *context->GetAttrs()->GetInt(1);
  if (alpha < 0) return ge::GRAPH_FAILED;
  const auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  tiling.set_totalLength(
      static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize()));
  tiling.set_alpha(alpha);
  tiling.set_writeWorkspace(mode == 3 ? 1 : 0);
  context->SetBlockDim(mode == 0 ? 0 : platform.GetCoreNumAiv());
  context->SetTilingKey(mode == 2 ? 2 : mode == 7 ? 7 : 1);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(),
                      context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(mode == 8 ? 1 << 20 : tiling.GetDataSize());
  size_t* ws = context->GetWorkspaceSizes(1);
  ws[0] = mode == 3 ? platform.GetLibApiWorkSpaceSize() + 256 : 0;
  return ge::GRAPH_SUCCESS;
}

static ge::graphStatus AclnnTestSumTilingFunc(gert::TilingContext* context) {
  AclnnTestSumTiling tiling;
  tiling.set_totalLength(
      static_cast<uint32_t>(context->GetDynamicInputShape(0, 0)->GetOriginShape().GetShapeSize()));
  context->SetBlockDim(2);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(),
                      context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
// mode 5 (otherwise as 1): sets no output shape, as the official unaligned WholeReduceSum
// sample's InferShape does.
static graphStatus AclnnTestInferShape(gert::InferShapeContext* context) {
  if (*context->GetAttrs()->GetInt(1) == 5) return GRAPH_SUCCESS;
  *context->GetOutputShape(0) = *context->GetInputShape(0);
  return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class AclnnTestAdd : public OpDef {
 public:
  explicit AclnnTestAdd(const char* name) : OpDef(name) {
    this->Input("x")
        .ParamType(REQUIRED)
        .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
        .Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Input("y")
        .ParamType(OPTIONAL)
        .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
        .Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Output("z")
        .ParamType(REQUIRED)
        .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
        .Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Attr("alpha").AttrType(OPTIONAL).Float(1.0f);
    this->Attr("mode").AttrType(OPTIONAL).Int(1);
    this->SetInferShape(ge::AclnnTestInferShape);
    this->AICore().SetTiling(optiling::AclnnTestAddTilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(AclnnTestAdd);

class AclnnTestSum : public OpDef {
 public:
  explicit AclnnTestSum(const char* name) : OpDef(name) {
    this->Input("xs").ParamType(DYNAMIC).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::AclnnTestSumTilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(AclnnTestSum);
}  // namespace ops

namespace {

using ascsim::op::KernelVariant;
using ascsim::op::OpPackage;
using ::testing::HasSubstr;

constexpr char kApi[] = "aclnnAclnnTestAddGetWorkspaceSize";

void RegisterVariants() {
  static const bool done = [] {
    for (bool half : {true, false}) {
      KernelVariant v;
      v.op_type = "AclnnTestAdd";
      v.kernel_name = "aclnn_test_add";
      const ge::DataType t = half ? ge::DT_FLOAT16 : ge::DT_FLOAT;
      v.input_names = {"x", "y"};
      v.input_types = {t, t};
      v.input_formats = {ge::FORMAT_ND, ge::FORMAT_ND};
      v.output_names = {"z"};
      v.output_types = {t};
      v.output_formats = {ge::FORMAT_ND};
      v.any_tiling_key = false;
      v.tiling_keys = {1, 2};
      v.entry = AclnnTestAddKernel(half);
      OpPackage::InProcess().AddVariant("ascend910b", v);
    }
    KernelVariant s;
    s.op_type = "AclnnTestSum";
    s.kernel_name = "aclnn_test_sum";
    s.input_names = {"xs"};
    s.input_types = {ge::DT_FLOAT};
    s.input_formats = {ge::FORMAT_ND};
    s.output_names = {"y"};
    s.output_types = {ge::DT_FLOAT};
    s.output_formats = {ge::FORMAT_ND};
    s.entry = AclnnTestSumKernel();
    OpPackage::InProcess().AddVariant("ascend910b", s);
    return true;
  }();
  (void)done;
}

class Aclnn : public ::testing::Test {
 protected:
  static constexpr int64_t kRows = 4;
  static constexpr int64_t kCols = 300;
  static constexpr int64_t kN = kRows * kCols;

  void SetUp() override {
    RegisterVariants();
    ascsim::SetSoc("Ascend910B1");
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
  void TearDown() override {
    EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS) << aclGetRecentErrMsg();
    for (aclTensor* t : tensors_) aclDestroyTensor(t);
    for (void* p : buffers_) aclrtFree(p);
    EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  }

  // A device tensor of kRows x kCols holding `values` (float or, with `half`, fp16).
  aclTensor* Tensor(const std::vector<float>& values, bool half = false,
                    std::vector<int64_t> dims = {kRows, kCols}) {
    const size_t elem = half ? 2 : 4;
    void* dev = nullptr;
    EXPECT_EQ(aclrtMalloc(&dev, values.size() * elem, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    buffers_.push_back(dev);
    std::vector<uint8_t> bytes(values.size() * elem);
    for (size_t i = 0; i < values.size(); ++i) {
      if (half) {
        const ::half h(values[i]);
        std::memcpy(bytes.data() + i * 2, &h, 2);
      } else {
        std::memcpy(bytes.data() + i * 4, &values[i], 4);
      }
    }
    EXPECT_EQ(aclrtMemcpy(dev, bytes.size(), bytes.data(), bytes.size(), ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    aclTensor* t = aclCreateTensor(dims.data(), dims.size(), half ? ACL_FLOAT16 : ACL_FLOAT,
                                   nullptr, 0, ACL_FORMAT_ND, dims.data(), dims.size(), dev);
    tensors_.push_back(t);
    return t;
  }
  std::vector<float> Read(const aclTensor* t, bool half = false) {
    void* dev = nullptr;
    EXPECT_EQ(aclGetRawTensorAddr(t, &dev), ACLNN_SUCCESS);
    const size_t elem = half ? 2 : 4;
    std::vector<uint8_t> bytes(kN * elem);
    EXPECT_EQ(aclrtMemcpy(bytes.data(), bytes.size(), dev, bytes.size(), ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    std::vector<float> out(kN);
    for (size_t i = 0; i < out.size(); ++i) {
      if (half) {
        ::half h;
        std::memcpy(&h, bytes.data() + i * 2, 2);
        out[i] = static_cast<float>(h);
      } else {
        std::memcpy(&out[i], bytes.data() + i * 4, 4);
      }
    }
    return out;
  }
  static std::vector<float> Ramp(float scale) {
    std::vector<float> v(kN);
    for (int64_t i = 0; i < kN; ++i) v[i] = static_cast<float>(i % 37) * scale;
    return v;
  }

  aclnnStatus Prepare(const aclTensor* x, const aclTensor* y, double alpha, int64_t mode,
                      const aclTensor* z, uint64_t* ws, aclOpExecutor** ex) {
    const AscsimAclnnArg args[5] = {{ASCSIM_ACLNN_TENSOR, "x", x, 0, 0},
                                    {ASCSIM_ACLNN_TENSOR, "yOptional", y, 0, 0},
                                    {ASCSIM_ACLNN_FLOAT, "alpha", nullptr, 0, alpha},
                                    {ASCSIM_ACLNN_INT, "mode", nullptr, mode, 0},
                                    {ASCSIM_ACLNN_TENSOR, "z", z, 0, 0}};
    return ascsim_aclnn_get_workspace_size(kApi, "AclnnTestAdd", nullptr, args, 5, ws, ex);
  }

  ascsim::ScopedSettings settings_;  // SetUp picks the SoC; the test's settings come back after
  aclrtStream stream_ = nullptr;
  std::vector<aclTensor*> tensors_;
  std::vector<void*> buffers_;
};

TEST_F(Aclnn, TwoPhasesOnAStreamForEachDataType) {
  for (bool half : {false, true}) {
    const std::vector<float> xv = Ramp(1.0f);
    const std::vector<float> yv = Ramp(0.5f);
    aclTensor* x = Tensor(xv, half);
    aclTensor* y = Tensor(yv, half);
    aclTensor* z = Tensor(std::vector<float>(kN, 0.0f), half);
    uint64_t ws = 99;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(Prepare(x, y, 2.0, 1, z, &ws, &ex), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(ws, 0u);
    ASSERT_EQ(ascsim_aclnn_run("aclnnAclnnTestAdd", nullptr, 0, ex, stream_), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
    const std::vector<float> zv = Read(z, half);
    for (int64_t i = 0; i < kN; ++i) ASSERT_EQ(zv[i], xv[i] + 2.0f * yv[i]) << i;
  }
}

// The AclNN invocation samples pass `&workspace` (a host address) with a workspace size of 0:
// the device never touches it, and neither does the simulated launch.
TEST_F(Aclnn, AHostWorkspacePointerWithSizeZeroIsNotTheKernels) {
  const std::vector<float> xv = Ramp(1.0f);
  const std::vector<float> yv = Ramp(0.5f);
  aclTensor* x = Tensor(xv);
  aclTensor* y = Tensor(yv);
  aclTensor* z = Tensor(std::vector<float>(kN, 0.0f));
  uint64_t ws = 99;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(Prepare(x, y, 3.0, 1, z, &ws, &ex), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(ws, 0u);
  void* host_workspace = nullptr;
  ASSERT_EQ(ascsim_aclnn_run("aclnnAclnnTestAdd", &host_workspace, 0, ex, stream_), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
  const std::vector<float> zv = Read(z);
  for (int64_t i = 0; i < kN; ++i) ASSERT_EQ(zv[i], xv[i] + 3.0f * yv[i]) << i;
  // The executor ran once and is gone: a second run (a loop without
  // aclSetAclOpExecutorRepeatable) is refused, and so is destroying it.
  EXPECT_EQ(ascsim_aclnn_run("aclnnAclnnTestAdd", nullptr, 0, ex, stream_),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("aclnnAclnnTestAdd: the executor was already run or "
                                              "destroyed"));
  EXPECT_EQ(aclDestroyAclOpExecutor(ex), ACLNN_ERR_PARAM_INVALID);
}

// An InferShape that sets no output shape leaves the given output's shape as it is (on the
// device an aclnn call takes the output tensor as given); InferOutputs cannot size it.
TEST_F(Aclnn, AnOutputInferShapeLeavesAloneIsNotCompared) {
  const std::vector<float> xv = Ramp(1.0f);
  const std::vector<float> yv = Ramp(0.5f);
  aclTensor* x = Tensor(xv);
  aclTensor* y = Tensor(yv);
  aclTensor* z = Tensor(std::vector<float>(kN, 0.0f));
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(Prepare(x, y, 2.0, 5, z, &ws, &ex), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(ascsim_aclnn_run("aclnnAclnnTestAdd", nullptr, 0, ex, nullptr), ACLNN_SUCCESS);
  const std::vector<float> zv = Read(z);
  for (int64_t i = 0; i < kN; ++i) ASSERT_EQ(zv[i], xv[i] + 2.0f * yv[i]) << i;
  const AscsimAclnnArg args[5] = {{ASCSIM_ACLNN_TENSOR, "x", x, 0, 0},
                                  {ASCSIM_ACLNN_TENSOR, "yOptional", y, 0, 0},
                                  {ASCSIM_ACLNN_FLOAT, "alpha", nullptr, 0, 2.0},
                                  {ASCSIM_ACLNN_INT, "mode", nullptr, 5, 0},
                                  {ASCSIM_ACLNN_TENSOR, "z", nullptr, 0, 0}};
  try {
    ascsim::op::InferOutputs("infer", "AclnnTestAdd", args, 5);
    ADD_FAILURE() << "InferOutputs sized an output InferShape left alone";
  } catch (const ascsim::InvalidArgument& e) {
    EXPECT_THAT(e.what(), HasSubstr("AclnnTestAdd's InferShape sets no shape for output z"));
  }
}

TEST_F(Aclnn, AbsentOptionalInputTilingKeyAndDefaultStream) {
  const std::vector<float> xv = Ramp(1.0f);
  const std::vector<float> yv = Ramp(0.25f);
  aclTensor* x = Tensor(xv);
  aclTensor* y = Tensor(yv);
  aclTensor* z = Tensor(std::vector<float>(kN, 0.0f));
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(Prepare(x, nullptr, 2.0, 1, z, &ws, &ex), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(ascsim_aclnn_run("aclnnAclnnTestAdd", nullptr, 0, ex, nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(Read(z), xv);
  // Tiling key 2 takes the kernel's other TILING_KEY_IS branch.
  ASSERT_EQ(Prepare(x, y, 2.0, 2, z, &ws, &ex), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(ascsim_aclnn_run("aclnnAclnnTestAdd", nullptr, 0, ex, nullptr), ACLNN_SUCCESS);
  const std::vector<float> zv = Read(z);
  for (int64_t i = 0; i < kN; ++i) ASSERT_EQ(zv[i], xv[i] - 2.0f * yv[i]) << i;
}

TEST_F(Aclnn, KernelGetsTheUserWorkspaceBehindTheSystemWorkspace) {
  aclTensor* x = Tensor(Ramp(1.0f));
  aclTensor* z = Tensor(std::vector<float>(kN, 0.0f));
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(Prepare(x, nullptr, 1.0, 3, z, &ws, &ex), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  const uint64_t sys = ascsim::LibApiWorkspaceBytes(ascsim::CurrentSoc());
  ASSERT_EQ(ws, sys + 256);
  void* workspace = nullptr;
  ASSERT_EQ(aclrtMalloc(&workspace, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  buffers_.push_back(workspace);
  // Too small a workspace is refused, and the executor is spent.
  EXPECT_EQ(ascsim_aclnn_run("aclnnAclnnTestAdd", workspace, ws - 1, ex, stream_),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("workspaceSize " + std::to_string(ws - 1)));
  ASSERT_EQ(Prepare(x, nullptr, 1.0, 3, z, &ws, &ex), ACLNN_SUCCESS);
  ASSERT_EQ(ascsim_aclnn_run("aclnnAclnnTestAdd", workspace, ws, ex, stream_), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
  uint32_t word = 0;
  ASSERT_EQ(
      aclrtMemcpy(&word, 4, static_cast<uint8_t*>(workspace) + sys, 4, ACL_MEMCPY_DEVICE_TO_HOST),
      ACL_SUCCESS);
  EXPECT_EQ(word, 0xC0FFEEu);
}

TEST_F(Aclnn, RepeatableExecutorRunsAgainWithNewAddresses) {
  const std::vector<float> a = Ramp(1.0f);
  const std::vector<float> b = Ramp(3.0f);
  aclTensor* x = Tensor(a);
  aclTensor* x2 = Tensor(b);
  aclTensor* z = Tensor(std::vector<float>(kN, 0.0f));
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(Prepare(x, nullptr, 1.0, 1, z, &ws, &ex), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(ex), ACLNN_SUCCESS);
  ASSERT_EQ(ascsim_aclnn_run("aclnnAclnnTestAdd", nullptr, 0, ex, stream_), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(Read(z), a);
  void* addr = nullptr;
  ASSERT_EQ(aclGetRawTensorAddr(x2, &addr), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetInputTensorAddr(ex, 0, x, addr), ACLNN_SUCCESS);
  EXPECT_EQ(aclSetInputTensorAddr(ex, 1, x, addr), ACLNN_ERR_PARAM_INVALID);
  EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("index 1 is past the 1 input tensors"));
  ASSERT_EQ(ascsim_aclnn_run("aclnnAclnnTestAdd", nullptr, 0, ex, stream_), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(Read(z), b);
  EXPECT_EQ(aclDestroyAclOpExecutor(ex), ACLNN_SUCCESS);
}

TEST_F(Aclnn, DynamicInputReachesTheKernelAsAListTensorDesc) {
  const std::vector<float> a = Ramp(1.0f);
  const std::vector<float> b = Ramp(2.0f);
  const std::vector<float> c = Ramp(-0.5f);
  const aclTensor* parts[3] = {Tensor(a), Tensor(b), Tensor(c)};
  tensors_.resize(tensors_.size() - 3);  // the list takes them (aclCreateTensorList, as CANN's)
  aclTensorList* xs = aclCreateTensorList(parts, 3);
  aclTensor* y = Tensor(std::vector<float>(kN, 0.0f));
  const AscsimAclnnArg args[2] = {{ASCSIM_ACLNN_TENSOR_LIST, "xs", xs, 0, 0},
                                  {ASCSIM_ACLNN_TENSOR, "y", y, 0, 0}};
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(ascsim_aclnn_get_workspace_size("aclnnAclnnTestSumGetWorkspaceSize", "AclnnTestSum",
                                            nullptr, args, 2, &ws, &ex),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(ascsim_aclnn_run("aclnnAclnnTestSum", nullptr, 0, ex, stream_), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << aclGetRecentErrMsg();
  const std::vector<float> yv = Read(y);
  for (int64_t i = 0; i < kN; ++i) ASSERT_EQ(yv[i], a[i] + b[i] + c[i]) << i;
  EXPECT_EQ(aclDestroyTensorList(xs), ACLNN_SUCCESS);
}

TEST_F(Aclnn, InferOutputsWithoutAKernel) {
  aclTensor* x = Tensor(Ramp(1.0f), true, {3, 5, 7});
  const AscsimAclnnArg args[5] = {{ASCSIM_ACLNN_TENSOR, "x", x, 0, 0},
                                  {ASCSIM_ACLNN_TENSOR, "yOptional", nullptr, 0, 0},
                                  {ASCSIM_ACLNN_FLOAT, "alpha", nullptr, 0, 1.0},
                                  {ASCSIM_ACLNN_INT, "mode", nullptr, 1, 0},
                                  {ASCSIM_ACLNN_TENSOR, "z", nullptr, 0, 0}};
  const std::vector<ascsim::op::InferredOutput> out =
      ascsim::op::InferOutputs("infer", "AclnnTestAdd", args, 5);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].name, "z");
  EXPECT_EQ(out[0].shape, (std::vector<int64_t>{3, 5, 7}));
  EXPECT_EQ(out[0].data_type, ge::DT_FLOAT16);
}

TEST_F(Aclnn, ArgumentErrorsNameTheApiAndTheParameter) {
  aclTensor* x = Tensor(Ramp(1.0f));
  aclTensor* xh = Tensor(Ramp(1.0f), true);
  aclTensor* z = Tensor(std::vector<float>(kN, 0.0f));
  aclTensor* wrong = Tensor(std::vector<float>(2 * kCols, 0.0f), false, {2, kCols});
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(Prepare(nullptr, nullptr, 1.0, 1, z, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(std::string(aclGetRecentErrMsg()), std::string(kApi) + ": x is nullptr");
  EXPECT_EQ(Prepare(x, nullptr, 1.0, 1, nullptr, &ws, &ex), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr(": z is nullptr"));
  EXPECT_EQ(Prepare(x, xh, 1.0, 1, z, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
  EXPECT_THAT(aclGetRecentErrMsg(),
              HasSubstr("AclnnTestAdd takes no (x, y -> z) = (DT_FLOAT, DT_FLOAT16 -> DT_FLOAT); "
                        "it takes (DT_FLOAT16, DT_FLOAT16 -> DT_FLOAT16), (DT_FLOAT, DT_FLOAT -> "
                        "DT_FLOAT)"));
  {
    // An output shape InferShape disagrees with is the caller's to give (official samples do):
    // a warning, once; an error under strict mode.
    std::vector<std::string> warnings;
    auto previous =
        ascsim::SetWarningSink([&](const std::string& line) { warnings.push_back(line); });
    EXPECT_EQ(Prepare(x, nullptr, 1.0, 1, wrong, &ws, &ex), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(aclDestroyAclOpExecutor(ex), ACLNN_SUCCESS);
    ascsim::SetWarningSink(previous);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_THAT(warnings[0],
                HasSubstr("z has shape [2, 300], AclnnTestAdd's InferShape gives [4, 300]; the "
                          "kernel runs on the given shape"));
    ascsim::SetStrict(true);
    EXPECT_EQ(Prepare(x, nullptr, 1.0, 1, wrong, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
    EXPECT_THAT(aclGetRecentErrMsg(),
                HasSubstr("z has shape [2, 300], AclnnTestAdd's InferShape gives [4, 300] "
                          "[strict mode]"));
    ascsim::SetStrict(false);
  }
  // Host memory is not device memory.
  std::vector<float> host(kN);
  const int64_t dims[2] = {kRows, kCols};
  aclTensor* h =
      aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 2, host.data());
  tensors_.push_back(h);
  EXPECT_EQ(Prepare(h, nullptr, 1.0, 1, z, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
  EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("x's data"));
  EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("is not device memory"));
  // A strided view.
  const int64_t strides[2] = {1, kRows};
  aclTensor* t =
      aclCreateTensor(dims, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 2, buffers_[0]);
  tensors_.push_back(t);
  EXPECT_EQ(Prepare(t, nullptr, 1.0, 1, z, &ws, &ex), ACLNN_ERR_PARAM_INVALID);
  EXPECT_THAT(aclGetRecentErrMsg(),
              HasSubstr("x is not contiguous (view [4, 300], strides [1, 4]"));
  // Wrong argument count.
  const AscsimAclnnArg one[1] = {{ASCSIM_ACLNN_TENSOR, "x", x, 0, 0}};
  EXPECT_EQ(ascsim_aclnn_get_workspace_size(kApi, "AclnnTestAdd", nullptr, one, 1, &ws, &ex),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("1 arguments for the 5 of AclnnTestAdd's OpDef"));
  // An unknown operator.
  EXPECT_EQ(ascsim_aclnn_get_workspace_size(kApi, "NoSuchOp", nullptr, one, 1, &ws, &ex),
            ACLNN_ERR_INNER_OPP_PATH_NOT_FOUND);
  EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("no operator NoSuchOp is registered"));
}

TEST_F(Aclnn, HostFunctionAndKernelErrors) {
  aclTensor* x = Tensor(Ramp(1.0f));
  aclTensor* z = Tensor(std::vector<float>(kN, 0.0f));
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(Prepare(x, nullptr, -1.0, 1, z, &ws, &ex), ACLNN_ERR_INNER_TILING_ERROR);
  EXPECT_THAT(aclGetRecentErrMsg(),
              HasSubstr("AclnnTestAdd's TilingFunc failed (returned GRAPH_FAILED)"));
  EXPECT_EQ(Prepare(x, nullptr, 1.0, 0, z, &ws, &ex), ACLNN_ERR_INNER_TILING_ERROR);
  EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("TilingFunc set no block dim"));
  EXPECT_EQ(Prepare(x, nullptr, 1.0, 8, z, &ws, &ex), ACLNN_ERR_INNER_TILING_ERROR);
  EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("over the capacity of 2048 B"));
  EXPECT_EQ(Prepare(x, nullptr, 1.0, 7, z, &ws, &ex), ACLNN_ERR_INNER_FIND_KERNEL_ERROR);
  EXPECT_THAT(aclGetRecentErrMsg(),
              HasSubstr("chose tiling key 7, but the kernel aclnn_test_add was built for the keys "
                        "of its TILING_KEY_IS branches: 1, 2"));
  EXPECT_EQ(ascsim_aclnn_run("aclnnAclnnTestAdd", nullptr, 0, nullptr, stream_),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(std::string(aclGetRecentErrMsg()), "aclnnAclnnTestAdd: executor is nullptr");
}

TEST_F(Aclnn, NoKernelForTheSocNamesTheSocsItHas) {
  ascsim::SetSoc("Ascend310P3");
  aclTensor* x = Tensor(Ramp(1.0f));
  aclTensor* z = Tensor(std::vector<float>(kN, 0.0f));
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  EXPECT_EQ(Prepare(x, nullptr, 1.0, 1, z, &ws, &ex), ACLNN_ERR_INNER_FIND_KERNEL_ERROR);
  EXPECT_THAT(aclGetRecentErrMsg(),
              HasSubstr("AclnnTestAdd is not built for ascend310p (its OpDef's "
                        "AICore().AddConfig lists ascend910b)"));
}

TEST(OpPackage, VariantFileRoundTripAndErrors) {
  KernelVariant v;
  v.op_type = "AddCustom";
  v.kernel_name = "add_custom";
  v.binary = "/p/AddCustom_0.so";
  v.input_names = {"x", "y"};
  v.input_types = {ge::DT_FLOAT16, ge::DT_BF16};
  v.input_formats = {ge::FORMAT_ND, ge::FORMAT_NCHW};
  v.output_names = {"z"};
  v.output_types = {ge::DT_FLOAT};
  v.output_formats = {ge::FORMAT_ND};
  v.any_tiling_key = false;
  v.tiling_keys = {1, 20};
  const std::string text = ascsim::op::FormatKernelVariant(v);
  EXPECT_THAT(text, HasSubstr("input y DT_BF16 NCHW\n"));
  const KernelVariant back = ascsim::op::ParseKernelVariant(text, "f");
  EXPECT_EQ(back.binary, "AddCustom_0.so");
  EXPECT_EQ(back.input_types, v.input_types);
  EXPECT_EQ(back.input_formats, v.input_formats);
  EXPECT_EQ(back.output_names, v.output_names);
  EXPECT_EQ(back.tiling_keys, v.tiling_keys);
  EXPECT_FALSE(back.any_tiling_key);
  try {
    ascsim::op::ParseKernelVariant("ascsim-op-kernel 1\nop_type A\nkernel a\ninput x DT_NOPE ND\n",
                                   "v.ascsim");
    ADD_FAILURE();
  } catch (const ascsim::InvalidArgument& e) {
    EXPECT_STREQ(e.what(), "v.ascsim:4: unknown data type DT_NOPE");
  }
  EXPECT_THROW(OpPackage::At("/"), ascsim::InvalidArgument);
}

}  // namespace
