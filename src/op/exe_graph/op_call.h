// One operator call as the host functions see it: the node (type, inputs and outputs by IR index
// and by instance, attributes), the tensors, the platform, and what InferShape, InferDataType and
// the TilingFunc write back. The gert contexts (exe_graph/runtime/*.h) are views of an OpCall:
// every context member is out of line here and reads or writes these fields.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "exe_graph/runtime/compute_node_info.h"
#include "exe_graph/runtime/infer_datatype_context.h"
#include "exe_graph/runtime/infer_shape_context.h"
#include "exe_graph/runtime/runtime_attrs.h"
#include "exe_graph/runtime/tiling_context.h"
#include "exe_graph/runtime/tiling_parse_context.h"

namespace ascsim::op {

struct OpCall;

// The attributes, each stored in at least 8 zeroed, 8-byte aligned bytes.
class RuntimeAttrsImpl : public gert::RuntimeAttrs {
 public:
  std::vector<std::vector<uint64_t>> values;
  void AddBool(bool v);
  void AddInt(int64_t v);
  void AddFloat(float v);
  void AddString(const std::string& v);
  void AddListBool(const std::vector<bool>& v);
  void AddListInt(const std::vector<int64_t>& v);
  void AddListFloat(const std::vector<float>& v);
  void AddListListInt(const std::vector<std::vector<int64_t>>& v);
};

class ComputeNodeInfoImpl : public gert::ComputeNodeInfo {
 public:
  explicit ComputeNodeInfoImpl(OpCall* call) : call(call) {}
  OpCall* call;
};

class TilingContextImpl : public gert::TilingContext {
 public:
  explicit TilingContextImpl(OpCall* call) : TilingContext(call) {}
};
class InferShapeContextImpl : public gert::InferShapeContext {
 public:
  explicit InferShapeContextImpl(OpCall* call) : InferShapeContext(call) {}
};
class InferDataTypeContextImpl : public gert::InferDataTypeContext {
 public:
  explicit InferDataTypeContextImpl(OpCall* call) : InferDataTypeContext(call) {}
};
class TilingParseContextImpl : public gert::TilingParseContext {
 public:
  explicit TilingParseContextImpl(OpCall* call) : TilingParseContext(call) {}
};

struct OpCall {
  OpCall();
  OpCall(const OpCall&) = delete;
  OpCall& operator=(const OpCall&) = delete;

  std::string op_type;
  std::string node_name;

  // Per IR input / output: where its instances start and how many it has.
  std::vector<gert::AnchorInstanceInfo> ir_inputs;
  std::vector<gert::AnchorInstanceInfo> ir_outputs;
  // Per instance.
  std::vector<gert::CompileTimeTensorDesc> input_desc;
  std::vector<gert::CompileTimeTensorDesc> output_desc;
  std::deque<gert::Tensor> input_tensors;   // shape, format, data type, data address
  std::deque<gert::Tensor> output_tensors;  // the outputs (shapes known once inferred)
  RuntimeAttrsImpl attrs;
  ComputeNodeInfoImpl node;
  fe::PlatFormInfos* platform = nullptr;

  // InferShape / InferDataType results, per output instance.
  std::vector<gert::Shape> inferred_shapes;
  std::vector<ge::DataType> inferred_types;

  // TilingFunc results.
  uint64_t tiling_key = 0;
  uint32_t block_dim = 0;
  uint32_t aicpu_block_dim = 0;
  uint32_t schedule_mode = 0;
  int32_t tiling_cond = 0;
  bool need_atomic = false;
  uint32_t local_memory_size = 0;
  std::unique_ptr<uint8_t[]> tiling_holder;
  gert::TilingData* tiling_data = nullptr;
  static constexpr size_t kWorkspaceCapacity = 16;
  size_t workspace_sizes[kWorkspaceCapacity] = {};
  size_t workspace_num = 0;
  void* compile_info = nullptr;

  // Contexts over this call.
  TilingContextImpl tiling_context;
  InferShapeContextImpl infer_shape_context;
  InferDataTypeContextImpl infer_data_type_context;
  TilingParseContextImpl tiling_parse_context;

  // A fresh tiling buffer of `capacity` bytes (zeroed) and empty tiling results.
  void ResetTiling(size_t capacity);
  // Appends an IR input with `count` instances (0: an absent optional input).
  void AddIrInput(uint32_t count);
  void AddIrOutput(uint32_t count);
};

}  // namespace ascsim::op
