// What a context knows about the operator node (CANN metadef inc/external/exe_graph/runtime/
// compute_node_info.h): per IR input the instances it has (AnchorInstanceInfo: an optional input
// that was not given has none, a dynamic one has one per tensor of its list), per instance the
// compile-time tensor description (data type, formats), and the attributes.
#ifndef ASCSIM_EXE_GRAPH_RUNTIME_COMPUTE_NODE_INFO_H_
#define ASCSIM_EXE_GRAPH_RUNTIME_COMPUTE_NODE_INFO_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "exe_graph/runtime/runtime_attrs.h"
#include "exe_graph/runtime/storage_format.h"
#include "graph/types.h"

namespace gert {

class AnchorInstanceInfo {
 public:
  AnchorInstanceInfo() : instance_start_(0), instantiation_num_(0) {
    std::memset(reserved_, 0, sizeof(reserved_));
  }
  AnchorInstanceInfo(const uint32_t instance_start, const uint32_t instantiation_num)
      : instance_start_(instance_start), instantiation_num_(instantiation_num) {
    std::memset(reserved_, 0, sizeof(reserved_));
  }
  size_t GetInstanceNum() const { return instantiation_num_; }
  size_t GetInstanceStart() const { return instance_start_; }
  void SetInstanceStart(const uint32_t instance_start) { instance_start_ = instance_start; }
  void SetInstantiationNum(const uint32_t instantiation_num) {
    instantiation_num_ = instantiation_num;
  }

 private:
  uint32_t instance_start_;
  uint32_t instantiation_num_;
  uint8_t reserved_[40];
};
static_assert(std::is_standard_layout<AnchorInstanceInfo>::value,
              "The class AnchorInstanceInfo must be a POD");

class CompileTimeTensorDesc {
 public:
  CompileTimeTensorDesc() : data_type_(ge::DT_UNDEFINED), is_exist_(true) {
    std::memset(reserved_, 0, sizeof(reserved_));
  }
  ge::DataType GetDataType() const { return data_type_; }
  const StorageFormat& GetFormat() const { return storage_format_; }
  ge::Format GetOriginFormat() const { return storage_format_.GetOriginFormat(); }
  ge::Format GetStorageFormat() const { return storage_format_.GetStorageFormat(); }
  ExpandDimsType GetExpandDimsType() const { return storage_format_.GetExpandDimsType(); }
  void SetDataType(const ge::DataType data_type) { data_type_ = data_type; }
  void SetStorageFormat(const ge::Format format) { storage_format_.SetStorageFormat(format); }
  void SetOriginFormat(const ge::Format format) { storage_format_.SetOriginFormat(format); }
  void SetExpandDimsType(const ExpandDimsType& expand_dims_type) {
    storage_format_.SetExpandDimsType(expand_dims_type);
  }
  void SetExist(bool is_exist) { is_exist_ = is_exist; }
  bool IsExist() const { return is_exist_; }

 private:
  ge::DataType data_type_;
  StorageFormat storage_format_;
  bool is_exist_;
  uint8_t reserved_[39];
};
static_assert(std::is_standard_layout<CompileTimeTensorDesc>::value,
              "The class CompileTimeTensorDesc must be a POD");

class ComputeNodeInfo {
 public:
  const ge::char_t* GetNodeType() const;
  const ge::char_t* GetNodeName() const;
  size_t GetIrInputsNum() const;
  size_t GetIrOutputsNum() const;
  size_t GetInputsNum() const;
  size_t GetOutputsNum() const;
  const AnchorInstanceInfo* GetInputInstanceInfo(const size_t ir_index) const;
  const AnchorInstanceInfo* GetOutputInstanceInfo(const size_t ir_index) const;
  const CompileTimeTensorDesc* GetInputTdInfo(const size_t index) const;
  const CompileTimeTensorDesc* GetOutputTdInfo(const size_t index) const;
  const RuntimeAttrs* GetAttrs() const;

  ComputeNodeInfo(const ComputeNodeInfo&) = delete;
  ComputeNodeInfo(ComputeNodeInfo&&) = delete;
  ComputeNodeInfo& operator=(const ComputeNodeInfo&) = delete;
  ComputeNodeInfo& operator=(ComputeNodeInfo&&) = delete;

 protected:
  ComputeNodeInfo() = default;

 private:
  uint64_t place_holder = 0;
};

}  // namespace gert

#endif  // ASCSIM_EXE_GRAPH_RUNTIME_COMPUTE_NODE_INFO_H_
