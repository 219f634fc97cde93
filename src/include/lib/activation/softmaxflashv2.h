// CANN's include path of SoftmaxFlashV2 (asc-devkit include/adv_api/activation/softmaxflashv2.h;
// older trees reach the activation APIs as lib/activation/...). ascsim's kernel_operator.h
// declares it (ascsim/adv/softmax_flashv2.h).
#pragma once

#include "kernel_operator.h"
