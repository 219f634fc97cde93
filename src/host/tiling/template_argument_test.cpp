// Tiling template programming (ascendc/host_api/tiling/template_argument.h): the tiling-key
// encoding bit for bit (CANN's goldens from asc-devkit tests/api/utils/tiling and keys computed
// here from the documented layout), the value-list forms, the checks of EncodeTilingKey with their
// messages, and the enumeration of every key the selections build.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ascendc/host_api/tiling/template_argument.h"

// One file-level declaration, as an op's tiling-key header has (the macros define
// g_tilingDeclareParams / g_tilingSelectParams). The layout of its keys:
//   bits 0-7 D_T_X (value), bits 8-11 TILE_NUM (index in {1, 2, 3, 4, 8}), bit 12 IS_SPLIT.
ASCENDC_TPL_ARGS_DECL(AddTpl, ASCENDC_TPL_DTYPE_DECL(D_T_X, C_DT_FLOAT, C_DT_FLOAT16, C_DT_BF16),
                      ASCENDC_TPL_UINT_DECL(TILE_NUM, ASCENDC_TPL_4_BW, ASCENDC_TPL_UI_MIX, 1, 1, 4, 8),
                      ASCENDC_TPL_BOOL_DECL(IS_SPLIT, 0, 1));
ASCENDC_TPL_SEL(
    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIV_ONLY),
                         ASCENDC_TPL_DTYPE_SEL(D_T_X, C_DT_FLOAT16, C_DT_FLOAT),
                         ASCENDC_TPL_UINT_SEL(TILE_NUM, ASCENDC_TPL_UI_LIST, 1, 8),
                         ASCENDC_TPL_BOOL_SEL(IS_SPLIT, 0, 1)),
    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_DTYPE_SEL(D_T_X, C_DT_BF16),
                         ASCENDC_TPL_UINT_SEL(TILE_NUM, ASCENDC_TPL_UI_RANGE, 1, 2, 3),
                         ASCENDC_TPL_BOOL_SEL(IS_SPLIT, 1)));

namespace {

uint64_t AddKey(uint64_t dtype, uint64_t tile_index, uint64_t split) {
  return dtype | (tile_index << 8) | (split << 12);
}

std::string Stderr(uint64_t* key, uint64_t (*fn)()) {
  testing::internal::CaptureStderr();
  *key = fn();
  return testing::internal::GetCapturedStderr();
}

TEST(TemplateArgument, CannGoldenKeys) {
  // asc-devkit tests/api/utils/tiling/test_tpl_tiling_key_{debug,release}.cpp: the same
  // declarations must give 17174282 and 268564.
  TilingDeclareParams decl{ParamStruct("X", ASCENDC_TPL_DTYPE, 8, {10, 20, 30}, "DECL"),
                           ParamStruct("Y", ASCENDC_TPL_FORMAT, 8, {15, 25}, "DECL"),
                           ParamStruct("N", ASCENDC_TPL_UINT, 8, {2, 2, 0, 2, 3, 5, 7, 6}, "DECL"),
                           ParamStruct("S", ASCENDC_TPL_BOOL, 1, {0, 1}, "DECL")};
  TilingSelectParams sel{
      {ParamStruct("kernel_type", ASCENDC_TPL_KERNEL_TYPE, 8, {4}, "SEL"),
       ParamStruct("X", ASCENDC_TPL_DTYPE, 8, {10, 30}, "SEL"),
       ParamStruct("Y", ASCENDC_TPL_FORMAT, 8, {15}, "SEL"),
       ParamStruct("S", ASCENDC_TPL_BOOL, 1, {0, 1}, "SEL"),
       ParamStruct("N", ASCENDC_TPL_UINT, 8, {1, 4, 7}, "SEL")},
      {ParamStruct("kernel_type", ASCENDC_TPL_KERNEL_TYPE, 8, {4}, "SEL"),
       ParamStruct("N", ASCENDC_TPL_UINT, 8, {1, 4, 6}, "SEL"),
       ParamStruct("S", ASCENDC_TPL_BOOL, 1, {0, 1}, "SEL"),
       ParamStruct("X", ASCENDC_TPL_DTYPE, 8, {20}, "SEL"),
       ParamStruct("Y", ASCENDC_TPL_FORMAT, 8, {15, 25}, "SEL")}};
  EXPECT_EQ(AscendC::EncodeTilingKey(decl, sel, {10, 15, 7, 1}), 17174282u);
  EXPECT_EQ(AscendC::EncodeTilingKey(decl, sel, {20, 25, 4, 0}), 268564u);
  EXPECT_EQ(AscendC::FastEncodeTilingKeyDirect(decl, {10, 15, 7, 1}), 17174282u);
  EXPECT_EQ(AscendC::FastEncodeTilingKeyDirect(decl, {20, 25, 4, 0}), 268564u);
  // The UI_MIX list expands to {0, 1, 2, 3, 4, 5, 7, 6}: 6 is index 7.
  EXPECT_EQ(decl[2].vals, (std::vector<uint64_t>{0, 1, 2, 3, 4, 5, 7, 6}));
}

TEST(TemplateArgument, ValueListForms) {
  ParamStruct list("a", ASCENDC_TPL_UINT, 4, {ASCENDC_TPL_UI_LIST, 9, 3, 7}, "DECL");
  EXPECT_EQ(list.vals, (std::vector<uint64_t>{9, 3, 7}));
  ParamStruct range("b", ASCENDC_TPL_UINT, 4, {ASCENDC_TPL_UI_RANGE, 2, 1, 3, 10, 11}, "DECL");
  EXPECT_EQ(range.vals, (std::vector<uint64_t>{1, 2, 3, 10, 11}));
  ParamStruct mix("c", ASCENDC_TPL_UINT, 4, {ASCENDC_TPL_UI_MIX, 1, 0, 1, 20, 5}, "DECL");
  EXPECT_EQ(mix.vals, (std::vector<uint64_t>{0, 1, 20, 5}));
  EXPECT_TRUE(list.error.empty() && range.error.empty() && mix.error.empty());
  // DTYPE / FORMAT / BOOL keep their values as given.
  ParamStruct d("d", ASCENDC_TPL_DTYPE, 8, {27, 1}, "DECL");
  EXPECT_EQ(d.vals, (std::vector<uint64_t>{27, 1}));
}

TEST(TemplateArgument, MacroDeclarationAndGetTplTilingKey) {
  ASSERT_EQ(g_tilingDeclareParams.size(), 3u);
  EXPECT_EQ(g_tilingDeclareParams[1].vals, (std::vector<uint64_t>{1, 2, 3, 4, 8}));
  EXPECT_EQ(GET_TPL_TILING_KEY(C_DT_FLOAT16, 1, 0), AddKey(1, 0, 0));
  EXPECT_EQ(GET_TPL_TILING_KEY(C_DT_FLOAT, 8, 1), AddKey(0, 4, 1));
  EXPECT_EQ(GET_TPL_TILING_KEY(C_DT_BF16, 3, 1), AddKey(27, 2, 1));
  // Every value in both dtypes of the first selection, against the layout.
  for (uint64_t dt : {uint64_t{C_DT_FLOAT}, uint64_t{C_DT_FLOAT16}}) {
    for (uint64_t tile : {1, 8}) {
      for (uint64_t split : {0, 1}) {
        EXPECT_EQ(GET_TPL_TILING_KEY(dt, tile, split), AddKey(dt, tile == 1 ? 0 : 4, split));
      }
    }
  }
}

TEST(TemplateArgument, SelParamSetsTheContextsKey) {
  struct Context {
    uint64_t key = 0;
    void SetTilingKey(uint64_t k) { key = k; }
  } ctx;
  Context* context = &ctx;
  ASCENDC_TPL_SEL_PARAM(context, C_DT_FLOAT16, 8, 1);
  EXPECT_EQ(ctx.key, AddKey(1, 4, 1));
}

TEST(TemplateArgument, EnumeratesEveryKeyInTheCompilersOrder) {
  const std::vector<ascsim::tpl::TilingKeyCombo> keys = ASCSIM_TPL_TILING_KEYS();
  // Selection 1: D_T_X {1, 0} x TILE_NUM {1, 8} x IS_SPLIT {0, 1}, the first declared parameter
  // varying slowest; selection 2: bf16 x TILE_NUM {2, 3} x split 1.
  std::vector<std::vector<uint64_t>> want_args = {
      {1, 1, 0}, {1, 1, 1}, {1, 8, 0}, {1, 8, 1}, {0, 1, 0}, {0, 1, 1},
      {0, 8, 0}, {0, 8, 1}, {27, 2, 1}, {27, 3, 1}};
  ASSERT_EQ(keys.size(), want_args.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    EXPECT_EQ(keys[i].args, want_args[i]) << i;
    const uint64_t tile_index = want_args[i][1] == 8 ? 4 : want_args[i][1] - 1;
    EXPECT_EQ(keys[i].tilingKey, AddKey(want_args[i][0], tile_index, want_args[i][2])) << i;
    EXPECT_EQ(keys[i].kernelType, i < 8 ? ASCENDC_TPL_AIV_ONLY : -1) << i;
  }
  std::vector<uint64_t> args;
  ASSERT_TRUE(ascsim::tpl::DecodeTilingKey(g_tilingDeclareParams, g_tilingSelectParams,
                                           AddKey(27, 2, 1), &args));
  EXPECT_EQ(args, (std::vector<uint64_t>{27, 3, 1}));
  EXPECT_FALSE(ascsim::tpl::DecodeTilingKey(g_tilingDeclareParams, g_tilingSelectParams,
                                            AddKey(27, 0, 0), &args));
}

TEST(TemplateArgument, DuplicateKeysAcrossSelectionsAppearOnce) {
  TilingDeclareParams decl{ASCENDC_TPL_BOOL_DECL(A, 0, 1), ASCENDC_TPL_BOOL_DECL(B, 0, 1)};
  TilingSelectParams sel{ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_BOOL_SEL(A, 0, 1), ASCENDC_TPL_BOOL_SEL(B, 0)),
                         ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_BOOL_SEL(B, 0, 1), ASCENDC_TPL_BOOL_SEL(A, 1))};
  const auto keys = ascsim::tpl::EnumerateTilingKeys(decl, sel);
  std::vector<uint64_t> got;
  for (const auto& k : keys) got.push_back(k.tilingKey);
  EXPECT_EQ(got, (std::vector<uint64_t>{0, 1, 3}));
}

TEST(TemplateArgument, KernelTypeDeclIsEncodedAndStatesTheType) {
  TilingDeclareParams decl{ASCENDC_TPL_KERNEL_TYPE_DECL(K, ASCENDC_TPL_AIV_ONLY, ASCENDC_TPL_MIX_AIC_1_2),
                           ASCENDC_TPL_BOOL_DECL(F, 0, 1)};
  TilingSelectParams sel{ASCENDC_TPL_ARGS_SEL(
      ASCENDC_TPL_SHARED_KERNEL_TYPE_SEL(K, ASCENDC_TPL_AIV_ONLY, ASCENDC_TPL_MIX_AIC_1_2),
      ASCENDC_TPL_BOOL_SEL(F, 1))};
  const auto keys = ascsim::tpl::EnumerateTilingKeys(decl, sel);
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[0].tilingKey, 0u | (1u << 8));
  EXPECT_EQ(keys[0].kernelType, ASCENDC_TPL_AIV_ONLY);
  EXPECT_EQ(keys[1].tilingKey, 7u | (1u << 8));
  EXPECT_EQ(keys[1].kernelType, ASCENDC_TPL_MIX_AIC_1_2);
}

uint64_t NotSelected() { return GET_TPL_TILING_KEY(C_DT_BF16, 1, 1); }
uint64_t WrongCount() { return GET_TPL_TILING_KEY(C_DT_FLOAT, 1); }
uint64_t UndeclaredUint() { return GET_TPL_TILING_KEY(C_DT_FLOAT, 5, 0); }

TEST(TemplateArgument, EncodeErrorsSayWhyAndGiveTheInvalidKey) {
  uint64_t key = 0;
  EXPECT_EQ(Stderr(&key, NotSelected),
            "[ERROR] GET_TPL_TILING_KEY args [27, 1, 1] are not selected by any "
            "ASCENDC_TPL_ARGS_SEL\n");
  EXPECT_EQ(key, INVALID_TILING_KEY);
  EXPECT_EQ(Stderr(&key, WrongCount),
            "[ERROR] GET_TPL_TILING_KEY has 2 arguments, ASCENDC_TPL_ARGS_DECL declares 3\n");
  EXPECT_EQ(key, INVALID_TILING_KEY);
  EXPECT_NE(Stderr(&key, UndeclaredUint).find("are not selected"), std::string::npos);
  EXPECT_EQ(key, INVALID_TILING_KEY);
  testing::internal::CaptureStderr();
  EXPECT_EQ(AscendC::FastEncodeTilingKeyDirect(g_tilingDeclareParams, {0, 5, 0}), INVALID_TILING_KEY);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "[ERROR] ASCENDC_TPL_UINT_DECL TILE_NUM value 5 is not declared\n");
}

std::string CheckOf(TilingDeclareParams decl, TilingSelectParams sel) {
  return ascsim::tpl::CheckParams(decl, sel);
}

TEST(TemplateArgument, MalformedDeclarationsAndSelections) {
  EXPECT_EQ(CheckOf({}, {}), "ASCENDC_TPL_ARGS_DECL declares no parameter");
  EXPECT_EQ(CheckOf({ParamStruct("N", ASCENDC_TPL_UINT, 8, {8, 2, 0, 2}, "DECL")}, {}),
            "ASCENDC_TPL_UINT_DECL N value-list form 8 is not ASCENDC_TPL_UI_RANGE, "
            "ASCENDC_TPL_UI_LIST or ASCENDC_TPL_UI_MIX");
  EXPECT_EQ(CheckOf({ParamStruct("N", ASCENDC_TPL_UINT, 8, {8}, "DECL")}, {}),
            "ASCENDC_TPL_UINT_DECL N needs a value-list form and at least one value");
  EXPECT_EQ(CheckOf({ParamStruct("N", ASCENDC_TPL_UINT, 8, {0, 3, 1, 2}, "DECL")}, {}),
            "ASCENDC_TPL_UINT_DECL N declares 3 ranges but gives 1");
  EXPECT_EQ(CheckOf({ParamStruct("Y", ASCENDC_TPL_FORMAT, 8, {}, "DECL")}, {}),
            "ASCENDC_TPL_FORMAT_DECL Y has no values");
  EXPECT_EQ(CheckOf({ParamStruct("X", ASCENDC_TPL_DTYPE, 8, {1, 1}, "DECL")}, {}),
            "ASCENDC_TPL_DTYPE_DECL X lists a value twice");
  EXPECT_EQ(CheckOf({ParamStruct("S", ASCENDC_TPL_BOOL, 1, {0, 2}, "DECL")}, {}),
            "ASCENDC_TPL_BOOL_DECL S has a value other than 0 and 1");
  EXPECT_EQ(CheckOf({ParamStruct("X", ASCENDC_TPL_DTYPE, 8, {256}, "DECL")}, {}),
            "ASCENDC_TPL_DTYPE_DECL X value 256 does not fit its 8 bits");
  EXPECT_EQ(CheckOf({ParamStruct("N", ASCENDC_TPL_UINT, 1, {1, 5, 6, 7}, "DECL")}, {}),
            "ASCENDC_TPL_UINT_DECL N has 3 values, more than its 1 bits can index");
  TilingDeclareParams wide;
  for (int i = 0; i < 9; ++i) wide.push_back(ParamStruct("X", ASCENDC_TPL_DTYPE, 8, {1}, "DECL"));
  wide[0].name = "X0";
  EXPECT_EQ(CheckOf(wide, {}).find("is declared twice") != std::string::npos, true);
  TilingDeclareParams too_wide;
  const char* names[] = {"a", "b", "c", "d", "e", "f", "g", "h", "i"};
  for (const char* n : names) too_wide.push_back(ParamStruct(n, ASCENDC_TPL_DTYPE, 8, {1}, "DECL"));
  EXPECT_EQ(CheckOf(too_wide, {}),
            "ASCENDC_TPL_ARGS_DECL needs 72 bits, more than the 64 of a tiling key");
  TilingDeclareParams decl{ASCENDC_TPL_BOOL_DECL(A, 0, 1), ASCENDC_TPL_DTYPE_DECL(D, 0, 1)};
  EXPECT_EQ(CheckOf(decl, {ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_BOOL_SEL(A, 0),
                                                ASCENDC_TPL_BOOL_SEL(Z, 0))}),
            "ASCENDC_TPL_BOOL_SEL Z (ASCENDC_TPL_ARGS_SEL 0) names no parameter of "
            "ASCENDC_TPL_ARGS_DECL");
  EXPECT_EQ(CheckOf(decl, {ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_BOOL_SEL(A, 0),
                                                ASCENDC_TPL_FORMAT_SEL(D, 0))}),
            "ASCENDC_TPL_FORMAT_SEL D selects an ASCENDC_TPL_DTYPE parameter");
  EXPECT_EQ(CheckOf(decl, {ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_BOOL_SEL(A, 0),
                                                ASCENDC_TPL_DTYPE_SEL(D, 5))}),
            "ASCENDC_TPL_DTYPE_SEL D value 5 is not in its ASCENDC_TPL_DTYPE_DECL");
  EXPECT_EQ(CheckOf(decl, {ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_BOOL_SEL(A, 0))}),
            "ASCENDC_TPL_ARGS_SEL 0 selects 1 of the 2 declared parameters (each once)");
  std::string error;
  EXPECT_TRUE(ascsim::tpl::EnumerateTilingKeys(decl, {ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_BOOL_SEL(A, 0))},
                                               &error)
                  .empty());
  EXPECT_EQ(error, "ASCENDC_TPL_ARGS_SEL 0 selects 1 of the 2 declared parameters (each once)");
  testing::internal::CaptureStderr();
  EXPECT_EQ(AscendC::EncodeTilingKey({}, {}, {1}), INVALID_TILING_KEY);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "[ERROR] ASCENDC_TPL_ARGS_DECL declares no parameter\n");
}

}  // namespace
