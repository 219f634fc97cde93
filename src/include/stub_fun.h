// The CCE intrinsics for CPU-debug builds (CANN tools/cpudebug/lib/include; see stub_def.h): in
// ascsim, the intrinsic names it simulates (kernel_operator.h declares them).
#pragma once

#include "kernel_operator.h"
