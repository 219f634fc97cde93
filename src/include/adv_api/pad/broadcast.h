// adv_api/pad/broadcast.h: Broadcast / BroadCast (asc-devkit include/adv_api/pad/broadcast.h); in ascsim kernel_operator.h (ascsim/adv/broadcast.h).
#pragma once

#include "kernel_operator.h"
