// kernel_operator_data_copy_intf.h: DataCopy & co. (asc-devkit include/basic_api/kernel_operator_data_copy_intf.h); in ascsim kernel_operator.h.
#pragma once

#include "kernel_operator.h"
