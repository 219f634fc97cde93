// kernel_operator_fixpipe_intf.h: Fixpipe (asc-devkit include/basic_api/kernel_operator_fixpipe_intf.h); in ascsim kernel_operator.h.
#pragma once

#include "kernel_operator.h"
