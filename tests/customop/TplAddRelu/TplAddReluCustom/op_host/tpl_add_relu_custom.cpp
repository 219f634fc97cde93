// TplAddReluCustom: z = x + y (then ReLU when `relu` is set) for float16 and float. The tiling
// chooses the kernel's template arguments and encodes them as the tiling key.
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tpl_add_relu_custom_tiling.h"
#include "tpl_add_relu_custom_tpl.h"

namespace optiling {
const uint32_t MAX_BLOCKS = 8;
const uint32_t SPLIT_MIN_BYTES = 4096;  // smaller blocks are one tile (per buffer)

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    const uint32_t totalLength =
        static_cast<uint32_t>(context->GetInputShape(0)->GetOriginShape().GetShapeSize());
    const bool half = context->GetInputDesc(0)->GetDataType() == ge::DT_FLOAT16;
    const uint32_t typeSize = half ? 2 : 4;
    const bool *relu = context->GetAttrs()->GetAttrPointer<bool>(0);
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint32_t blocks = platform.GetCoreNumAiv() < MAX_BLOCKS ? platform.GetCoreNumAiv() : MAX_BLOCKS;
    // float16 always runs in two tiles per buffer (the only count its ASCENDC_TPL_SEL selects);
    // float in one, or four when a core's share is large.
    const uint32_t unit = 32 / typeSize;
    uint32_t tiles = half ? 2 : 1;
    while (blocks > 1 && totalLength % (blocks * unit * tiles * 2) != 0) {
        --blocks;
    }
    if (totalLength == 0 || totalLength % (blocks * unit * tiles * 2) != 0) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t blockLength = totalLength / blocks;
    if (!half && blockLength * typeSize >= SPLIT_MIN_BYTES && blockLength % (unit * 8) == 0) {
        tiles = 4;
    }
    TplAddReluTilingData *tiling = context->GetTilingData<TplAddReluTilingData>();
    tiling->blockLength = blockLength;
    tiling->tileLength = blockLength / tiles / 2;
    context->SetBlockDim(blocks);
    const uint64_t dt = half ? C_DT_FLOAT16 : C_DT_FLOAT;
    context->SetTilingKey(GET_TPL_TILING_KEY(dt, tiles, (relu != nullptr && *relu) ? 1 : 0));
    size_t *currentWorkspace = context->GetWorkspaceSizes(1);
    currentWorkspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static graphStatus InferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}

static graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class TplAddReluCustom : public OpDef {
public:
    explicit TplAddReluCustom(const char *name) : OpDef(name)
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
        this->Attr("relu").AttrType(OPTIONAL).Bool(false);
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(TplAddReluCustom);
}  // namespace ops
