// The system workspace of the high-level APIs: SetSysWorkspace / GetSysWorkSpacePtr and
// GetUserWorkspace (asc-devkit docs "GetSysWorkSpacePtr", "SetSysWorkspace", "GetUserWorkspace").
// The host reserves PlatformAscendC::GetLibApiWorkSpaceSize() bytes (16 MiB) at the start of the
// workspace it passes; the user part follows. ascsim's Matmul needs no system workspace, so a
// kernel that never calls SetSysWorkspace gets a small device buffer of the simulator's own.
#pragma once

#include <cstdint>

#include "ascsim/aicore/core_context.h"
#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/types.h"

namespace ascsim::aicore {
constexpr uint64_t kLibApiWorkspaceBytes = 16ull * 1024 * 1024;
// The device buffer GetSysWorkSpacePtr returns when the kernel set none (allocated once).
uint8_t* DefaultSysWorkspace();
}  // namespace ascsim::aicore

namespace AscendC {

inline void SetSysWorkspace(GM_ADDR workspace) {
  ascsim::aicore::CurrentCore().sys_workspace = workspace;
}
inline GM_ADDR GetSysWorkSpacePtr() {
  ascsim::aicore::CoreContext& core = ascsim::aicore::CurrentCore();
  return core.sys_workspace != nullptr ? core.sys_workspace : ascsim::aicore::DefaultSysWorkspace();
}
inline GM_ADDR GetUserWorkspace(GM_ADDR workspace) {
  return workspace == nullptr ? nullptr : workspace + ascsim::aicore::kLibApiWorkspaceBytes;
}

}  // namespace AscendC
