// kernel_tpipe.h: TPipe, TQue, TBuf (asc-devkit include/basic_api/kernel_tpipe.h); in ascsim kernel_operator.h.
#pragma once

#include "kernel_operator.h"
