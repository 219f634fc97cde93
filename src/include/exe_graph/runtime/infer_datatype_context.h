// gert::InferDataTypeContext (CANN metadef inc/external/exe_graph/runtime/
// infer_datatype_context.h): input data types in, output data types out.
#ifndef ASCSIM_EXE_GRAPH_RUNTIME_INFER_DATATYPE_CONTEXT_H_
#define ASCSIM_EXE_GRAPH_RUNTIME_INFER_DATATYPE_CONTEXT_H_

#include <cstddef>
#include <type_traits>

#include "exe_graph/runtime/extended_kernel_context.h"
#include "graph/types.h"

namespace gert {

class InferDataTypeContext : public ExtendedKernelContext {
 public:
  ge::DataType GetInputDataType(const size_t index) const;
  ge::DataType GetOptionalInputDataType(const size_t ir_index) const;
  ge::DataType GetDynamicInputDataType(const size_t ir_index, const size_t relative_index) const;
  ge::DataType GetRequiredInputDataType(const size_t ir_index) const;
  ge::DataType GetOutputDataType(const size_t index) const;
  ge::graphStatus SetOutputDataType(const size_t index, const ge::DataType datatype);

 protected:
  explicit InferDataTypeContext(void* call) : ExtendedKernelContext(call) {}
};
static_assert(std::is_standard_layout<InferDataTypeContext>::value,
              "The class InferDataTypeContext must be a POD");

}  // namespace gert

#endif  // ASCSIM_EXE_GRAPH_RUNTIME_INFER_DATATYPE_CONTEXT_H_
