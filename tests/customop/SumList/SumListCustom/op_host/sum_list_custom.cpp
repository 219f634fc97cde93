// SumListCustom: y = x[0] + x[1] + ... over a dynamic input (a tensor list), float or bfloat16
// (bfloat16 summed in float).
#include "sum_list_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
const uint32_t MAX_BLOCKS = 4;
const uint32_t UNIT = 16;  // elements: 32 bytes of bfloat16, 64 of float
const uint32_t MAX_TILE = 1024;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    const gert::StorageShape* first = context->GetDynamicInputShape(0, 0);
    if (first == nullptr) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t totalLength = static_cast<uint32_t>(first->GetOriginShape().GetShapeSize());
    for (uint32_t i = 1; context->GetDynamicInputShape(0, i) != nullptr; ++i) {
        if (context->GetDynamicInputShape(0, i)->GetOriginShape().GetShapeSize() != totalLength) {
            return ge::GRAPH_FAILED;
        }
    }
    if (totalLength == 0 || totalLength % UNIT != 0) {
        return ge::GRAPH_FAILED;
    }
    uint32_t blocks = MAX_BLOCKS;
    while (blocks > 1 && totalLength % (blocks * UNIT) != 0) {
        --blocks;
    }
    const uint32_t blockLength = totalLength / blocks;
    uint32_t tileLength = blockLength < MAX_TILE ? blockLength : MAX_TILE;
    while (blockLength % tileLength != 0) {
        tileLength -= UNIT;
    }
    SumListCustomTilingData tiling;
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
    *context->GetOutputShape(0) = *context->GetDynamicInputShape(0, 0);
    return GRAPH_SUCCESS;
}

static graphStatus InferDataType(gert::InferDataTypeContext* context)
{
    context->SetOutputDataType(0, context->GetDynamicInputDataType(0, 0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class SumListCustom : public OpDef {
public:
    explicit SumListCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(DYNAMIC)
            .DataType({ge::DT_FLOAT, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(SumListCustom);
}  // namespace ops
