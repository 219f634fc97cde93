// ops::OpDef and OP_ADD / IMPL_OP_*: what a prototype records (parameters, attributes with types
// and defaults, host functions, per-SoC configs), CANN's defaults, and the registries.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ascsim/error.h"
#include "op/framework.h"
#include "op/register/op_def_impl.h"
#include "register/op_def_registry.h"

namespace {
ge::graphStatus OdInferShape(gert::InferShapeContext*) { return ge::GRAPH_SUCCESS; }
ge::graphStatus OdInferDataType(gert::InferDataTypeContext*) { return ge::GRAPH_SUCCESS; }
ge::graphStatus OdTiling(gert::TilingContext*) { return ge::GRAPH_SUCCESS; }
ge::graphStatus OdTiling2(gert::TilingContext*) { return ge::GRAPH_SUCCESS; }
struct OdCompileInfo {
  int value = 3;
};
ge::graphStatus OdParse(gert::TilingParseContext*) { return ge::GRAPH_SUCCESS; }
}  // namespace

namespace ops {
class OdScale : public OpDef {
 public:
  explicit OdScale(const char* name) : OpDef(name) {
    this->Input("x")
        .ParamType(REQUIRED)
        .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
        .Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Input("bias")
        .ParamType(OPTIONAL)
        .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
        .Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Output("y")
        .ParamType(REQUIRED)
        .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
        .Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Attr("alpha").AttrType(OPTIONAL).Float(1.5f);
    this->Attr("mode").Int();
    this->Attr("axes").AttrType(OPTIONAL).ListInt({1, 2});
    this->Attr("name").AttrType(OPTIONAL).String("scale");
    this->SetInferShape(OdInferShape).SetInferDataType(OdInferDataType);
    OpAICoreConfig config;
    config.Input("x").DataType({ge::DT_FLOAT16});
    this->AICore().SetTiling(OdTiling).AddConfig("ascend910b").AddConfig("ascend310p", config);
  }
};
OP_ADD(OdScale);
}  // namespace ops

IMPL_OP_OPTILING(OdImplOnly).Tiling(OdTiling2, 4096).TilingParse<OdCompileInfo>(OdParse);
IMPL_OP_INFERSHAPE(OdImplOnly).InferShape(OdInferShape).InferOutDataTypeSameWithFirstInput();

namespace {

using ascsim::op::OpDefAccess;
using ascsim::op::OpFramework;

TEST(OpDef, OpAddRegistersAPrototypeThatRecordsEverything) {
  ASSERT_TRUE(OpFramework::Get().HasOpDef("OdScale"));
  ops::OpDef def = OpFramework::Get().CreateOpDef("OdScale");
  const ops::OpDefImpl& d = OpDefAccess::Of(def);
  EXPECT_EQ(std::string(d.op_type.GetString()), "OdScale");
  ASSERT_EQ(d.params.inputs.size(), 2u);
  const ops::OpParamDefImpl& x = OpDefAccess::Of(d.params.inputs[0]);
  EXPECT_EQ(std::string(x.name.GetString()), "x");
  EXPECT_EQ(x.param_type, ops::REQUIRED);
  EXPECT_EQ(x.types, (std::vector<ge::DataType>{ge::DT_FLOAT16, ge::DT_FLOAT}));
  EXPECT_EQ(x.formats, (std::vector<ge::Format>{ge::FORMAT_ND, ge::FORMAT_ND}));
  EXPECT_EQ(OpDefAccess::Of(d.params.inputs[1]).param_type, ops::OPTIONAL);
  ASSERT_EQ(d.params.outputs.size(), 1u);
  ASSERT_EQ(d.attrs.size(), 4u);
  const ops::OpAttrDefImpl& alpha = OpDefAccess::Of(d.attrs[0]);
  EXPECT_FALSE(alpha.required);
  EXPECT_EQ(alpha.data_type, ops::AttrDataType::ATTR_DT_FLOAT);
  EXPECT_EQ(alpha.float_value, 1.5f);
  const ops::OpAttrDefImpl& mode = OpDefAccess::Of(d.attrs[1]);
  EXPECT_TRUE(mode.required);  // CANN's default
  EXPECT_FALSE(mode.value_set);
  EXPECT_EQ(OpDefAccess::Of(d.attrs[2]).list_int, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(std::string(OpDefAccess::Of(d.attrs[3]).str_value.GetString()), "scale");
  EXPECT_EQ(d.infer_shape, &OdInferShape);
  EXPECT_EQ(d.infer_data_type, &OdInferDataType);
  const ops::OpAICoreDefImpl& core = OpDefAccess::Of(d.aicore);
  EXPECT_EQ(core.tiling_func, &OdTiling);
  EXPECT_EQ(core.soc_order, (std::vector<std::string>{"ascend910b", "ascend310p"}));
  const ops::OpAICoreConfigImpl& p310 = OpDefAccess::Of(core.configs.at("ascend310p"));
  ASSERT_EQ(p310.params.inputs.size(), 1u);
  EXPECT_EQ(OpDefAccess::Of(p310.params.inputs[0]).types,
            (std::vector<ge::DataType>{ge::DT_FLOAT16}));
  EXPECT_EQ(p310.cfg_info.at("dynamicShapeSupport.flag"), "true");
}

TEST(OpDef, InputOfAnExistingNameIsTheSameParameter) {
  ops::OpDef def("OdLocal");
  def.Input("x").DataType({ge::DT_INT32});
  def.Input("x").Format({ge::FORMAT_ND});
  def.Attr("k").Int(4);
  def.Attr("k").AttrType(ops::OPTIONAL);
  const ops::OpDefImpl& d = OpDefAccess::Of(def);
  ASSERT_EQ(d.params.inputs.size(), 1u);
  EXPECT_EQ(OpDefAccess::Of(d.params.inputs[0]).types, (std::vector<ge::DataType>{ge::DT_INT32}));
  EXPECT_EQ(OpDefAccess::Of(d.params.inputs[0]).formats, (std::vector<ge::Format>{ge::FORMAT_ND}));
  ASSERT_EQ(d.attrs.size(), 1u);
  EXPECT_EQ(OpDefAccess::Of(d.attrs[0]).int_value, 4);
  // A copy is independent.
  ops::OpDef copy = def;
  copy.Input("x").DataType({ge::DT_FLOAT});
  EXPECT_EQ(OpDefAccess::Of(d.params.inputs[0]).types, (std::vector<ge::DataType>{ge::DT_INT32}));
}

TEST(OpDef, ImplOpMacrosRegisterTheHostFunctions) {
  ASSERT_TRUE(OpFramework::Get().HasImpl("OdImplOnly"));
  const ascsim::op::ImplFuncs f = OpFramework::Get().ImplOf("OdImplOnly");
  EXPECT_EQ(f.tiling, &OdTiling2);
  EXPECT_EQ(f.max_tiling_data_size, 4096u);
  EXPECT_EQ(f.infer_shape, &OdInferShape);
  EXPECT_TRUE(f.data_type_same_as_first_input);
  ASSERT_NE(f.compile_info_creator, nullptr);
  void* info = f.compile_info_creator();
  EXPECT_EQ(static_cast<OdCompileInfo*>(info)->value, 3);
  f.compile_info_deleter(info);
}

TEST(OpDef, UnknownOperatorNamesTheRegisteredOnes) {
  try {
    OpFramework::Get().CreateOpDef("NoSuchOperator");
    FAIL();
  } catch (const ascsim::InvalidArgument& e) {
    EXPECT_THAT(e.what(), ::testing::StartsWith("operator NoSuchOperator is not registered "
                                                "(OP_ADD); registered: "));
    EXPECT_THAT(e.what(), ::testing::HasSubstr("OdScale"));
  }
}

}  // namespace
