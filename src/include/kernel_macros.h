// CANN installs its internal impl/basic_api/kernel_macros.h (ASSERT, the queue-count limits, the
// kernel qualifier spellings) on the kernel include path (asc-devkit impl/basic_api/CMakeLists.txt
// links it into include/basic_api/impl/), and production kernels include it by name
// (ops-transformer flash_attention_score_grad basic_modules/common_header.h). ascsim's
// kernel_operator.h declares what it defines.
#pragma once

#include "kernel_operator.h"
