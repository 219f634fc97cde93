// MatmulBiasCustom: c = a @ b + bias (a [M, K] and b [K, N] float16, bias [N] and c [M, N] float),
// split over the cores by the Matmul API's multi-core tiling; the Matmul API's system workspace
// is the operator's workspace.
#include "matmul_bias_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const gert::Shape& aShape = context->GetInputShape(0)->GetOriginShape();
    const gert::Shape& bShape = context->GetInputShape(1)->GetOriginShape();
    if (aShape.GetDimNum() != 2 || bShape.GetDimNum() != 2 || aShape.GetDim(1) != bShape.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    const int32_t m = static_cast<int32_t>(aShape.GetDim(0));
    const int32_t k = static_cast<int32_t>(aShape.GetDim(1));
    const int32_t n = static_cast<int32_t>(bShape.GetDim(1));

    matmul_tiling::MultiCoreMatmulTiling cubeTiling(platform);
    cubeTiling.SetDim(platform.GetCoreNumAiv());
    cubeTiling.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                        matmul_tiling::DataType::DT_FLOAT16);
    cubeTiling.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                        matmul_tiling::DataType::DT_FLOAT16);
    cubeTiling.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                        matmul_tiling::DataType::DT_FLOAT);
    cubeTiling.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                           matmul_tiling::DataType::DT_FLOAT);
    cubeTiling.SetShape(m, n, k);
    cubeTiling.SetOrgShape(m, n, k);
    cubeTiling.SetBias(true);
    cubeTiling.SetBufferSpace(-1, -1, -1);

    MatmulBiasCustomTilingData tiling;
    if (cubeTiling.GetTiling(tiling.cubeTilingData) == -1) {
        return ge::GRAPH_FAILED;
    }
    // The block dim counts AI cores: one cube core serves two vector cores (AIC:AIV = 1:2).
    const uint32_t usedCores = static_cast<uint32_t>(tiling.cubeTilingData.get_usedCoreNum());
    context->SetBlockDim((usedCores + 1) / 2);
    context->SetTilingKey(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(),
                        context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = static_cast<size_t>(platform.GetLibApiWorkSpaceSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static graphStatus InferShape(gert::InferShapeContext* context)
{
    const gert::Shape* a = context->GetInputShape(0);
    const gert::Shape* b = context->GetInputShape(1);
    gert::Shape* c = context->GetOutputShape(0);
    c->SetDimNum(2);
    c->SetDim(0, a->GetDim(0));
    c->SetDim(1, b->GetDim(1));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class MatmulBiasCustom : public OpDef {
public:
    explicit MatmulBiasCustom(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
    }
};

OP_ADD(MatmulBiasCustom);
}  // namespace ops
