// CANN's per-API include path of DropOut (asc-devkit include/adv_api/filter/dropout.h; production
// kernels reach it as lib/filter/... too). ascsim's kernel_operator.h declares it
// (ascsim/adv/dropout.h).
#pragma once

#include "kernel_operator.h"
