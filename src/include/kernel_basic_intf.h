// kernel_basic_intf.h: the basic-API interface of asc-devkit include/basic_api/kernel_basic_intf.h; in ascsim kernel_operator.h.
#pragma once

#include "kernel_operator.h"
