// adv_api/index/arithprogression.h: ArithProgression / Arange (asc-devkit include/adv_api/index/arithprogression.h); in ascsim kernel_operator.h (ascsim/adv/index.h).
#pragma once

#include "kernel_operator.h"
