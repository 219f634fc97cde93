// CANN's include paths of Pad / UnPad (asc-devkit include/adv_api/pad/{pad.h,
// kernel_operator_pad_intf.h}; older trees and ops-nn kernels reach them as lib/pad/...).
// ascsim's kernel_operator.h declares them (ascsim/adv/pad.h).
#pragma once

#include "kernel_operator.h"
