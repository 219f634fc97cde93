// gert::ExtendedKernelContext (CANN metadef inc/external/exe_graph/runtime/
// extended_kernel_context.h): what every operator context shares: the node (type, name), its
// inputs' and outputs' tensor descriptions and its attributes.
//
// Indexes: `index` counts instances (the tensors actually given: an absent optional input has
// none, a dynamic input one per list element); `ir_index` counts the OpDef's declared inputs.
// GetOptionalInputDesc(ir) and GetDynamicInputDesc(ir, i) map one to the other.
//
// ascsim's contexts are made by its operator runtime (aclnn, ascsim.load_op, the op unit-test
// helpers); every member is out of line in libascsim and takes and returns PODs only.
#ifndef ASCSIM_EXE_GRAPH_RUNTIME_EXTENDED_KERNEL_CONTEXT_H_
#define ASCSIM_EXE_GRAPH_RUNTIME_EXTENDED_KERNEL_CONTEXT_H_

#include <cstddef>
#include <type_traits>

#include "exe_graph/runtime/compute_node_info.h"
#include "exe_graph/runtime/runtime_attrs.h"
#include "graph/types.h"

namespace gert {

class ExtendedKernelContext {
 public:
  const CompileTimeTensorDesc* GetInputDesc(const size_t index) const;
  const CompileTimeTensorDesc* GetOptionalInputDesc(const size_t ir_index) const;
  const CompileTimeTensorDesc* GetRequiredInputDesc(const size_t ir_index) const;
  const CompileTimeTensorDesc* GetDynamicInputDesc(const size_t ir_index,
                                                   const size_t relative_index) const;
  const CompileTimeTensorDesc* GetOutputDesc(const size_t index) const;
  const AnchorInstanceInfo* GetIrInputInstanceInfo(const size_t ir_index) const;
  const AnchorInstanceInfo* GetIrOutputInstanceInfo(const size_t ir_index) const;
  size_t GetComputeNodeInputNum() const;
  size_t GetComputeNodeOutputNum() const;
  const RuntimeAttrs* GetAttrs() const;
  const ge::char_t* GetNodeType() const;
  const ge::char_t* GetNodeName() const;
  const ComputeNodeInfo* GetComputeNodeInfo() const;
  const ge::char_t* GetKernelName() const;
  const ge::char_t* GetKernelType() const;

  ExtendedKernelContext(const ExtendedKernelContext&) = delete;
  ExtendedKernelContext& operator=(const ExtendedKernelContext&) = delete;

 protected:
  explicit ExtendedKernelContext(void* call) : call_(call) {}
  // The operator call this context describes (ascsim::op::OpCall).
  void* call_;
};
static_assert(std::is_standard_layout<ExtendedKernelContext>::value,
              "The class ExtendedKernelContext must be a POD");

}  // namespace gert

#endif  // ASCSIM_EXE_GRAPH_RUNTIME_EXTENDED_KERNEL_CONTEXT_H_
