// The gert contexts over an OpCall (op_call.h), and the attribute and node views. Semantics of
// the lookups follow CANN's (metadef inc/external/exe_graph/runtime/*.h): instance indexes count
// the tensors given, IR indexes the declared parameters; an IR parameter without instances (an
// absent optional input) and every index past the end give nullptr.
#include <cstring>
#include <limits>

#include "op/exe_graph/op_call.h"
#include "platform/platform_infos_def.h"

namespace ascsim::op {

OpCall::OpCall()
    : node(this),
      tiling_context(this),
      infer_shape_context(this),
      infer_data_type_context(this),
      tiling_parse_context(this) {}

void OpCall::ResetTiling(size_t capacity) {
  tiling_holder = gert::TilingData::CreateCap(capacity);
  tiling_data = reinterpret_cast<gert::TilingData*>(tiling_holder.get());
  std::memset(tiling_holder.get() + sizeof(gert::TilingData), 0, capacity);
  tiling_key = 0;
  block_dim = 0;
  aicpu_block_dim = 0;
  schedule_mode = 0;
  tiling_cond = 0;
  need_atomic = false;
  local_memory_size = 0;
  std::memset(workspace_sizes, 0, sizeof(workspace_sizes));
  workspace_num = 0;
}

void OpCall::AddIrInput(uint32_t count) {
  ir_inputs.emplace_back(static_cast<uint32_t>(input_desc.size()), count);
  input_desc.resize(input_desc.size() + count);
  for (uint32_t i = 0; i < count; ++i) input_tensors.emplace_back();
}

void OpCall::AddIrOutput(uint32_t count) {
  ir_outputs.emplace_back(static_cast<uint32_t>(output_desc.size()), count);
  output_desc.resize(output_desc.size() + count);
  for (uint32_t i = 0; i < count; ++i) output_tensors.emplace_back();
  inferred_shapes.resize(output_desc.size());
  inferred_types.resize(output_desc.size(), ge::DT_UNDEFINED);
}

// ---------------------------------------------------------------- attributes

namespace {
std::vector<uint64_t> Words(size_t bytes) { return std::vector<uint64_t>((bytes + 7) / 8 + 1, 0); }

// A ContinuousVector (capacity, size, 40 reserved bytes, elements) of `n` elements of `elem` B.
std::vector<uint64_t> Vector(const void* data, size_t n, size_t elem) {
  const size_t header = sizeof(size_t) * 2 + 40;
  std::vector<uint64_t> w = Words(header + n * elem + 8);
  uint8_t* p = reinterpret_cast<uint8_t*>(w.data());
  std::memcpy(p, &n, sizeof(size_t));
  std::memcpy(p + sizeof(size_t), &n, sizeof(size_t));
  if (n != 0) std::memcpy(p + header, data, n * elem);
  return w;
}
}  // namespace

void RuntimeAttrsImpl::AddBool(bool v) {
  values.push_back(Words(1));
  std::memcpy(values.back().data(), &v, 1);
}
void RuntimeAttrsImpl::AddInt(int64_t v) {
  values.push_back(Words(8));
  std::memcpy(values.back().data(), &v, 8);
}
void RuntimeAttrsImpl::AddFloat(float v) {
  values.push_back(Words(4));
  std::memcpy(values.back().data(), &v, 4);
}
void RuntimeAttrsImpl::AddString(const std::string& v) {
  values.push_back(Words(v.size() + 1));
  std::memcpy(values.back().data(), v.c_str(), v.size() + 1);
}
void RuntimeAttrsImpl::AddListBool(const std::vector<bool>& v) {
  std::vector<uint8_t> bytes(v.begin(), v.end());
  values.push_back(Vector(bytes.data(), bytes.size(), 1));
}
void RuntimeAttrsImpl::AddListInt(const std::vector<int64_t>& v) {
  values.push_back(Vector(v.data(), v.size(), sizeof(int64_t)));
}
void RuntimeAttrsImpl::AddListFloat(const std::vector<float>& v) {
  values.push_back(Vector(v.data(), v.size(), sizeof(float)));
}
void RuntimeAttrsImpl::AddListListInt(const std::vector<std::vector<int64_t>>& v) {
  // ContinuousVectorVector: capacity, size, 40 reserved bytes, offsets, then the vectors.
  const size_t n = v.size();
  const size_t overhead = gert::ContinuousVectorVector::GetOverHeadLength(n);
  size_t total = overhead;
  for (const auto& inner : v) total += sizeof(gert::ContinuousVector) + inner.size() * 8;
  values.push_back(Words(total));
  auto* vv = reinterpret_cast<gert::ContinuousVectorVector*>(values.back().data());
  vv->Init(n);
  for (const auto& inner : v) {
    gert::ContinuousVector* cv = vv->Add<int64_t>(inner.size());
    if (!inner.empty()) std::memcpy(cv->MutableData(), inner.data(), inner.size() * 8);
  }
}

}  // namespace ascsim::op

namespace gert {

using ascsim::op::ComputeNodeInfoImpl;
using ascsim::op::OpCall;
using ascsim::op::RuntimeAttrsImpl;

size_t RuntimeAttrs::GetAttrNum() const {
  return static_cast<const RuntimeAttrsImpl*>(this)->values.size();
}
const void* RuntimeAttrs::GetPointerByIndex(size_t index) const {
  const auto& values = static_cast<const RuntimeAttrsImpl*>(this)->values;
  return index < values.size() ? values[index].data() : nullptr;
}

// ---------------------------------------------------------------- node

namespace {
const OpCall& NodeCall(const ComputeNodeInfo* n) {
  return *static_cast<const ComputeNodeInfoImpl*>(n)->call;
}
template <class T>
const T* At(const std::vector<T>& v, size_t i) {
  return i < v.size() ? &v[i] : nullptr;
}
template <class T>
const T* At(const std::deque<T>& v, size_t i) {
  return i < v.size() ? &v[i] : nullptr;
}
}  // namespace

const ge::char_t* ComputeNodeInfo::GetNodeType() const { return NodeCall(this).op_type.c_str(); }
const ge::char_t* ComputeNodeInfo::GetNodeName() const { return NodeCall(this).node_name.c_str(); }
size_t ComputeNodeInfo::GetIrInputsNum() const { return NodeCall(this).ir_inputs.size(); }
size_t ComputeNodeInfo::GetIrOutputsNum() const { return NodeCall(this).ir_outputs.size(); }
size_t ComputeNodeInfo::GetInputsNum() const { return NodeCall(this).input_desc.size(); }
size_t ComputeNodeInfo::GetOutputsNum() const { return NodeCall(this).output_desc.size(); }
const AnchorInstanceInfo* ComputeNodeInfo::GetInputInstanceInfo(const size_t ir_index) const {
  return At(NodeCall(this).ir_inputs, ir_index);
}
const AnchorInstanceInfo* ComputeNodeInfo::GetOutputInstanceInfo(const size_t ir_index) const {
  return At(NodeCall(this).ir_outputs, ir_index);
}
const CompileTimeTensorDesc* ComputeNodeInfo::GetInputTdInfo(const size_t index) const {
  return At(NodeCall(this).input_desc, index);
}
const CompileTimeTensorDesc* ComputeNodeInfo::GetOutputTdInfo(const size_t index) const {
  return At(NodeCall(this).output_desc, index);
}
const RuntimeAttrs* ComputeNodeInfo::GetAttrs() const { return &NodeCall(this).attrs; }

// ---------------------------------------------------------------- ExtendedKernelContext

namespace {
OpCall& CallOf(void* call) { return *static_cast<OpCall*>(call); }
// The instance of IR parameter `ir` at `relative`, or -1.
long Instance(const std::vector<AnchorInstanceInfo>& irs, size_t ir, size_t relative) {
  if (ir >= irs.size() || relative >= irs[ir].GetInstanceNum()) return -1;
  return static_cast<long>(irs[ir].GetInstanceStart() + relative);
}
template <class Seq>
auto ByIr(const Seq& seq, const std::vector<AnchorInstanceInfo>& irs, size_t ir, size_t rel)
    -> decltype(&seq[0]) {
  const long i = Instance(irs, ir, rel);
  return i < 0 || static_cast<size_t>(i) >= seq.size() ? nullptr : &seq[static_cast<size_t>(i)];
}
}  // namespace

const CompileTimeTensorDesc* ExtendedKernelContext::GetInputDesc(const size_t index) const {
  return At(CallOf(call_).input_desc, index);
}
const CompileTimeTensorDesc* ExtendedKernelContext::GetOptionalInputDesc(
    const size_t ir_index) const {
  const OpCall& c = CallOf(call_);
  return ByIr(c.input_desc, c.ir_inputs, ir_index, 0);
}
const CompileTimeTensorDesc* ExtendedKernelContext::GetRequiredInputDesc(
    const size_t ir_index) const {
  return GetOptionalInputDesc(ir_index);
}
const CompileTimeTensorDesc* ExtendedKernelContext::GetDynamicInputDesc(
    const size_t ir_index, const size_t relative_index) const {
  const OpCall& c = CallOf(call_);
  return ByIr(c.input_desc, c.ir_inputs, ir_index, relative_index);
}
const CompileTimeTensorDesc* ExtendedKernelContext::GetOutputDesc(const size_t index) const {
  return At(CallOf(call_).output_desc, index);
}
const AnchorInstanceInfo* ExtendedKernelContext::GetIrInputInstanceInfo(
    const size_t ir_index) const {
  return At(CallOf(call_).ir_inputs, ir_index);
}
const AnchorInstanceInfo* ExtendedKernelContext::GetIrOutputInstanceInfo(
    const size_t ir_index) const {
  return At(CallOf(call_).ir_outputs, ir_index);
}
size_t ExtendedKernelContext::GetComputeNodeInputNum() const {
  return CallOf(call_).input_desc.size();
}
size_t ExtendedKernelContext::GetComputeNodeOutputNum() const {
  return CallOf(call_).output_desc.size();
}
const RuntimeAttrs* ExtendedKernelContext::GetAttrs() const { return &CallOf(call_).attrs; }
const ge::char_t* ExtendedKernelContext::GetNodeType() const {
  return CallOf(call_).op_type.c_str();
}
const ge::char_t* ExtendedKernelContext::GetNodeName() const {
  return CallOf(call_).node_name.c_str();
}
const ComputeNodeInfo* ExtendedKernelContext::GetComputeNodeInfo() const {
  return &CallOf(call_).node;
}
const ge::char_t* ExtendedKernelContext::GetKernelName() const {
  return CallOf(call_).node_name.c_str();
}
const ge::char_t* ExtendedKernelContext::GetKernelType() const {
  return CallOf(call_).op_type.c_str();
}

// ---------------------------------------------------------------- TilingContext

const void* TilingContext::GetCompileInfo() const { return CallOf(call_).compile_info; }
const StorageShape* TilingContext::GetInputShape(const size_t index) const {
  const Tensor* t = GetInputTensor(index);
  return t == nullptr ? nullptr : &t->GetShape();
}
const Tensor* TilingContext::GetInputTensor(const size_t index) const {
  return At(CallOf(call_).input_tensors, index);
}
const Tensor* TilingContext::GetOptionalInputTensor(const size_t ir_index) const {
  const OpCall& c = CallOf(call_);
  return ByIr(c.input_tensors, c.ir_inputs, ir_index, 0);
}
const Tensor* TilingContext::GetDynamicInputTensor(const size_t ir_index,
                                                   const size_t relative_index) const {
  const OpCall& c = CallOf(call_);
  return ByIr(c.input_tensors, c.ir_inputs, ir_index, relative_index);
}
const StorageShape* TilingContext::GetOptionalInputShape(const size_t ir_index) const {
  const Tensor* t = GetOptionalInputTensor(ir_index);
  return t == nullptr ? nullptr : &t->GetShape();
}
const Tensor* TilingContext::GetRequiredInputTensor(const size_t ir_index) const {
  return GetOptionalInputTensor(ir_index);
}
const StorageShape* TilingContext::GetRequiredInputShape(const size_t ir_index) const {
  return GetOptionalInputShape(ir_index);
}
const StorageShape* TilingContext::GetDynamicInputShape(const size_t ir_index,
                                                        const size_t relative_index) const {
  const Tensor* t = GetDynamicInputTensor(ir_index, relative_index);
  return t == nullptr ? nullptr : &t->GetShape();
}
const StorageShape* TilingContext::GetOutputShape(const size_t index) const {
  const Tensor* t = At(CallOf(call_).output_tensors, index);
  return t == nullptr ? nullptr : &t->GetShape();
}
ge::graphStatus TilingContext::SetTilingKey(const uint64_t tiling_key) {
  CallOf(call_).tiling_key = tiling_key;
  return ge::GRAPH_SUCCESS;
}
uint64_t TilingContext::GetTilingKey() const { return CallOf(call_).tiling_key; }
ge::graphStatus TilingContext::SetScheduleMode(const uint32_t schedule_mode) {
  CallOf(call_).schedule_mode = schedule_mode;
  return ge::GRAPH_SUCCESS;
}
uint32_t TilingContext::GetScheduleMode() const { return CallOf(call_).schedule_mode; }
ge::graphStatus TilingContext::SetBlockDim(const uint32_t block_dim) {
  return SetSimdNumBlocks(block_dim);
}
ge::graphStatus TilingContext::SetSimdNumBlocks(const uint32_t num_blocks) {
  CallOf(call_).block_dim = num_blocks;
  return ge::GRAPH_SUCCESS;
}
uint32_t TilingContext::GetBlockDim() const { return GetSimdNumBlocks(); }
uint32_t TilingContext::GetSimdNumBlocks() const { return CallOf(call_).block_dim; }
ge::graphStatus TilingContext::SetAicpuBlockDim(uint32_t block_dim) {
  return SetAicpuNumBlocks(block_dim);
}
ge::graphStatus TilingContext::SetAicpuNumBlocks(uint32_t num_blocks) {
  CallOf(call_).aicpu_block_dim = num_blocks;
  return ge::GRAPH_SUCCESS;
}
uint32_t TilingContext::GetAicpuBlockDim() const { return GetAicpuNumBlocks(); }
uint32_t TilingContext::GetAicpuNumBlocks() const { return CallOf(call_).aicpu_block_dim; }
ge::graphStatus TilingContext::SetTilingCond(int32_t tiling_cond) {
  CallOf(call_).tiling_cond = tiling_cond;
  return ge::GRAPH_SUCCESS;
}
int32_t TilingContext::GetTilingCond() const { return CallOf(call_).tiling_cond; }
ge::graphStatus TilingContext::SetNeedAtomic(const bool atomic) {
  CallOf(call_).need_atomic = atomic;
  return ge::GRAPH_SUCCESS;
}
bool TilingContext::NeedAtomic() const { return CallOf(call_).need_atomic; }
TilingData* TilingContext::GetRawTilingData() { return CallOf(call_).tiling_data; }
size_t* TilingContext::GetWorkspaceSizes(const size_t workspace_count) {
  OpCall& c = CallOf(call_);
  if (workspace_count > OpCall::kWorkspaceCapacity) return nullptr;
  c.workspace_num = workspace_count;
  return c.workspace_sizes;
}
size_t TilingContext::GetWorkspaceNum() const { return CallOf(call_).workspace_num; }
fe::PlatFormInfos* TilingContext::GetPlatformInfo() const { return CallOf(call_).platform; }
int32_t TilingContext::GetDeterministic() const { return 0; }
int32_t TilingContext::GetDeterministicLevel() const { return 0; }
ge::graphStatus TilingContext::SetLocalMemorySize(const uint32_t local_memory_size) {
  CallOf(call_).local_memory_size = local_memory_size;
  return ge::GRAPH_SUCCESS;
}
uint32_t TilingContext::GetLocalMemorySize() const { return CallOf(call_).local_memory_size; }

// ---------------------------------------------------------------- InferShapeContext

const Shape* InferShapeContext::GetInputShape(const size_t index) const {
  const Tensor* t = GetInputTensor(index);
  return t == nullptr ? nullptr : &t->GetOriginShape();
}
const Tensor* InferShapeContext::GetInputTensor(const size_t index) const {
  return At(CallOf(call_).input_tensors, index);
}
const Tensor* InferShapeContext::GetOptionalInputTensor(const size_t ir_index) const {
  const OpCall& c = CallOf(call_);
  return ByIr(c.input_tensors, c.ir_inputs, ir_index, 0);
}
const Shape* InferShapeContext::GetOptionalInputShape(const size_t ir_index) const {
  const Tensor* t = GetOptionalInputTensor(ir_index);
  return t == nullptr ? nullptr : &t->GetOriginShape();
}
const Shape* InferShapeContext::GetDynamicInputShape(const size_t ir_index,
                                                     const size_t relative_index) const {
  const Tensor* t = GetDynamicInputTensor(ir_index, relative_index);
  return t == nullptr ? nullptr : &t->GetOriginShape();
}
const Tensor* InferShapeContext::GetDynamicInputTensor(const size_t ir_index,
                                                       const size_t relative_index) const {
  const OpCall& c = CallOf(call_);
  return ByIr(c.input_tensors, c.ir_inputs, ir_index, relative_index);
}
const Tensor* InferShapeContext::GetRequiredInputTensor(const size_t ir_index) const {
  return GetOptionalInputTensor(ir_index);
}
const Shape* InferShapeContext::GetRequiredInputShape(const size_t ir_index) const {
  return GetOptionalInputShape(ir_index);
}
Shape* InferShapeContext::GetOutputShape(const size_t index) {
  OpCall& c = CallOf(call_);
  return index < c.inferred_shapes.size() ? &c.inferred_shapes[index] : nullptr;
}

// ---------------------------------------------------------------- InferDataTypeContext

ge::DataType InferDataTypeContext::GetInputDataType(const size_t index) const {
  const CompileTimeTensorDesc* d = GetInputDesc(index);
  return d == nullptr ? ge::DT_UNDEFINED : d->GetDataType();
}
ge::DataType InferDataTypeContext::GetOptionalInputDataType(const size_t ir_index) const {
  const CompileTimeTensorDesc* d = GetOptionalInputDesc(ir_index);
  return d == nullptr ? ge::DT_UNDEFINED : d->GetDataType();
}
ge::DataType InferDataTypeContext::GetDynamicInputDataType(const size_t ir_index,
                                                           const size_t relative_index) const {
  const CompileTimeTensorDesc* d = GetDynamicInputDesc(ir_index, relative_index);
  return d == nullptr ? ge::DT_UNDEFINED : d->GetDataType();
}
ge::DataType InferDataTypeContext::GetRequiredInputDataType(const size_t ir_index) const {
  return GetOptionalInputDataType(ir_index);
}
ge::DataType InferDataTypeContext::GetOutputDataType(const size_t index) const {
  const OpCall& c = CallOf(call_);
  return index < c.inferred_types.size() ? c.inferred_types[index] : ge::DT_UNDEFINED;
}
ge::graphStatus InferDataTypeContext::SetOutputDataType(const size_t index,
                                                        const ge::DataType datatype) {
  OpCall& c = CallOf(call_);
  if (index >= c.inferred_types.size()) return ge::GRAPH_FAILED;
  c.inferred_types[index] = datatype;
  return ge::GRAPH_SUCCESS;
}

// ---------------------------------------------------------------- TilingParseContext

const ge::char_t* TilingParseContext::GetCompiledJson() const { return "{}"; }
void* TilingParseContext::MutableCompiledInfo() { return CallOf(call_).compile_info; }
fe::PlatFormInfos* TilingParseContext::GetPlatformInfo() const { return CallOf(call_).platform; }

}  // namespace gert
