// The host cost of the aclnn API on top of its kernel (issue 19: at most 30 us per call): a custom
// operator registered in process (OpDef, TilingFunc, one kernel variant, as a built package
// registers them) called as the generated aclnn code calls the runtime.
//   aclnn/call:            aclnn<Op>GetWorkspaceSize + aclnn<Op> + aclrtSynchronizeStream
//   aclnn/kernel_direct:   the same kernel variant, same arguments and tiling, launched straight on
//                          the stream + aclrtSynchronizeStream (what the call costs without aclnn)
//   aclnn/get_workspace_size: phase one alone (validation, InferShape, TilingFunc), the executor
//                          then destroyed
// The aclnn overhead is aclnn/call minus aclnn/kernel_direct.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "ascsim/aclnn_op.h"
#include "ascsim/op_kernel_abi.h"
#include "ascsim/runtime.h"
#include "op/aclnn/op_package.h"
#include "opdev/op_errno.h"
#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"

const AscsimOpKernel* AclnnBenchAddKernel();

namespace optiling {
BEGIN_TILING_DATA_DEF(BenchAddTiling)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(AclnnBenchAdd, BenchAddTiling)

static ge::graphStatus BenchAddTilingFunc(gert::TilingContext* context) {
  BenchAddTiling tiling;
  tiling.set_totalLength(
      static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize()));
  context->SetBlockDim(1);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(),
                      context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static graphStatus BenchAddInferShape(gert::InferShapeContext* context) {
  *context->GetOutputShape(0) = *context->GetInputShape(0);
  return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class AclnnBenchAdd : public OpDef {
 public:
  explicit AclnnBenchAdd(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->SetInferShape(ge::BenchAddInferShape);
    this->AICore().SetTiling(optiling::BenchAddTilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(AclnnBenchAdd);
}  // namespace ops

namespace {

constexpr char kApi[] = "aclnnAclnnBenchAddGetWorkspaceSize";
constexpr int64_t kN = 64;  // floats: one 256-byte tile

void Check(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "bench_aclnn: %s failed: %s\n", what, aclGetRecentErrMsg());
    std::abort();
  }
}

// The device, a stream, the three tensors and the registered variant, for every benchmark.
struct Fixture {
  aclrtStream stream = nullptr;
  void* dev[3] = {nullptr, nullptr, nullptr};
  aclTensor* t[3] = {nullptr, nullptr, nullptr};
  Fixture() {
    ascsim::SetSoc("Ascend910B1");
    ascsim::op::KernelVariant v;
    v.op_type = "AclnnBenchAdd";
    v.kernel_name = "aclnn_bench_add";
    v.input_names = {"x", "y"};
    v.input_types = {ge::DT_FLOAT, ge::DT_FLOAT};
    v.input_formats = {ge::FORMAT_ND, ge::FORMAT_ND};
    v.output_names = {"z"};
    v.output_types = {ge::DT_FLOAT};
    v.output_formats = {ge::FORMAT_ND};
    v.entry = AclnnBenchAddKernel();
    ascsim::op::OpPackage::InProcess().AddVariant("ascend910b", v);
    Check(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
    Check(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
    Check(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");
    const int64_t dims[1] = {kN};
    std::vector<float> host(kN, 1.5f);
    for (int i = 0; i < 3; ++i) {
      Check(aclrtMalloc(&dev[i], kN * 4, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
      Check(aclrtMemcpy(dev[i], kN * 4, host.data(), kN * 4, ACL_MEMCPY_HOST_TO_DEVICE) ==
                ACL_SUCCESS,
            "aclrtMemcpy");
      t[i] = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, dev[i]);
    }
  }
  void Args(AscsimAclnnArg (&args)[3]) const {
    args[0] = {ASCSIM_ACLNN_TENSOR, "x", t[0], 0, 0};
    args[1] = {ASCSIM_ACLNN_TENSOR, "y", t[1], 0, 0};
    args[2] = {ASCSIM_ACLNN_TENSOR, "z", t[2], 0, 0};
  }
};

Fixture& Get() {
  static Fixture* f = new Fixture;  // lives for the program, like the device
  return *f;
}

void BM_AclnnCall(benchmark::State& state) {
  Fixture& f = Get();
  AscsimAclnnArg args[3];
  f.Args(args);
  for (auto _ : state) {
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    Check(ascsim_aclnn_get_workspace_size(kApi, "AclnnBenchAdd", nullptr, args, 3, &ws, &ex) ==
              ACLNN_SUCCESS,
          "GetWorkspaceSize");
    Check(ascsim_aclnn_run("aclnnAclnnBenchAdd", nullptr, 0, ex, f.stream) == ACLNN_SUCCESS,
          "aclnn run");
    Check(aclrtSynchronizeStream(f.stream) == ACL_SUCCESS, "aclrtSynchronizeStream");
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}

void BM_KernelDirect(benchmark::State& state) {
  Fixture& f = Get();
  const uint32_t tiling_host = static_cast<uint32_t>(kN);
  void* tiling = nullptr;
  Check(aclrtMalloc(&tiling, sizeof(tiling_host), ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
        "aclrtMalloc");
  Check(aclrtMemcpy(tiling, sizeof(tiling_host), &tiling_host, sizeof(tiling_host),
                    ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS,
        "aclrtMemcpy");
  void* const args[5] = {f.dev[0], f.dev[1], f.dev[2], nullptr, tiling};
  const AscsimOpKernel* entry = AclnnBenchAddKernel();
  for (auto _ : state) {
    Check(entry->launch(args, 5, 1, 0, f.stream) == 0, "kernel launch");
    Check(aclrtSynchronizeStream(f.stream) == ACL_SUCCESS, "aclrtSynchronizeStream");
  }
  aclrtFree(tiling);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}

void BM_AclnnGetWorkspaceSize(benchmark::State& state) {
  Fixture& f = Get();
  AscsimAclnnArg args[3];
  f.Args(args);
  for (auto _ : state) {
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    Check(ascsim_aclnn_get_workspace_size(kApi, "AclnnBenchAdd", nullptr, args, 3, &ws, &ex) ==
              ACLNN_SUCCESS,
          "GetWorkspaceSize");
    aclDestroyAclOpExecutor(ex);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}

BENCHMARK(BM_AclnnCall)->Name("aclnn/call")->UseRealTime();
BENCHMARK(BM_KernelDirect)->Name("aclnn/kernel_direct")->UseRealTime();
BENCHMARK(BM_AclnnGetWorkspaceSize)->Name("aclnn/get_workspace_size")->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
