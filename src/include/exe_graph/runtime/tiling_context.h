// gert::TilingContext (CANN metadef inc/external/exe_graph/runtime/tiling_context.h): what a
// TilingFunc(gert::TilingContext*) reads (input/output shapes and tensors, attributes, the SoC's
// platform info) and writes (tiling key, block dim, schedule mode, the tiling data, workspace
// sizes). Setters return GRAPH_SUCCESS; getters of values never set return CANN's defaults.
#ifndef ASCSIM_EXE_GRAPH_RUNTIME_TILING_CONTEXT_H_
#define ASCSIM_EXE_GRAPH_RUNTIME_TILING_CONTEXT_H_

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "exe_graph/runtime/continuous_vector.h"
#include "exe_graph/runtime/extended_kernel_context.h"
#include "exe_graph/runtime/runtime_tensor.h"
#include "exe_graph/runtime/storage_shape.h"
#include "exe_graph/runtime/tiling_data.h"
#include "graph/types.h"

namespace fe {
class PlatFormInfos;
}  // namespace fe

namespace gert {

struct Dim3 {
  uint32_t x, y, z;
  Dim3(const uint32_t dim3_x, const uint32_t dim3_y = 1, const uint32_t dim3_z = 1)  // NOLINT
      : x(dim3_x), y(dim3_y), z(dim3_z) {}
};

class TilingContext : public ExtendedKernelContext {
 public:
  // The compile info TilingParse made (nullptr when the operator registers none).
  const void* GetCompileInfo() const;
  template <typename T>
  const T* GetCompileInfo() const {
    return reinterpret_cast<const T*>(GetCompileInfo());
  }
  const StorageShape* GetInputShape(const size_t index) const;
  const Tensor* GetInputTensor(const size_t index) const;
  const Tensor* GetOptionalInputTensor(const size_t ir_index) const;
  const Tensor* GetDynamicInputTensor(const size_t ir_index, const size_t relative_index) const;
  const StorageShape* GetOptionalInputShape(const size_t ir_index) const;
  const Tensor* GetRequiredInputTensor(const size_t ir_index) const;
  const StorageShape* GetRequiredInputShape(const size_t ir_index) const;
  const StorageShape* GetDynamicInputShape(const size_t ir_index,
                                           const size_t relative_index) const;
  const StorageShape* GetOutputShape(const size_t index) const;

  ge::graphStatus SetTilingKey(const uint64_t tiling_key);
  uint64_t GetTilingKey() const;
  ge::graphStatus SetScheduleMode(const uint32_t schedule_mode);
  uint32_t GetScheduleMode() const;
  ge::graphStatus SetBlockDim(const uint32_t block_dim);
  ge::graphStatus SetSimdNumBlocks(const uint32_t num_blocks);
  uint32_t GetBlockDim() const;
  uint32_t GetSimdNumBlocks() const;
  ge::graphStatus SetAicpuBlockDim(uint32_t block_dim);
  ge::graphStatus SetAicpuNumBlocks(uint32_t num_blocks);
  uint32_t GetAicpuBlockDim() const;
  uint32_t GetAicpuNumBlocks() const;
  ge::graphStatus SetTilingCond(int32_t tiling_cond);
  int32_t GetTilingCond() const;
  ge::graphStatus SetNeedAtomic(const bool atomic);
  bool NeedAtomic() const;

  // The tiling data as a T (plain C++ tiling structs): sets the data size to sizeof(T); nullptr
  // when T does not fit the capacity.
  template <typename T>
  T* GetTilingData() {
    TilingData* tiling_data = GetRawTilingData();
    if (tiling_data == nullptr || tiling_data->GetCapacity() < sizeof(T)) return nullptr;
    tiling_data->SetDataSize(sizeof(T));
    return static_cast<T*>(tiling_data->GetData());
  }
  TilingData* GetRawTilingData();
  // Room for `workspace_count` workspace sizes (bytes each), nullptr past the capacity (16).
  size_t* GetWorkspaceSizes(const size_t workspace_count);
  size_t GetWorkspaceNum() const;
  fe::PlatFormInfos* GetPlatformInfo() const;
  int32_t GetDeterministic() const;
  int32_t GetDeterministicLevel() const;
  ge::graphStatus SetLocalMemorySize(const uint32_t local_memory_size);
  uint32_t GetLocalMemorySize() const;

 protected:
  explicit TilingContext(void* call) : ExtendedKernelContext(call) {}
};
static_assert(std::is_standard_layout<TilingContext>::value,
              "The class TilingContext must be a POD");

}  // namespace gert

#endif  // ASCSIM_EXE_GRAPH_RUNTIME_TILING_CONTEXT_H_
