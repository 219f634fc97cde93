// kernel_tensor.h: LocalTensor, GlobalTensor (asc-devkit include/basic_api/kernel_tensor.h); in ascsim kernel_operator.h.
#pragma once

#include "kernel_operator.h"
