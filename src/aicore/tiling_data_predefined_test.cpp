// A kernel unit test in the style of the operator libraries (ops-nn tests/ut/op_kernel): the test
// force-includes a *_tiling_def.h that defines DT_BF16, ORIG_DTYPE_X and its own GET_TILING_DATA
// before kernel_operator.h; ascsim's definitions must then step aside.
#include <cstdint>
#include <cstring>

#define DT_BF16 bfloat16_t
#define ORIG_DTYPE_X DT_BF16
struct PredefTilingData {
  int64_t coreNum;
  float alpha;
};
inline void IPredefTilingData(uint8_t* tiling, PredefTilingData* data) {
  std::memcpy(data, tiling, sizeof(PredefTilingData));
}
#define GET_TILING_DATA(tilingData, tilingArg) \
  PredefTilingData tilingData;                 \
  IPredefTilingData(tilingArg, &tilingData)

#include <gtest/gtest.h>

#include "tikicpulib.h"

extern "C" __global__ __aicore__ void predef_tiling(GM_ADDR out, GM_ADDR /*workspace*/,
                                                    GM_ADDR tiling) {
  GET_TILING_DATA(t, tiling);
  AscendC::GlobalTensor<float> o;
  o.SetGlobalBuffer((__gm__ float*)out, 2);
#if (ORIG_DTYPE_X == DT_BF16)
  o.SetValue(0, t.alpha);
#else
  o.SetValue(0, -1.0f);
#endif
  o.SetValue(1, static_cast<float>(t.coreNum));
}

namespace {

TEST(TilingDataPredefined, TheTestsOwnMacrosWin) {
  auto* out = static_cast<float*>(AscendC::GmAlloc(2 * sizeof(float)));
  auto* tiling = static_cast<uint8_t*>(AscendC::GmAlloc(sizeof(PredefTilingData)));
  PredefTilingData host{40, 0.5f};
  std::memcpy(tiling, &host, sizeof(host));
  ICPU_RUN_KF(predef_tiling, 1, (GM_ADDR)out, nullptr, tiling);
  EXPECT_EQ(out[0], 0.5f);
  EXPECT_EQ(out[1], 40.0f);
  AscendC::GmFree(out);
  AscendC::GmFree(tiling);
}

// The other numbers are still CANN's.
static_assert(DT_FLOAT16 == 1 && FORMAT_ND == 2, "kernel_type.h numbers");

}  // namespace
