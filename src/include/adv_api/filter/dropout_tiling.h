// CANN's include path of DropOut's host temporary sizes (asc-devkit
// include/adv_api/filter/dropout_tiling.h): GetDropOutMaxMinTmpSize (tiling/dropout_tiling.h).
#pragma once

#include "tiling/dropout_tiling.h"
