// The CCE intrinsics for CPU-debug builds (CANN tools/cpudebug/lib/include; see stub_def.h): in
// ascsim, the intrinsic names it simulates.
#pragma once

#include "ascsim/aicore/cce_intrinsics.h"
