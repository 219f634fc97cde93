// Workspace and GM initialisation (docs 基础API/资源管理/临时空间管理/workspace; InitOutput):
//   GetUserWorkspace, SetSysWorkspace(Force), GetSysWorkSpacePtr, InitOutput
// Sources: asc-devkit include/basic_api/kernel_operator_{common,cache,scalar,sys_var,vec_vconv,
// vec_reduce}_intf.h, impl/basic_api/dav_c220/kernel_operator_common_impl.h,
// impl/basic_api/kernel_operator_common_intf_impl.h (InitOutput), impl/basic_api/kernel_scalar*.h,
// impl/basic_api/kernel_utils_base.h (AscendCUtils), impl/basic_api/utils/kernel_utils_constants.h
// (RESERVED_WORKSPACE) and the API pages under docs/zh/api/SIMD-API/基础API/
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ascsim/aicore/cache_types.h"
#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/core_context.h"
#include "ascsim/aicore/data_copy.h"
#include "ascsim/aicore/global_tensor.h"
#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/local_tensor.h"
#include "ascsim/aicore/tensor_access.h"
#include "ascsim/aicore/types.h"
#include "ascsim/aicore/vector_masked.h"

namespace ascsim::aicore {

// The system workspace the device reserves in front of the user workspace: 16 MiB on A2/A3
// (2201), 2 MiB on the 310P (2002) (kernel_utils_constants.h RESERVED_WORKSPACE; the host's
// PlatformAscendC::GetLibApiWorkSpaceSize gives the same sizes).
uint64_t ReservedWorkspaceBytes(const SocProfile& soc);

uint8_t* UserWorkspaceImpl(uint8_t* workspace);
void SetSysWorkspaceImpl(uint8_t* workspace, bool force);
// InitOutput's checks (A2 only; needs UB above the TPipe's buffers) and its call records.
uint64_t InitOutputBurst(const char* call, uint64_t elem_bytes);
void RecordInitOutput(CoreContext& core, uint64_t elem_bytes, uint64_t count, uint64_t burst);

}  // namespace ascsim::aicore

namespace AscendC {

// ---------------------------------------------------------------- workspace
// The device returns the system workspace + the reserved system workspace size (16 MiB on A2):
// the system workspace is the one SetSysWorkspace set (the custom-operator framework sets it to
// the launch's workspace before the kernel runs), else `workspace`. ascsim does the same, so a host
// that sized the workspace without GetLibApiWorkSpaceSize() gets a warning here and a fault at the
// first access past its allocation (CPU-debug CANN returns `workspace` itself and so hides that
// bug). A null workspace with no system workspace set faults, as the CPU-debug assertion does.
inline GM_ADDR GetUserWorkspace(GM_ADDR workspace) {
  return ascsim::aicore::UserWorkspaceImpl(workspace);
}
// Sets the system workspace pointer GetSysWorkSpacePtr() returns, once per block (later calls keep
// the first, as g_sysWorkspaceReserved on the device); the Force form always sets it.
inline void SetSysWorkspace(GM_ADDR workspace) {
  ascsim::aicore::SetSysWorkspaceImpl(workspace, false);
}
inline void SetSysWorkspaceForce(GM_ADDR workspace) {
  ascsim::aicore::SetSysWorkspaceImpl(workspace, true);
}
// nullptr until SetSysWorkspace (kernel-direct launches have no framework to set it).
inline __gm__ uint8_t* GetSysWorkSpacePtr() {
  ascsim::aicore::CoreContext& core = ascsim::aicore::CurrentCore();
  ascsim::aicore::EnterApiCall(core);
  return core.sys.sys_workspace;
}
// ---------------------------------------------------------------- InitOutput
// Fills `size` elements of GM from the tensor's start with `value` (the device duplicates `value`
// into the free UB above the TPipe's buffers and copies it out with DataCopyPad, MTE3, so atomic
// modes apply). A2/A3 only: on the 310P the device does nothing, which ascsim reports. Deprecated
// in favour of Fill; kept because production kernels use it.
template <class T>
void InitOutput(GlobalTensor<T> gmWorkspaceAddr, uint32_t size, T value = 0) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const uint64_t burst = ai::InitOutputBurst("InitOutput", sizeof(T));
  if (size == 0) return;
  // Two cores filling the same bytes with zeros leave them as either would alone: the sanitizer
  // logs a zero fill as a kind of its own, which commutes with itself (official samples zero
  // their output on every AIV before a SyncAll, e.g. Ascend/samples MatmulABshare).
  core.sys.gm_zero_fill = value == T(0);
  T* d = ai::TensorAccess::CheckedAddress(gmWorkspaceAddr, "InitOutput", "write", 0, size);
  core.sys.gm_zero_fill = false;
  T chunk[256];  // one burst of the duplicated UB buffer is at most 255 blocks; fill in pieces
  constexpr uint64_t kChunk = sizeof(chunk) / sizeof(T);
  for (uint64_t i = 0; i < kChunk; ++i) chunk[i] = value;
  for (uint64_t done = 0; done < size; done += kChunk) {
    const uint64_t n = size - done < kChunk ? size - done : kChunk;
    ai::StoreToGm("InitOutput", d + done, chunk, n);
  }
  ai::RecordInitOutput(core, sizeof(T), size, burst);
}

}  // namespace AscendC
