// impl/dav_c220/kernel_operator_reg_others_impl.h: A2 register intrinsics wrappers (asc-devkit impl/basic_api/dav_c220/kernel_operator_reg_others_impl.h); CANN's CPU-debug build compiles none of them (#ifndef ASCENDC_CPU_DEBUG), so this header only brings kernel_operator.h.
#pragma once

#include "kernel_operator.h"
