// CANN's per-API include path of DropOut (asc-devkit include/adv_api/filter/kernel_operator_dropout_intf.h; production
// kernels reach it as lib/filter/... too). ascsim's kernel_operator.h declares it
// (ascsim/adv/dropout.h).
#pragma once

#include "kernel_operator.h"
