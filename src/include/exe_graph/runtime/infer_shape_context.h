// gert::InferShapeContext (CANN metadef inc/external/exe_graph/runtime/infer_shape_context.h):
// input shapes (origin shapes) in, output shapes out.
#ifndef ASCSIM_EXE_GRAPH_RUNTIME_INFER_SHAPE_CONTEXT_H_
#define ASCSIM_EXE_GRAPH_RUNTIME_INFER_SHAPE_CONTEXT_H_

#include <cstddef>
#include <type_traits>

#include "exe_graph/runtime/extended_kernel_context.h"
#include "exe_graph/runtime/runtime_tensor.h"
#include "exe_graph/runtime/shape.h"

namespace gert {

class InferShapeContext : public ExtendedKernelContext {
 public:
  const Shape* GetInputShape(const size_t index) const;
  const Tensor* GetInputTensor(const size_t index) const;
  const Tensor* GetOptionalInputTensor(const size_t ir_index) const;
  const Shape* GetOptionalInputShape(const size_t ir_index) const;
  const Shape* GetDynamicInputShape(const size_t ir_index, const size_t relative_index) const;
  const Tensor* GetDynamicInputTensor(const size_t ir_index, const size_t relative_index) const;
  const Tensor* GetRequiredInputTensor(const size_t ir_index) const;
  const Shape* GetRequiredInputShape(const size_t ir_index) const;
  Shape* GetOutputShape(const size_t index);

 protected:
  explicit InferShapeContext(void* call) : ExtendedKernelContext(call) {}
};
static_assert(std::is_standard_layout<InferShapeContext>::value,
              "The class InferShapeContext must be a POD");

}  // namespace gert

#endif  // ASCSIM_EXE_GRAPH_RUNTIME_INFER_SHAPE_CONTEXT_H_
