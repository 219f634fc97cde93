// kernel_operator_atomic_intf.h: SetAtomic* (asc-devkit include/basic_api/kernel_operator_atomic_intf.h); in ascsim kernel_operator.h.
#pragma once

#include "kernel_operator.h"
