// PolyCustom: y = c0 + c1*x + ... + c(n-1)*x^(n-1) element by element (Horner's rule), and its
// backward PolyGradCustom: dx = dy * p'(x). The attributes: coeffs (up to 8), order ("ascending":
// c0 first, or "descending": the highest power first, as numpy.polyval takes them) and blocks
// (the most cores to use; 0: as many as the platform has, up to 8). The TilingFunc puts the
// coefficients in ascending order (the backward's: those of p') into the tiling data.
#include <cstring>

#include "poly_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
const uint32_t MAX_BLOCKS = 8;
const uint32_t MAX_COEFFS = 8;
const uint32_t TILE_BYTES = 4 * 1024;

static ge::graphStatus PolyTiling(gert::TilingContext* context, bool derivative)
{
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const gert::TypedContinuousVector<float>* list = attrs->GetListFloat(0);
    const char* order = attrs->GetStr(1);
    const int64_t* maxBlocks = attrs->GetInt(2);
    const uint32_t given = static_cast<uint32_t>(list->GetSize());
    if (given == 0 || given > MAX_COEFFS || *maxBlocks < 0) {
        return ge::GRAPH_FAILED;
    }
    const bool ascending = strcmp(order, "ascending") == 0;
    if (!ascending && strcmp(order, "descending") != 0) {
        return ge::GRAPH_FAILED;
    }
    float coeffs[MAX_COEFFS] = {0};
    for (uint32_t i = 0; i < given; i++) {
        coeffs[i] = list->GetData()[ascending ? i : given - 1 - i];
    }
    uint32_t coeffNum = given;
    if (derivative) {
        for (uint32_t i = 1; i < given; i++) {
            coeffs[i - 1] = static_cast<float>(i) * coeffs[i];
        }
        coeffs[given - 1] = 0;
        coeffNum = given > 1 ? given - 1 : 1;
    }

    const uint32_t totalLength =
        static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t blocks = platform.GetCoreNumAiv() < MAX_BLOCKS ? platform.GetCoreNumAiv() : MAX_BLOCKS;
    if (*maxBlocks > 0 && static_cast<uint32_t>(*maxBlocks) < blocks) {
        blocks = static_cast<uint32_t>(*maxBlocks);
    }
    // Whole 32-byte units per core.
    const uint32_t unit = 32 / typeSize;
    while (blocks > 1 && totalLength % (blocks * unit) != 0) {
        --blocks;
    }
    if (totalLength == 0 || totalLength % (blocks * unit) != 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t blockLength = totalLength / blocks;
    uint32_t tileLength = TILE_BYTES / typeSize;
    while (blockLength % tileLength != 0) {
        tileLength /= 2;
    }
    if (tileLength < unit) {
        tileLength = blockLength;
    }

    PolyCustomTilingData tiling;
    tiling.set_totalLength(totalLength);
    tiling.set_blockLength(blockLength);
    tiling.set_tileLength(tileLength);
    tiling.set_coeffNum(coeffNum);
    tiling.set_coeffs(coeffs);
    context->SetBlockDim(blocks);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(),
                        context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    return PolyTiling(context, false);
}

static ge::graphStatus GradTilingFunc(gert::TilingContext* context)
{
    return PolyTiling(context, true);
}
}  // namespace optiling

namespace ge {
static graphStatus InferShape(gert::InferShapeContext* context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}

static graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class PolyCustom : public OpDef {
public:
    explicit PolyCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("coeffs").AttrType(OPTIONAL).ListFloat({0.0f, 1.0f});
        this->Attr("order").AttrType(OPTIONAL).String("ascending");
        this->Attr("blocks").AttrType(OPTIONAL).Int(0);
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

class PolyGradCustom : public OpDef {
public:
    explicit PolyGradCustom(const char* name) : OpDef(name)
    {
        this->Input("dy")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("dx")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("coeffs").AttrType(OPTIONAL).ListFloat({0.0f, 1.0f});
        this->Attr("order").AttrType(OPTIONAL).String("ascending");
        this->Attr("blocks").AttrType(OPTIONAL).Int(0);
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::GradTilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(PolyCustom);
OP_ADD(PolyGradCustom);
}  // namespace ops
