// An operator's host code in the style of the official custom-operator samples, compiled as the
// generated project compiles op_host (cmake/func.cmake opbuild: -std=c++11
// -D_GLIBCXX_USE_CXX11_ABI=0) and linked against libascsim with --no-undefined (ctest
// op_host_headers_cxx11_old_abi): the host headers compile as C++11 and every function they
// reach in the library links from old-ABI code.
#include <cstdint>
#include <string>

#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"
#include "register/register.h"
#include "register/tilingdata_base.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(MmCxx11TilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF_ARR(uint16_t, 4, tiles);
TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, cubeTilingData);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(MmCxx11, MmCxx11TilingData)

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  uint64_t ubSize = 0;
  ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
  const gert::StorageShape* a = context->GetInputShape(0);
  const gert::StorageShape* bias = context->GetOptionalInputShape(2);
  const int32_t m = static_cast<int32_t>(a->GetOriginShape().GetDim(0));
  const int32_t k = static_cast<int32_t>(a->GetOriginShape().GetDim(1));
  const int32_t n = static_cast<int32_t>(context->GetInputShape(1)->GetOriginShape().GetDim(1));
  matmul_tiling::MultiCoreMatmulTiling cubeTiling(ascendcPlatform);
  cubeTiling.SetDim(2);
  cubeTiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                      matmul_tiling::DataType::DT_FLOAT16);
  cubeTiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                      matmul_tiling::DataType::DT_FLOAT16);
  cubeTiling.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                      matmul_tiling::DataType::DT_FLOAT);
  cubeTiling.SetShape(m, n, k);
  cubeTiling.SetOrgShape(m, n, k);
  cubeTiling.SetBias(bias != nullptr);
  MmCxx11TilingData tiling;
  if (cubeTiling.GetTiling(tiling.cubeTilingData) == -1) return ge::GRAPH_FAILED;
  uint16_t tiles[4] = {1, 2, 3, 4};
  tiling.set_tiles(tiles);
  tiling.set_totalLength(static_cast<uint32_t>(m * n));
  const std::string name =
      ge::TypeUtils::DataTypeToSerialString(context->GetInputDesc(0)->GetDataType());
  if (name.empty()) return ge::GRAPH_FAILED;
  const float* alpha = context->GetAttrs()->GetFloat(0);
  const char* mode = context->GetAttrs()->GetStr(1);
  if (alpha == nullptr || mode == nullptr) return ge::GRAPH_FAILED;
  context->SetBlockDim(2);
  context->SetTilingKey(1);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(),
                      context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  size_t* workspace = context->GetWorkspaceSizes(1);
  workspace[0] = static_cast<size_t>(ascendcPlatform.GetLibApiWorkSpaceSize());
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static graphStatus InferShape(gert::InferShapeContext* context) {
  const gert::Shape* a = context->GetInputShape(0);
  const gert::Shape* b = context->GetInputShape(1);
  gert::Shape* c = context->GetOutputShape(0);
  c->SetDimNum(2);
  c->SetDim(0, a->GetDim(0));
  c->SetDim(1, b->GetDim(1));
  return GRAPH_SUCCESS;
}
static graphStatus InferDataType(gert::InferDataTypeContext* context) {
  context->SetOutputDataType(0, ge::DT_FLOAT);
  return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class MmCxx11 : public OpDef {
 public:
  explicit MmCxx11(const char* name) : OpDef(name) {
    this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Input("bias").ParamType(OPTIONAL).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Attr("alpha").AttrType(OPTIONAL).Float(1.0f);
    this->Attr("mode").AttrType(OPTIONAL).String("plain");
    this->Attr("axes").AttrType(OPTIONAL).ListInt({0, 1});
    this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
    this->AICore().SetTiling(optiling::TilingFunc);
    OpAICoreConfig config;
    config.DynamicCompileStaticFlag(true).ExtendCfgInfo("aclnnSupport.value", "support_aclnn");
    this->AICore().AddConfig("ascend910b", config);
    this->AICore().AddConfig("ascend310p");
  }
};
OP_ADD(MmCxx11);
}  // namespace ops

// A framework plugin (framework/tf_plugin of a generated project): compiles, registers nothing.
namespace domi {
REGISTER_CUSTOM_OP("MmCxx11")
    .FrameworkType(TENSORFLOW)
    .OriginOpType("MmCxx11")
    .ParseParamsByOperatorFn(AutoMappingByOpFn);
}  // namespace domi
