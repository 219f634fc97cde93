// adv_api/utils/init_global_memory.h: InitGlobalMemory (asc-devkit include/adv_api/utils/init_global_memory.h); in ascsim kernel_operator.h (ascsim/adv/utils.h).
#pragma once

#include "kernel_operator.h"
