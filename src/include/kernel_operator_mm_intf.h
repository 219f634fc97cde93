// kernel_operator_mm_intf.h: LoadData / Mmad (asc-devkit include/basic_api/kernel_operator_mm_intf.h); in ascsim kernel_operator.h.
#pragma once

#include "kernel_operator.h"
