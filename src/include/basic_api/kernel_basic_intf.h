// basic_api/kernel_basic_intf.h (asc-devkit include/basic_api/kernel_basic_intf.h): the basic
// API; in ascsim kernel_operator.h.
#pragma once

#include "kernel_operator.h"
