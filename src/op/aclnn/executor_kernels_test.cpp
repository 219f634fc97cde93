// The kernels of the aclnn runtime tests (executor_test.cpp), in a file of their own: kernel code
// compares DT_* preprocessor numbers, the host API names ge::DT_* enumerators, and a file cannot
// have both. The entries are handed over as AscsimOpKernel objects, as a variant library's
// ascsim_op_kernel() hands its own.
#include "ascsim/op_kernel_entry.h"
#include "kernel_operator.h"

namespace {

// The kernel's view of optiling::AclnnTestAddTiling (SaveToBuffer's layout: fields in order,
// each aligned to its size).
struct AddTiling {
  uint32_t totalLength;
  float alpha;
  uint32_t writeWorkspace;
};

// z = x + alpha * y (tiling key 1) or x - alpha * y (key 2); y is optional. With writeWorkspace,
// block 0 writes 0xC0FFEE at the user workspace it was handed.
template <class T>
__global__ __aicore__ void aclnn_test_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                          GM_ADDR tiling) {
  GET_TILING_DATA_WITH_STRUCT(AddTiling, t, tiling);
  AscendC::GlobalTensor<T> gx;
  AscendC::GlobalTensor<T> gy;
  AscendC::GlobalTensor<T> gz;
  gx.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(x), t.totalLength);
  gz.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(z), t.totalLength);
  if (y != nullptr) gy.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(y), t.totalLength);
  const uint32_t blocks = static_cast<uint32_t>(AscendC::GetBlockNum());
  const uint32_t per = (t.totalLength + blocks - 1) / blocks;
  const uint32_t begin = per * static_cast<uint32_t>(AscendC::GetBlockIdx());
  const uint32_t end = begin + per < t.totalLength ? begin + per : t.totalLength;
  const float sign = TILING_KEY_IS(2) ? -1.0f : 1.0f;
  for (uint32_t i = begin; i < end; ++i) {
    float v = static_cast<float>(gx.GetValue(i));
    if (y != nullptr) v += sign * t.alpha * static_cast<float>(gy.GetValue(i));
    gz.SetValue(i, static_cast<T>(v));
  }
  if (t.writeWorkspace != 0 && AscendC::GetBlockIdx() == 0) {
    AscendC::GlobalTensor<uint32_t> w;
    w.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t*>(workspace), 1);
    w.SetValue(0, 0xC0FFEEu);
  }
}

struct SumTiling {
  uint32_t totalLength;
};

// y = the sum of the tensors of the dynamic input xs.
__global__ __aicore__ void aclnn_test_sum(GM_ADDR xs, GM_ADDR y, GM_ADDR /*workspace*/,
                                          GM_ADDR tiling) {
  GET_TILING_DATA_WITH_STRUCT(SumTiling, t, tiling);
  AscendC::ListTensorDesc list(xs);
  AscendC::GlobalTensor<float> gy;
  gy.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(y), t.totalLength);
  if (AscendC::GetBlockIdx() != 0) return;
  for (uint32_t i = 0; i < t.totalLength; ++i) {
    float v = 0;
    for (uint32_t k = 0; k < list.GetSize(); ++k) {
      AscendC::GlobalTensor<float> gx;
      gx.SetGlobalBuffer(list.GetDataPtr<float>(k), t.totalLength);
      v += gx.GetValue(i);
    }
    gy.SetValue(i, v);
  }
}

ASCSIM_OP_KERNEL_DEFINE(aclnn_test_add<half>, g_add_half);
ASCSIM_OP_KERNEL_DEFINE(aclnn_test_add<float>, g_add_float);
ASCSIM_OP_KERNEL_DEFINE(aclnn_test_sum, g_sum);

}  // namespace

const AscsimOpKernel* AclnnTestAddKernel(bool half) { return half ? &g_add_half : &g_add_float; }
const AscsimOpKernel* AclnnTestSumKernel() { return &g_sum; }
