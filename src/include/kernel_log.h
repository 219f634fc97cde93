// CANN's log header by the name production kernels and their unit tests include
// (`#include "kernel_log.h"`: asc-devkit impl/basic_api/kernel_log.h, on the include path of
// CANN's kernel compiles; ops-nn and ops-transformer kernel UTs use it). KERNEL_LOG and
// ASCENDC_ASSERT are ascsim/aicore/kernel_log.h's.
#pragma once

#include "kernel_operator.h"
