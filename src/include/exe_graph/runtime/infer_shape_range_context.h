// gert::InferShapeRangeContext (CANN metadef inc/external/exe_graph/runtime/
// infer_shape_range_context.h): declared so that OpDef::SetInferShapeRange takes its function;
// ascsim never calls shape-range inference (its shapes are always known).
#ifndef ASCSIM_EXE_GRAPH_RUNTIME_INFER_SHAPE_RANGE_CONTEXT_H_
#define ASCSIM_EXE_GRAPH_RUNTIME_INFER_SHAPE_RANGE_CONTEXT_H_

#include "exe_graph/runtime/extended_kernel_context.h"

namespace gert {
class InferShapeRangeContext : public ExtendedKernelContext {
 protected:
  explicit InferShapeRangeContext(void* call) : ExtendedKernelContext(call) {}
};
}  // namespace gert

#endif  // ASCSIM_EXE_GRAPH_RUNTIME_INFER_SHAPE_RANGE_CONTEXT_H_
