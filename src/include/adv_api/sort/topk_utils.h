// CANN's include paths of TopK (asc-devkit include/adv_api/sort/{topk.h, kernel_operator_topk_intf.h,
// topk_utils.h}; older trees reach the sort APIs as lib/sort/...). ascsim's kernel_operator.h
// declares it (ascsim/adv/topk.h).
#pragma once

#include "kernel_operator.h"
