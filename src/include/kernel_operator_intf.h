// kernel_operator_intf.h: the basic-API interface header of CANN's tikcfw/interface (asc-devkit include/basic_api/kernel_operator_intf.h); ascsim's kernel_operator.h declares the whole API.
#pragma once

#include "kernel_operator.h"
