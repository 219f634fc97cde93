// The gert contexts over an OpCall: instance and IR indexes (an absent optional input, a dynamic
// input of three tensors), attributes of every type, the tiling outputs and their defaults, and
// TilingFuncs written the way the official samples write them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "ascsim/soc.h"
#include "exe_graph/runtime/tiling_context.h"
#include "graph/utils/type_utils.h"
#include "op/exe_graph/op_call.h"
#include "platform/platform_infos_def.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(CtxTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF(uint32_t, tileNum);
TILING_DATA_FIELD_DEF(float, alpha);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(CtxOp, CtxTilingData)
}  // namespace optiling

namespace {

using ascsim::op::OpCall;

// The call of a node with inputs x (required), bias (optional, absent), xs (dynamic, 3 tensors)
// and one output y, on the active SoC.
void MakeCall(OpCall& c) {
  c.op_type = "CtxOp";
  c.node_name = "CtxOp_1";
  c.AddIrInput(1);
  c.AddIrInput(0);
  c.AddIrInput(3);
  c.AddIrOutput(1);
  int64_t dims[4][2] = {{8, 2048}, {2, 3}, {4, 5}, {6, 7}};
  for (size_t i = 0; i < 4; ++i) {
    gert::Shape s;
    s.AppendDim(dims[i][0]).AppendDim(dims[i][1]);
    c.input_tensors[i].MutableOriginShape() = s;
    c.input_tensors[i].MutableStorageShape() = s;
    c.input_tensors[i].SetDataType(i == 0 ? ge::DT_FLOAT16 : ge::DT_INT32);
    c.input_desc[i].SetDataType(i == 0 ? ge::DT_FLOAT16 : ge::DT_INT32);
  }
  c.attrs.AddFloat(0.25f);
  c.attrs.AddInt(-7);
  c.attrs.AddBool(true);
  c.attrs.AddString("mean");
  c.attrs.AddListInt({3, 4, 5});
  c.attrs.AddListFloat({0.5f, 1.5f});
  c.attrs.AddListListInt({{1}, {2, 3}});
  c.platform = fe::PlatFormInfos::ForActiveSoc();
  c.ResetTiling(2048);
}

// As the AddCustom sample's TilingFunc.
ge::graphStatus SampleTilingFunc(gert::TilingContext* context) {
  optiling::CtxTilingData tiling;
  const uint32_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
  auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  context->SetBlockDim(ascendcPlatform.GetCoreNumAiv());
  tiling.set_totalLength(totalLength);
  tiling.set_tileNum(8);
  tiling.set_alpha(*context->GetAttrs()->GetFloat(0));
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(),
                      context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->SetTilingKey(3);
  size_t* currentWorkspace = context->GetWorkspaceSizes(1);
  currentWorkspace[0] = 1024;
  return ge::GRAPH_SUCCESS;
}

TEST(OpContexts, InstanceAndIrIndexes) {
  OpCall c;
  MakeCall(c);
  gert::TilingContext* ctx = &c.tiling_context;
  EXPECT_EQ(ctx->GetComputeNodeInputNum(), 4u);
  EXPECT_EQ(ctx->GetComputeNodeOutputNum(), 1u);
  EXPECT_EQ(ctx->GetInputShape(0)->GetOriginShape().GetShapeSize(), 8 * 2048);
  EXPECT_EQ(ctx->GetInputShape(1)->GetStorageShape().GetDim(0), 2);  // xs[0]: instance 1
  EXPECT_EQ(ctx->GetInputShape(4), nullptr);
  EXPECT_EQ(ctx->GetOptionalInputShape(1), nullptr);  // bias is absent
  EXPECT_EQ(ctx->GetOptionalInputTensor(1), nullptr);
  EXPECT_EQ(ctx->GetOptionalInputShape(0)->GetOriginShape().GetDim(1), 2048);
  EXPECT_EQ(ctx->GetDynamicInputShape(2, 2)->GetOriginShape().GetDim(1), 7);
  EXPECT_EQ(ctx->GetDynamicInputShape(2, 3), nullptr);
  EXPECT_EQ(ctx->GetIrInputInstanceInfo(2)->GetInstanceStart(), 1u);
  EXPECT_EQ(ctx->GetIrInputInstanceInfo(2)->GetInstanceNum(), 3u);
  EXPECT_EQ(ctx->GetIrInputInstanceInfo(1)->GetInstanceNum(), 0u);
  EXPECT_EQ(ctx->GetIrInputInstanceInfo(3), nullptr);
  EXPECT_EQ(ctx->GetInputDesc(0)->GetDataType(), ge::DT_FLOAT16);
  EXPECT_EQ(ctx->GetDynamicInputDesc(2, 1)->GetDataType(), ge::DT_INT32);
  EXPECT_EQ(ctx->GetInputTensor(0)->GetDataType(), ge::DT_FLOAT16);
  EXPECT_STREQ(ctx->GetNodeType(), "CtxOp");
  EXPECT_STREQ(ctx->GetNodeName(), "CtxOp_1");
  EXPECT_EQ(ctx->GetComputeNodeInfo()->GetIrInputsNum(), 3u);
  EXPECT_EQ(ctx->GetComputeNodeInfo()->GetInputsNum(), 4u);
  EXPECT_EQ(ge::TypeUtils::DataTypeToSerialString(ctx->GetInputDesc(0)->GetDataType()),
            "DT_FLOAT16");
}

TEST(OpContexts, AttributesOfEveryType) {
  OpCall c;
  MakeCall(c);
  const gert::RuntimeAttrs* a = c.tiling_context.GetAttrs();
  EXPECT_EQ(a->GetAttrNum(), 7u);
  EXPECT_EQ(*a->GetFloat(0), 0.25f);
  EXPECT_EQ(*a->GetAttrPointer<float>(0), 0.25f);
  EXPECT_EQ(*a->GetInt(1), -7);
  EXPECT_TRUE(*a->GetBool(2));
  EXPECT_STREQ(a->GetStr(3), "mean");
  const gert::TypedContinuousVector<int64_t>* li = a->GetListInt(4);
  ASSERT_EQ(li->GetSize(), 3u);
  EXPECT_EQ(li->GetData()[2], 5);
  const gert::TypedContinuousVector<float>* lf = a->GetListFloat(5);
  ASSERT_EQ(lf->GetSize(), 2u);
  EXPECT_EQ(lf->GetData()[1], 1.5f);
  const gert::ContinuousVectorVector* ll = a->GetListListInt(6);
  ASSERT_EQ(ll->GetSize(), 2u);
  ASSERT_EQ(ll->Get(1)->GetSize(), 2u);
  EXPECT_EQ(static_cast<const int64_t*>(ll->Get(1)->GetData())[1], 3);
  EXPECT_EQ(a->GetInt(7), nullptr);
}

TEST(OpContexts, SampleTilingFuncFillsTheOutputs) {
  OpCall c;
  MakeCall(c);
  EXPECT_EQ(c.tiling_context.GetTilingKey(), 0u);
  EXPECT_EQ(c.tiling_context.GetBlockDim(), 0u);
  ASSERT_EQ(SampleTilingFunc(&c.tiling_context), ge::GRAPH_SUCCESS);
  EXPECT_EQ(c.tiling_key, 3u);
  const ascsim::SocProfile& soc = *c.platform->Profile();
  EXPECT_EQ(c.block_dim, static_cast<uint32_t>(soc.vector_cores));
  ASSERT_EQ(c.tiling_data->GetDataSize(), 16u);  // 3 x 4 B, padded to 8
  uint32_t words[3];
  std::memcpy(words, c.tiling_data->GetData(), sizeof(words));
  EXPECT_EQ(words[0], 8u * 2048);
  EXPECT_EQ(words[1], 8u);
  float alpha;
  std::memcpy(&alpha, &words[2], 4);
  EXPECT_EQ(alpha, 0.25f);
  EXPECT_EQ(c.workspace_num, 1u);
  EXPECT_EQ(c.workspace_sizes[0], 1024u);
  EXPECT_EQ(c.tiling_context.GetWorkspaceSizes(17), nullptr);
}

struct PlainTiling {
  uint64_t n;
  float scale;
};

TEST(OpContexts, GetTilingDataOfAPlainStruct) {
  OpCall c;
  MakeCall(c);
  PlainTiling* t = c.tiling_context.GetTilingData<PlainTiling>();
  ASSERT_NE(t, nullptr);
  t->n = 99;
  EXPECT_EQ(c.tiling_data->GetDataSize(), sizeof(PlainTiling));
  c.ResetTiling(8);
  EXPECT_EQ(c.tiling_context.GetTilingData<PlainTiling>(), nullptr);  // does not fit
}

TEST(OpContexts, InferShapeAndDataTypeContexts) {
  OpCall c;
  MakeCall(c);
  gert::InferShapeContext* s = &c.infer_shape_context;
  EXPECT_EQ(s->GetInputShape(0)->GetDim(0), 8);
  EXPECT_EQ(s->GetOptionalInputShape(1), nullptr);
  *s->GetOutputShape(0) = *s->GetInputShape(0);
  EXPECT_EQ(c.inferred_shapes[0].GetShapeSize(), 8 * 2048);
  EXPECT_EQ(s->GetOutputShape(1), nullptr);
  gert::InferDataTypeContext* d = &c.infer_data_type_context;
  EXPECT_EQ(d->GetInputDataType(0), ge::DT_FLOAT16);
  EXPECT_EQ(d->GetOptionalInputDataType(1), ge::DT_UNDEFINED);
  EXPECT_EQ(d->SetOutputDataType(0, ge::DT_FLOAT), ge::GRAPH_SUCCESS);
  EXPECT_EQ(d->SetOutputDataType(1, ge::DT_FLOAT), ge::GRAPH_FAILED);
  EXPECT_EQ(c.inferred_types[0], ge::DT_FLOAT);
  EXPECT_EQ(d->GetOutputDataType(0), ge::DT_FLOAT);
}

TEST(OpContexts, PlatformInfosDescribeTheProfile) {
  fe::PlatFormInfos* p = fe::PlatFormInfos::ForSoc("Ascend310P3");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(fe::PlatFormInfos::ForSoc("Ascend310P3"), p);
  EXPECT_EQ(fe::PlatFormInfos::ForSoc("NoSuchSoc"), nullptr);
  std::string v;
  EXPECT_TRUE(p->GetPlatformRes("version", "Short_SoC_version", v));
  EXPECT_EQ(v, "Ascend310P");
  EXPECT_TRUE(p->GetPlatformRes("AICoreSpec", "ub_size", v));
  EXPECT_EQ(v, std::to_string(256 * 1024));
  EXPECT_FALSE(p->GetPlatformRes("SoCInfo", "no_such_key", v));
  platform_ascendc::PlatformAscendC platform(p);
  uint64_t ub = 0;
  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ub);
  EXPECT_EQ(ub, 256u * 1024);
  EXPECT_EQ(platform.GetSocVersion(), platform_ascendc::SocVersion::ASCEND310P);
  platform_ascendc::PlatformAscendC a2(fe::PlatFormInfos::ForSoc("Ascend910B3"));
  EXPECT_EQ(a2.GetCoreNumAic(), 20u);
}

}  // namespace
