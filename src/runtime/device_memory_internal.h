// Runtime-internal access to the device memory registry.
#pragma once

#include "ascsim/aicore/core_context.h"

namespace ascsim::runtime {
// The lookup installed into every launch (LaunchShared::find_gm).
bool FindDeviceMemory(const void* p, aicore::GmRange* out);
}  // namespace ascsim::runtime
