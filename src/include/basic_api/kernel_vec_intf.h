// basic_api/kernel_vec_intf.h: the vector basic API (asc-devkit include/basic_api/kernel_vec_intf.h); in ascsim kernel_operator.h.
#pragma once

#include "kernel_operator.h"
