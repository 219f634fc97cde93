// lib/pad/broadcast.h: Broadcast / BroadCast, under the install path of CANN's lib/ (asc-devkit include/adv_api/pad/broadcast.h); in ascsim kernel_operator.h.
#pragma once

#include "kernel_operator.h"
