// basic_api/kernel_operator_block_sync_intf.h (asc-devkit include/basic_api/
// kernel_operator_block_sync_intf.h): SetFlag / WaitFlag / PipeBarrier; in ascsim
// kernel_operator.h.
#pragma once

#include "kernel_operator.h"
