// Runtime-internal access to the device memory registry.
#pragma once

#include "ascsim/gm_range.h"

namespace ascsim::runtime {
// The lookup installed into every launch (LaunchShared::find_gm).
bool FindDeviceMemory(const void* p, GmRange* out);
}  // namespace ascsim::runtime
