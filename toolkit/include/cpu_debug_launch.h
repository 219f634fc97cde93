// cpu_debug_launch.h: what asc-devkit's CPU-debug mode includes in sources that launch kernels
// with <<<>>> (#ifdef ASCENDC_CPU_DEBUG / #include "cpu_debug_launch.h"). With ascsim every mode
// rewrites <<<>>> the same way (ascsim-launch-transform), so this only brings in the launch glue.
#pragma once

#include "ascsim/acl_launch.h"
