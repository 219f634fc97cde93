// SquaredDiffCustom: z = (x - y)^2 for float16 and float, element by element.
#include "squared_diff_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
const uint32_t MAX_BLOCKS = 8;
const uint32_t TILE_BYTES = 8 * 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    SquaredDiffCustomTilingData tiling;
    const uint32_t totalLength =
        static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    const uint32_t typeSize = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16 ? 2 : 4;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t blocks = platform.GetCoreNumAiv() < MAX_BLOCKS ? platform.GetCoreNumAiv() : MAX_BLOCKS;
    // Whole 32-byte units per core; the kernel needs an exact split.
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
    tiling.set_totalLength(totalLength);
    tiling.set_blockLength(blockLength);
    tiling.set_tileLength(tileLength);
    context->SetBlockDim(blocks);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(),
                        context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
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
class SquaredDiffCustom : public OpDef {
public:
    explicit SquaredDiffCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("z")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(SquaredDiffCustom);
}  // namespace ops
