// kernel_event.h: HardEvent, TEventID (asc-devkit impl/basic_api/kernel_event.h); in ascsim kernel_operator.h.
#pragma once

#include "kernel_operator.h"
