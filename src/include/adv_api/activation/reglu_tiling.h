// CANN's include path of ReGlu's host temporary sizes (asc-devkit
// include/adv_api/activation/reglu_tiling.h): GetReGluMaxMinTmpSize (tiling/activation_tiling.h).
#pragma once

#include "tiling/activation_tiling.h"
