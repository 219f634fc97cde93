// The kernel side of the custom-operator format (ascsim/aicore/tiling_data.h, kernel_type.h,
// dtype_format.h): the tiling macros read exactly the bytes the host wrote, TILING_KEY_IS follows
// the launch's tiling key (ICPU_SET_TILING_KEY for ICPU_RUN_KF), KERNEL_TASK_TYPE picks the
// sub-core layout per key over KERNEL_TASK_TYPE_DEFAULT, and every misuse faults with its numbers.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ascsim/runtime.h"
#include "tikicpulib.h"

namespace tiling_test {

// A plain C++ tiling struct with every alignment case: a 1-byte field before an 8-byte one, a
// float, an array and a nested struct.
struct Inner {
  int32_t a;
  int16_t b;
};
struct Tiling {
  uint8_t flag;
  int64_t total;
  float scale;
  uint32_t tiles[3];
  Inner inner;
};
struct Other {
  uint32_t x;
  uint32_t y;
};

}  // namespace tiling_test

using tiling_test::Inner;
using tiling_test::Other;
using tiling_test::Tiling;

// Writes the fields of the default struct (REGISTER_TILING_DEFAULT in the kernel) into out[0..7].
extern "C" __global__ __aicore__ void tiling_default(GM_ADDR out, GM_ADDR /*workspace*/,
                                                     GM_ADDR tiling) {
  REGISTER_TILING_DEFAULT(tiling_test::Tiling);
  GET_TILING_DATA(t, tiling);
  if (AscendC::GetBlockIdx() != 0) return;  // every block read it; one writes it out
  AscendC::GlobalTensor<int64_t> o;
  o.SetGlobalBuffer((__gm__ int64_t*)out, 8);
  o.SetValue(0, t.flag);
  o.SetValue(1, t.total);
  o.SetValue(2, static_cast<int64_t>(t.scale * 1000));
  o.SetValue(3, t.tiles[0]);
  o.SetValue(4, t.tiles[2]);
  o.SetValue(5, t.inner.a);
  o.SetValue(6, t.inner.b);
  o.SetValue(7, static_cast<int64_t>(AscendC::GetBlockNum()));
}

// The other spellings: a named struct, one member (a scalar, an array, a nested struct), a
// pointer into GM, and local copies behind that pointer.
extern "C" __global__ __aicore__ void tiling_forms(GM_ADDR out, GM_ADDR /*workspace*/,
                                                   GM_ADDR tiling) {
  REGISTER_NONE_TILING;
  AscendC::GlobalTensor<int64_t> o;
  o.SetGlobalBuffer((__gm__ int64_t*)out, 12);
  GET_TILING_DATA_WITH_STRUCT(tiling_test::Tiling, named, tiling);
  o.SetValue(0, named.total);
  GET_TILING_DATA_MEMBER(tiling_test::Tiling, total, total, tiling);
  o.SetValue(1, total);
  GET_TILING_DATA_MEMBER(tiling_test::Tiling, tiles, tiles, tiling);
  o.SetValue(2, tiles[1]);
  GET_TILING_DATA_MEMBER(tiling_test::Tiling, inner, inner, tiling);
  o.SetValue(3, inner.b);
  GET_TILING_DATA_PTR_WITH_STRUCT(tiling_test::Tiling, ptr, tiling);
  o.SetValue(4, ptr->inner.a);
  o.SetValue(5, reinterpret_cast<const uint8_t*>(ptr) == tiling ? 1 : 0);
  COPY_TILING_WITH_STRUCT(tiling_test::Inner, &ptr->inner, innerCopy);
  o.SetValue(6, innerCopy->a);
  o.SetValue(7, reinterpret_cast<const void*>(innerCopy) != reinterpret_cast<const void*>(ptr));
  COPY_TILING_WITH_ARRAY(uint32_t, 3, ptr->tiles, tilesCopy);
  o.SetValue(8, (*tilesCopy)[2]);
  GET_TILING_DATA_WITH_STRUCT(tiling_test::Other, other, tiling);  // a second struct
  o.SetValue(9, other.y);
}

// A default struct registered but read only through the named forms (ops-nn prelu's entry does
// REGISTER_TILING_DEFAULT then GET_TILING_DATA_WITH_STRUCT): compiles under -Wall -Werror, where
// the registration's alias used to be an unused local typedef.
extern "C" __global__ __aicore__ void tiling_default_unread(GM_ADDR out, GM_ADDR /*workspace*/,
                                                            GM_ADDR tiling) {
  REGISTER_TILING_DEFAULT(tiling_test::Tiling);
  GET_TILING_DATA_PTR_WITH_STRUCT(tiling_test::Tiling, ptr, tiling);
  GET_TILING_DATA_WITH_STRUCT(tiling_test::Other, other, tiling);
  if (AscendC::GetBlockIdx() != 0) return;
  AscendC::GlobalTensor<int64_t> o;
  o.SetGlobalBuffer((__gm__ int64_t*)out, 2);
  o.SetValue(0, ptr->total);
  o.SetValue(1, other.y);
}

// Which branch the launch's tiling key selects: 1, 2, 3 by TILING_KEY_IS, 4..6 by TILING_KEY_LIST.
extern "C" __global__ __aicore__ void tiling_key_branch(GM_ADDR out, GM_ADDR /*workspace*/,
                                                        GM_ADDR tiling) {
  REGISTER_TILING_DEFAULT(tiling_test::Other);
  REGISTER_TILING_FOR_TILINGKEY("TILING_KEY_VAR == 1", tiling_test::Tiling);
  REGISTER_TILING_FOR_TILINGKEY("(TILING_KEY_VAR >= 2) && (TILING_KEY_VAR <= 6)",
                                tiling_test::Other);
  AscendC::GlobalTensor<int64_t> o;
  o.SetGlobalBuffer((__gm__ int64_t*)out, 2);
  int64_t branch = -1;
  if (TILING_KEY_IS(1)) {
    GET_TILING_DATA_WITH_STRUCT(tiling_test::Tiling, t, tiling);
    branch = 100 + t.flag;
  } else if (TILING_KEY_IS(2)) {
    branch = 200;
  } else if (TILING_KEY_IS(3)) {
    branch = 300;
  } else if (TILING_KEY_LIST(4, 5, 6)) {
    GET_TILING_DATA(t, tiling);
    branch = 400 + t.x;
  }
  if (AscendC::GetBlockIdx() != 0) return;
  o.SetValue(0, branch);
  o.SetValue(1, static_cast<int64_t>(TILING_KEY_VAR));
}

// `#if TILING_KEY_VAR == k` preprocesses as in CANN's CPU mode (TILING_KEY_VAR is an identifier,
// 0 in #if: the key-0 branch is compiled), while `switch (TILING_KEY_VAR)` reads the launch's key.
extern "C" __global__ __aicore__ void tiling_key_preprocessor(GM_ADDR out, GM_ADDR /*workspace*/,
                                                              GM_ADDR /*tiling*/) {
  AscendC::GlobalTensor<int64_t> o;
  o.SetGlobalBuffer((__gm__ int64_t*)out, 2);
  int64_t compiled = -1;
#if TILING_KEY_VAR == 0
  compiled = 0;
#elif TILING_KEY_VAR == 1
  compiled = 1;
#endif
  int64_t selected = -1;
  switch (TILING_KEY_VAR) {
    case 3:
      selected = 30;
      break;
    case 9:
      selected = 90;
      break;
    default:
      selected = 0;
  }
  if (AscendC::GetBlockIdx() != 0) return;
  o.SetValue(0, compiled);
  o.SetValue(1, selected);
}

// KERNEL_TASK_TYPE for one key wins over KERNEL_TASK_TYPE_DEFAULT: the other keys run as the
// default says. Each sub-core writes (AIC?, sub-block count) at its slot.
extern "C" __global__ __aicore__ void tiling_key_type(GM_ADDR out, GM_ADDR /*workspace*/,
                                                      GM_ADDR /*tiling*/) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
  KERNEL_TASK_TYPE(2, KERNEL_TYPE_MIX_AIC_1_2);
  AscendC::GlobalTensor<int32_t> o;
  o.SetGlobalBuffer((__gm__ int32_t*)out, 16);
  const int64_t b = AscendC::GetBlockIdx();
  if ASCEND_IS_AIC {
    o.SetValue(8 + b, 1);  // an AIC ran
  } else {
    o.SetValue(1 + b, static_cast<int32_t>(AscendC::GetSubBlockNum()));
  }
}

// The reverse order of ranks: the default is a mix type and key 7 says AIV only.
extern "C" __global__ __aicore__ void tiling_key_type_reverse(GM_ADDR out, GM_ADDR /*workspace*/,
                                                              GM_ADDR /*tiling*/) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  if (TILING_KEY_IS(7)) {
    KERNEL_TASK_TYPE(7, KERNEL_TYPE_AIV_ONLY);
  }
  AscendC::GlobalTensor<int32_t> o;
  o.SetGlobalBuffer((__gm__ int32_t*)out, 16);
  if ASCEND_IS_AIC {
    o.SetValue(8 + AscendC::GetBlockIdx(), 1);
  } else {
    o.SetValue(1 + AscendC::GetBlockIdx(), static_cast<int32_t>(AscendC::GetSubBlockNum()));
  }
}

// The framework's view of the workspace: SetSysWorkspaceForce(workspace), then the kernel gets
// GetUserWorkspace(workspace), and GetUserWorkspace of anything gives the same pointer.
extern "C" __global__ __aicore__ void tiling_workspace(GM_ADDR out, GM_ADDR workspace,
                                                       GM_ADDR /*tiling*/) {
  AscendC::SetSysWorkspaceForce(workspace);
  GM_ADDR user = AscendC::GetUserWorkspace(workspace);
  GM_ADDR again = AscendC::GetUserWorkspace(user);
  AscendC::GlobalTensor<int64_t> o;
  o.SetGlobalBuffer((__gm__ int64_t*)out, 2);
  o.SetValue(0, user - workspace);
  o.SetValue(1, again - workspace);
}

namespace {

using ::testing::HasSubstr;

// Device memory for one test, freed at the end.
struct Gm {
  explicit Gm(size_t bytes) : p(static_cast<uint8_t*>(AscendC::GmAlloc(bytes))) {
    std::memset(p, 0, bytes);
  }
  ~Gm() { AscendC::GmFree(p); }
  int64_t at(size_t i) const { return reinterpret_cast<const int64_t*>(p)[i]; }
  int32_t at32(size_t i) const { return reinterpret_cast<const int32_t*>(p)[i]; }
  uint8_t* p;
};

Tiling Sample() {
  Tiling t;
  std::memset(&t, 0, sizeof(t));  // padding too: the kernel reads whole words of it
  t.flag = 7;
  t.total = -(int64_t{1} << 40) + 3;
  t.scale = 1.25f;
  t.tiles[0] = 11;
  t.tiles[1] = 22;
  t.tiles[2] = 33;
  t.inner.a = -5;
  t.inner.b = 300;
  return t;
}

// Puts the key back without the warning ICPU_SET_TILING_KEY(0) gives.
void RestoreKey(uint64_t key) {
  const ascsim::WarningSink saved = ascsim::SetWarningSink(nullptr);
  ascsim::SetCpuDebugTilingKey(key);
  ascsim::SetWarningSink(saved);
}

// Restores the CPU-debug tiling key and the warning sink a test changes.
class TilingKeyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    saved_key_ = ascsim::CpuDebugTilingKey();
    saved_sink_ = ascsim::SetWarningSink([this](const std::string& l) { warnings_ += l + "\n"; });
  }
  void TearDown() override {
    ascsim::SetWarningSink(saved_sink_);
    RestoreKey(saved_key_);
  }
  std::string warnings_;

 private:
  uint64_t saved_key_ = 0;
  ascsim::WarningSink saved_sink_;
};

TEST(TilingData, DefaultStructHoldsTheHostBytesInEveryBlock) {
  Gm out(8 * sizeof(int64_t)), tiling(sizeof(Tiling));
  const Tiling host = Sample();
  std::memcpy(tiling.p, &host, sizeof(host));
  ICPU_RUN_KF(tiling_default, 3, out.p, nullptr, tiling.p);
  EXPECT_EQ(out.at(0), 7);
  EXPECT_EQ(out.at(1), host.total);
  EXPECT_EQ(out.at(2), 1250);
  EXPECT_EQ(out.at(3), 11);
  EXPECT_EQ(out.at(4), 33);
  EXPECT_EQ(out.at(5), -5);
  EXPECT_EQ(out.at(6), 300);
  EXPECT_EQ(out.at(7), 3);
}

TEST(TilingData, NamedMemberPointerAndCopyForms) {
  Gm out(12 * sizeof(int64_t)), tiling(sizeof(Tiling));
  const Tiling host = Sample();
  std::memcpy(tiling.p, &host, sizeof(host));
  ICPU_RUN_KF(tiling_forms, 1, out.p, nullptr, tiling.p);
  EXPECT_EQ(out.at(0), host.total);
  EXPECT_EQ(out.at(1), host.total);
  EXPECT_EQ(out.at(2), 22);
  EXPECT_EQ(out.at(3), 300);
  EXPECT_EQ(out.at(4), -5);
  EXPECT_EQ(out.at(5), 1);  // the pointer form points at the GM tiling data itself
  EXPECT_EQ(out.at(6), -5);
  EXPECT_EQ(out.at(7), 1);  // the copy is a local one
  EXPECT_EQ(out.at(8), 33);
  Other other;
  std::memcpy(&other, &host, sizeof(other));
  EXPECT_EQ(out.at(9), other.y);
}

TEST(TilingData, RegisteredDefaultReadOnlyByNamedFormsCompilesAndReads) {
  Gm out(2 * sizeof(int64_t)), tiling(sizeof(Tiling));
  const Tiling host = Sample();
  std::memcpy(tiling.p, &host, sizeof(host));
  ICPU_RUN_KF(tiling_default_unread, 2, out.p, nullptr, tiling.p);
  EXPECT_EQ(out.at(0), host.total);
  Other other;
  std::memcpy(&other, &host, sizeof(other));
  EXPECT_EQ(out.at(1), other.y);
}

TEST(TilingData, TooSmallOrNullTilingFaultsNamingTheMacro) {
  Gm out(12 * sizeof(int64_t)), tiling(sizeof(Other));  // smaller than Tiling
  try {
    ICPU_RUN_KF(tiling_default, 2, out.p, nullptr, tiling.p);
    FAIL() << "no fault";
  } catch (const ascsim::KernelError& e) {
    EXPECT_EQ(e.fault_kind(), ascsim::ErrorKind::kOutOfBounds);
    EXPECT_THAT(e.what(), HasSubstr("tiling_default: block 0/2: GET_TILING_DATA: the default "
                                    "tiling struct needs " +
                                    std::to_string(sizeof(Tiling)) +
                                    " B of tiling data but the tiling buffer at 0x"));
    EXPECT_THAT(e.what(), HasSubstr(" holds 8 B (the host wrote a smaller tiling struct than the "
                                    "kernel reads)"));
  }
  try {
    ICPU_RUN_KF(tiling_forms, 1, out.p, nullptr, nullptr);
    FAIL() << "no fault";
  } catch (const ascsim::KernelError& e) {
    EXPECT_EQ(e.fault_kind(), ascsim::ErrorKind::kInvalidArgument);
    EXPECT_THAT(e.what(), HasSubstr("GET_TILING_DATA_WITH_STRUCT: the tiling argument is nullptr "
                                    "(tiling_test::Tiling needs " +
                                    std::to_string(sizeof(Tiling)) + " B"));
  }
  // A member reads only up to its end: `total` ends at byte 16 of a 8-byte buffer.
  Gm small(8);
  try {
    ICPU_RUN_KF(tiling_forms, 1, out.p, nullptr, small.p);
    FAIL() << "no fault";
  } catch (const ascsim::KernelError& e) {
    EXPECT_THAT(e.what(), HasSubstr("needs " + std::to_string(sizeof(Tiling))));
  }
}

TEST_F(TilingKeyTest, TilingKeyIsFollowsIcpuSetTilingKey) {
  Gm out(2 * sizeof(int64_t)), tiling(sizeof(Tiling));
  const Tiling host = Sample();
  std::memcpy(tiling.p, &host, sizeof(host));
  const int64_t expected[] = {0, 107, 200, 300, 400 + 7, 400 + 7, 400 + 7, -1};
  for (uint64_t key = 1; key <= 7; ++key) {
    ICPU_SET_TILING_KEY(key);
    ICPU_RUN_KF(tiling_key_branch, 2, out.p, nullptr, tiling.p);
    EXPECT_EQ(out.at(0), expected[key]) << "key " << key;
    EXPECT_EQ(out.at(1), static_cast<int64_t>(key));
  }
  EXPECT_EQ(warnings_.find("ICPU_SET_TILING_KEY"), std::string::npos) << warnings_;
  // The key stays until the next ICPU_SET_TILING_KEY, as CANN's g_tilingKey does.
  ICPU_RUN_KF(tiling_key_branch, 1, out.p, nullptr, tiling.p);
  EXPECT_EQ(out.at(1), 7);
}

TEST_F(TilingKeyTest, PreprocessorComparisonCompilesTheKeyZeroBranchAndCodeReadsTheKey) {
  Gm out(2 * sizeof(int64_t));
  for (uint64_t key : {3, 9, 5}) {
    ICPU_SET_TILING_KEY(key);
    ICPU_RUN_KF(tiling_key_preprocessor, 2, out.p, nullptr, nullptr);
    EXPECT_EQ(out.at(0), 0) << key;
    EXPECT_EQ(out.at(1), key == 3 ? 30 : key == 9 ? 90 : 0) << key;
  }
}

TEST_F(TilingKeyTest, ZeroOrNegativeKeyWarnsAndIsUsed) {
  Gm out(2 * sizeof(int64_t)), tiling(sizeof(Tiling));
  ICPU_SET_TILING_KEY(0);
  EXPECT_EQ(warnings_,
            "ICPU_SET_TILING_KEY(0): a tiling key should be a positive integer; the branches for "
            "key 0 run\n");
  ICPU_RUN_KF(tiling_key_branch, 1, out.p, nullptr, tiling.p);
  EXPECT_EQ(out.at(0), -1);
  EXPECT_EQ(out.at(1), 0);
  warnings_.clear();
  ICPU_SET_TILING_KEY(-3);
  EXPECT_EQ(warnings_,
            "ICPU_SET_TILING_KEY(-3): a tiling key should be a positive integer; a negative key is "
            "undefined behaviour\n");
  EXPECT_EQ(ascsim::CpuDebugTilingKey(), static_cast<uint64_t>(-3));
}

TEST_F(TilingKeyTest, KernelTaskTypeForTheKeyWinsOverTheDefault) {
  if (!ascsim::GetSettings().soc->split_cores) GTEST_SKIP() << "needs a split-core SoC";
  for (uint64_t key : {1, 2, 1, 2}) {  // the second round runs from the remembered layouts
    Gm out(16 * sizeof(int32_t));
    ICPU_SET_TILING_KEY(key);
    ICPU_RUN_KF(tiling_key_type, 3, out.p, nullptr, nullptr);
    if (key == 2) {  // MIX_AIC_1_2: an AIC and two AIVs per block
      for (int b = 0; b < 3; ++b) EXPECT_EQ(out.at32(8 + b), 1) << b;
      for (int s = 1; s <= 6; ++s) EXPECT_EQ(out.at32(s), 2) << s;
    } else {  // AIV only
      for (int b = 0; b < 3; ++b) EXPECT_EQ(out.at32(8 + b), 0) << b;
      for (int s = 1; s <= 3; ++s) EXPECT_EQ(out.at32(s), 1) << s;
      EXPECT_EQ(out.at32(4), 0);
    }
  }
  for (uint64_t key : {7, 8, 7}) {
    Gm out(16 * sizeof(int32_t));
    ICPU_SET_TILING_KEY(key);
    ICPU_RUN_KF(tiling_key_type_reverse, 2, out.p, nullptr, nullptr);
    EXPECT_EQ(out.at32(8), key == 7 ? 0 : 1) << key;
    for (int s = 1; s <= 2; ++s) EXPECT_EQ(out.at32(s), key == 7 ? 1 : 2) << key;
  }
}

TEST(TilingData, FrameworkWorkspaceGivesTheUserWorkspaceBack) {
  const uint64_t reserved =
      ascsim::GetSettings().soc->arch == 2002 ? (uint64_t{2} << 20) : (uint64_t{16} << 20);
  Gm out(2 * sizeof(int64_t)), ws(reserved + 64);
  ICPU_RUN_KF(tiling_workspace, 1, out.p, ws.p, nullptr);
  EXPECT_EQ(out.at(0), static_cast<int64_t>(reserved));
  EXPECT_EQ(out.at(1), static_cast<int64_t>(reserved));
}

// The numbers kernels compare with the build's ORIG_DTYPE_<IO> / FORMAT_<IO> defines are CANN's
// (asc-devkit include/basic_api/kernel_type.h), and preprocessor numbers.
#if DT_FLOAT != 0 || DT_FLOAT16 != 1 || DT_INT8 != 2 || DT_INT32 != 3 || DT_UINT8 != 4 ||    \
    DT_INT16 != 6 || DT_UINT16 != 7 || DT_UINT32 != 8 || DT_INT64 != 9 || DT_UINT64 != 10 || \
    DT_DOUBLE != 11 || DT_BOOL != 12 || DT_BF16 != 27 || DT_INT4 != 29 || DT_MAX != 42
#error "DT_* differ from CANN's kernel_type.h"
#endif
#if FORMAT_NCHW != 0 || FORMAT_NHWC != 1 || FORMAT_ND != 2 || FORMAT_NC1HWC0 != 3 || \
    FORMAT_FRACTAL_Z != 4 || FORMAT_FRACTAL_NZ != 29 || FORMAT_NCDHW != 30 || FORMAT_NCL != 47
#error "FORMAT_* differ from CANN's kernel_type.h"
#endif

}  // namespace
