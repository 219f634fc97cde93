// op_build's generated sources: the aclnn API's parameter names and types (checked against the
// header CANN's op_build writes for an Eye operator: yRef, numRows, numColumns,
// batchShapeOptional, dtype), the argument order the runtime gets, the ops-info section, the
// kernel variant parameter files, the type names, and the JSON reader and writer.
#include "op/tools/op_build.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ascsim/aclnn_op.h"
#include "ascsim/error.h"
#include "op/tools/json.h"
#include "register/op_def_registry.h"

namespace ops {
class BuildEye : public OpDef {
 public:
  explicit BuildEye(const char* name) : OpDef(name) {
    this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16});
    this->Attr("num_rows").Int();
    this->Attr("num_columns").AttrType(OPTIONAL).Int(0);
    this->Attr("batch_shape").AttrType(OPTIONAL).ListInt({});
    this->Attr("dtype").AttrType(OPTIONAL).Int(0);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(BuildEye);

class BuildMix : public OpDef {
 public:
  explicit BuildMix(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT16});
    this->Input("bias").ParamType(OPTIONAL).DataType({ge::DT_FLOAT, ge::DT_FLOAT});
    this->Input("xs").ParamType(DYNAMIC).DataType({ge::DT_INT32, ge::DT_INT32});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT16});
    this->Output("gather_out").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT16});
    this->Attr("alpha").AttrType(OPTIONAL).Float(1.5f);
    this->Attr("mode").AttrType(OPTIONAL).String("mean");
    this->Attr("flag").Bool();
    this->AICore().AddConfig("ascend910b").AddConfig("ascend310p");
  }
};
OP_ADD(BuildMix);
}  // namespace ops

namespace {

using ascsim::op::AclnnParam;
using ascsim::op::Json;
using ascsim::op::ResolveOp;
using ::testing::HasSubstr;

std::vector<std::string> Names(const std::vector<AclnnParam>& params) {
  std::vector<std::string> names;
  for (const AclnnParam& p : params) names.push_back(p.name);
  return names;
}

TEST(OpBuild, AclnnNamesFollowCannsGeneratedApi) {
  const std::vector<AclnnParam> eye = ascsim::op::AclnnParams(ResolveOp("BuildEye", "ascend910b"));
  EXPECT_EQ(Names(eye), (std::vector<std::string>{"yRef", "numRows", "numColumns",
                                                  "batchShapeOptional", "dtype"}));
  EXPECT_EQ(eye[0].c_type, "aclTensor *");
  EXPECT_EQ(eye[1].c_type, "int64_t");
  EXPECT_EQ(eye[3].c_type, "const aclIntArray *");

  const std::vector<AclnnParam> mix = ascsim::op::AclnnParams(ResolveOp("BuildMix", "ascend910b"));
  EXPECT_EQ(Names(mix), (std::vector<std::string>{"x", "biasOptional", "xs", "alpha",
                                                  "modeOptional", "flag", "yOut", "gatherOutOut"}));
  EXPECT_EQ(mix[2].c_type, "const aclTensorList *");
  EXPECT_EQ(mix[3].c_type, "double");
  EXPECT_EQ(mix[4].c_type, "char *");
  EXPECT_EQ(mix[5].c_type, "bool");
  EXPECT_EQ(mix[6].c_type, "const aclTensor *");
}

TEST(OpBuild, GeneratedHeaderAndSource) {
  const ascsim::op::ResolvedOp eye = ResolveOp("BuildEye", "ascend910b");
  const std::string h = ascsim::op::AclnnHeader(eye);
  EXPECT_THAT(h, HasSubstr("#ifndef ACLNN_BUILD_EYE_H_"));
  EXPECT_THAT(h, HasSubstr("aclnnStatus aclnnBuildEyeGetWorkspaceSize(\n    aclTensor *yRef,\n"
                           "    int64_t numRows,\n    int64_t numColumns,\n"
                           "    const aclIntArray *batchShapeOptional,\n    int64_t dtype,\n"
                           "    uint64_t *workspaceSize,\n    aclOpExecutor **executor);"));
  EXPECT_THAT(h, HasSubstr("aclnnStatus aclnnBuildEye(\n    void *workspace,"));
  // The runtime gets inputs, attributes, outputs: the Ref parameter twice.
  const std::string s = ascsim::op::AclnnSource(eye);
  EXPECT_THAT(s, HasSubstr("{ASCSIM_ACLNN_TENSOR, \"yRef\", yRef, 0, 0},\n"
                           "        {ASCSIM_ACLNN_INT, \"numRows\", 0, numRows, 0},\n"
                           "        {ASCSIM_ACLNN_INT, \"numColumns\", 0, numColumns, 0},\n"
                           "        {ASCSIM_ACLNN_INT_ARRAY, \"batchShapeOptional\", "
                           "batchShapeOptional, 0, 0},\n"
                           "        {ASCSIM_ACLNN_INT, \"dtype\", 0, dtype, 0},\n"
                           "        {ASCSIM_ACLNN_TENSOR, \"yRef\", yRef, 0, 0},\n    };"));
  EXPECT_THAT(s, HasSubstr("ascsim_aclnn_get_workspace_size(\"aclnnBuildEyeGetWorkspaceSize\", "
                           "\"BuildEye\", &kAscsimPackageLocator, args,"));
  const std::string mix = ascsim::op::AclnnSource(ResolveOp("BuildMix", "ascend910b"));
  EXPECT_THAT(mix, HasSubstr("{ASCSIM_ACLNN_FLOAT, \"alpha\", 0, 0, alpha}"));
  EXPECT_THAT(mix, HasSubstr("{ASCSIM_ACLNN_BOOL, \"flag\", 0, (flag ? 1 : 0), 0}"));
  EXPECT_THAT(mix, HasSubstr("{ASCSIM_ACLNN_TENSOR_LIST, \"xs\", xs, 0, 0}"));
}

TEST(OpBuild, OpsInfoSectionAsCannWritesIt) {
  const std::string ini = ascsim::op::OpsInfoSection(ResolveOp("BuildMix", "ascend910b"));
  EXPECT_THAT(ini, HasSubstr("[BuildMix]\ninput0.name=x\ninput0.dtype=float16,float16\n"
                             "input0.format=ND,ND\ninput0.unknownshape_format=ND,ND\n"
                             "input0.shape=all\ninput0.paramType=required\n"));
  EXPECT_THAT(ini, HasSubstr("input1.paramType=optional\n"));
  EXPECT_THAT(ini, HasSubstr("input2.dtype=int32,int32\n"));
  EXPECT_THAT(ini, HasSubstr("input2.paramType=dynamic\n"));
  EXPECT_THAT(ini, HasSubstr("output1.name=gather_out\n"));
  EXPECT_THAT(ini, HasSubstr("attr.list=alpha,mode,flag\nattr_alpha.type=float\n"
                             "attr_alpha.value=all\nattr_alpha.paramType=optional\n"
                             "attr_alpha.defaultValue=1.5\n"));
  EXPECT_THAT(ini, HasSubstr("attr_mode.type=str\n"));
  EXPECT_THAT(ini, HasSubstr("attr_mode.defaultValue=mean\n"));
  EXPECT_THAT(ini, HasSubstr("attr_flag.paramType=required\n"));
  EXPECT_THAT(ini, HasSubstr("dynamicFormat.flag=true\n"));
  EXPECT_THAT(ini, HasSubstr("opFile.value=build_mix\nopInterface.value=build_mix\n"));
}

TEST(OpBuild, KernelVariantsAreTheDistinctCombinations) {
  const auto specs =
      ascsim::op::KernelVariantSpecs(ResolveOp("BuildMix", "ascend910b"), "ascend910b");
  ASSERT_EQ(specs.size(), 1u);  // both combinations are the same types
  EXPECT_EQ(specs[0].bin_name, "BuildMix_0");
  const Json param = Json::Parse(specs[0].param_json, "param");
  EXPECT_EQ(param["op_type"].as_string(), "BuildMix");
  const Json& node = param["op_list"].items()[0];
  EXPECT_EQ(node["bin_filename"].as_string(), "BuildMix_0");
  EXPECT_EQ(node["inputs"].items()[0]["dtype"].as_string(), "float16");
  // A dynamic parameter is a list of one description, as CANN's param files have it.
  EXPECT_EQ(node["inputs"].items()[2].kind(), Json::Kind::kArray);
  EXPECT_EQ(node["inputs"].items()[2].items()[0]["paramType"].as_string(), "dynamic");
  EXPECT_EQ(node["attrs"].items()[1]["dtype"].as_string(), "str");
  EXPECT_EQ(
      ascsim::op::KernelVariantSpecs(ResolveOp("BuildEye", "ascend910b"), "ascend910b").size(), 2u);
}

TEST(OpBuild, TypeNames) {
  EXPECT_EQ(ascsim::op::IniTypeName(ge::DT_FLOAT), "float32");
  EXPECT_EQ(ascsim::op::IniTypeName(ge::DT_BF16), "bfloat16");
  EXPECT_EQ(ascsim::op::FromIniTypeName("float"), ge::DT_FLOAT);
  EXPECT_EQ(ascsim::op::FromIniTypeName("fp16"), ge::DT_FLOAT16);
  EXPECT_EQ(ascsim::op::FromIniTypeName("int64"), ge::DT_INT64);
  EXPECT_EQ(ascsim::op::FromIniTypeName("nope"), ge::DT_UNDEFINED);
  EXPECT_EQ(ascsim::op::KernelCppType(ge::DT_FLOAT16), "half");
  EXPECT_EQ(ascsim::op::KernelCppType(ge::DT_BF16), "bfloat16_t");
  EXPECT_EQ(ascsim::op::FullSocName("ascend910b"), "Ascend910B1");
  EXPECT_EQ(ascsim::op::CamelCase("gather_out"), "gatherOut");
}

TEST(OpBuild, JsonRoundTripAndErrors) {
  const Json j = Json::Parse(
      "{\"a\": [1, 2.5, -3e2, true, null], \"s\": \"q\\\"\\n\\u00e9\", \"o\": {}}", "t");
  EXPECT_EQ(j["a"].items().size(), 5u);
  EXPECT_EQ(j["a"].items()[2].as_number(), -300);
  EXPECT_TRUE(j["a"].items()[4].is_null());
  EXPECT_EQ(j["s"].as_string(), "q\"\n\xc3\xa9");
  EXPECT_TRUE(j["missing"].is_null());
  const Json back = Json::Parse(j.Dump(), "dump");
  EXPECT_EQ(back["a"].items()[1].as_number(), 2.5);
  EXPECT_EQ(back["s"].as_string(), j["s"].as_string());
  try {
    Json::Parse("{\"a\": [1, }", "f.json");
    ADD_FAILURE();
  } catch (const ascsim::InvalidArgument& e) {
    EXPECT_STREQ(e.what(), "f.json: invalid JSON at offset 10: unexpected character");
  }
}

}  // namespace
