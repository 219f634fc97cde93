// ScaleShiftCustom: y = x * scale (+ bias, an optional input of x's shape), then max(y, 0) when
// the attribute relu is set. The tiling key says which: 1 x*scale, 2 x*scale+bias, 11 and 12 the
// same with the ReLU.
#include "scale_shift_custom_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
const uint32_t BLOCK_DIM = 4;
const uint32_t ALIGN = 8;  // floats per 32 bytes

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ScaleShiftCustomTilingData tiling;
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const float* scale = attrs->GetAttrPointer<float>(0);
    const bool* relu = attrs->GetAttrPointer<bool>(1);
    const uint32_t totalLength =
        static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    if (totalLength % (BLOCK_DIM * ALIGN) != 0) {
        return ge::GRAPH_FAILED;  // the kernel copies whole 32-byte units per core
    }
    if (totalLength / BLOCK_DIM * 2 * sizeof(float) > 96 * 1024) {
        return ge::GRAPH_FAILED;  // x and bias of one core live in UB at once
    }
    const gert::StorageShape* bias = context->GetOptionalInputShape(1);
    if (bias != nullptr && bias->GetStorageShape().GetShapeSize() != totalLength) {
        return ge::GRAPH_FAILED;
    }
    tiling.set_totalLength(totalLength);
    tiling.set_blockLength(totalLength / BLOCK_DIM);
    tiling.set_scale(*scale);
    context->SetBlockDim(BLOCK_DIM);
    context->SetTilingKey((bias != nullptr ? 2 : 1) + (*relu ? 10 : 0));
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
}  // namespace ge

namespace ops {
class ScaleShiftCustom : public OpDef {
public:
    explicit ScaleShiftCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(OPTIONAL).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0);
        this->Attr("relu").AttrType(OPTIONAL).Bool(false);
        this->SetInferShape(ge::InferShape);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};

OP_ADD(ScaleShiftCustom);
}  // namespace ops
