// ResolveOp: an OpDef merged with a SoC's AddConfig, its combinations (a DataTypeList parameter
// multiplies them, Follow copies the followed input's), attributes with defaults, and the errors
// that name the parameter.
#include "op/op_resolve.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ascsim/error.h"
#include "register/op_def_registry.h"

namespace ops {
class ResolveMix : public OpDef {
 public:
  explicit ResolveMix(const char* name) : OpDef(name) {
    this->Input("x")
        .ParamType(REQUIRED)
        .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
        .Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Input("scale").ParamType(OPTIONAL).DataTypeList({ge::DT_FLOAT, ge::DT_BF16});
    this->Input("xs").ParamType(DYNAMIC).DataType({ge::DT_INT32, ge::DT_INT32});
    this->Output("y").ParamType(REQUIRED).Follow("x");
    this->Attr("axes").AttrType(OPTIONAL).ListInt({0, 1});
    this->Attr("mode").String();
    OpAICoreConfig only_half;
    only_half.Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16});
    only_half.Input("scale").ParamType(OPTIONAL).DataType({ge::DT_FLOAT});
    only_half.Input("xs").ParamType(DYNAMIC).DataType({ge::DT_INT32});
    only_half.Output("y").ParamType(REQUIRED).Follow("x");
    this->AICore().AddConfig("ascend910b").AddConfig("ascend310p", only_half);
  }
};
OP_ADD(ResolveMix);

class ResolveBad : public OpDef {
 public:
  explicit ResolveBad(const char* name) : OpDef(name) {
    this->Input("a").DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
    this->Input("b").DataType({ge::DT_FLOAT16});
    this->Output("c").DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(ResolveBad);
}  // namespace ops

namespace {

using ascsim::op::ParamKind;
using ascsim::op::ResolvedOp;
using ascsim::op::ResolveOp;

TEST(ResolveOp, CombinationsListsFollowAndAttributes) {
  const ResolvedOp op = ResolveOp("ResolveMix", "ascend910b");
  ASSERT_EQ(op.combinations, 4u);  // 2 base combinations x 2 types of the DataTypeList
  ASSERT_EQ(op.inputs.size(), 3u);
  EXPECT_EQ(op.inputs[1].kind, ParamKind::kOptional);
  EXPECT_EQ(op.inputs[2].kind, ParamKind::kDynamic);
  EXPECT_EQ(op.inputs[0].types, (std::vector<ge::DataType>{ge::DT_FLOAT16, ge::DT_FLOAT16,
                                                           ge::DT_FLOAT, ge::DT_FLOAT}));
  EXPECT_EQ(op.inputs[1].types,
            (std::vector<ge::DataType>{ge::DT_FLOAT, ge::DT_BF16, ge::DT_FLOAT, ge::DT_BF16}));
  EXPECT_EQ(op.outputs[0].types, op.inputs[0].types);  // Follow("x")
  EXPECT_EQ(op.outputs[0].follow, "x");
  EXPECT_EQ(op.inputs[2].formats, std::vector<ge::Format>(4, ge::FORMAT_ND));
  ASSERT_EQ(op.attrs.size(), 2u);
  EXPECT_TRUE(op.attrs[0].has_default);
  EXPECT_EQ(op.attrs[0].list_int, (std::vector<int64_t>{0, 1}));
  EXPECT_TRUE(op.attrs[1].required);
  EXPECT_STREQ(ascsim::op::AttrKindName(op.attrs[1].kind), "str");
}

TEST(ResolveOp, TheSocsConfigReplacesParameters) {
  const ResolvedOp op = ResolveOp("ResolveMix", "ascend310p");
  ASSERT_EQ(op.combinations, 1u);
  EXPECT_EQ(op.inputs[0].types, std::vector<ge::DataType>{ge::DT_FLOAT16});
  EXPECT_EQ(op.outputs[0].types, std::vector<ge::DataType>{ge::DT_FLOAT16});
  EXPECT_EQ(ascsim::op::ConfiguredSocs("ResolveMix"),
            (std::vector<std::string>{"ascend910b", "ascend310p"}));
}

TEST(ResolveOp, ErrorsNameTheParameterOrTheSocs) {
  try {
    ResolveOp("ResolveMix", "ascend910");
    ADD_FAILURE();
  } catch (const ascsim::InvalidArgument& e) {
    EXPECT_STREQ(e.what(),
                 "ResolveMix is not built for ascend910 (its OpDef's AICore().AddConfig lists "
                 "ascend910b, ascend310p)");
  }
  try {
    ResolveOp("ResolveBad", "ascend910b");
    ADD_FAILURE();
  } catch (const ascsim::InvalidArgument& e) {
    EXPECT_THAT(e.what(), ::testing::HasSubstr("ResolveBad input b lists 1 data types where the "
                                               "others list 2"));
  }
}

TEST(ResolveOp, NamesOfSocsAndKernels) {
  EXPECT_EQ(ascsim::op::ShortSocName("Ascend910B1"), "ascend910b");
  EXPECT_EQ(ascsim::op::ShortSocName("Ascend910_9391"), "ascend910_93");
  EXPECT_EQ(ascsim::op::ShortSocName("Ascend310P3"), "ascend310p");
  EXPECT_EQ(ascsim::op::SnakeCase("AddCustom"), "add_custom");
  EXPECT_EQ(ascsim::op::SnakeCase("MatmulLeakyreluCustom"), "matmul_leakyrelu_custom");
}

}  // namespace
