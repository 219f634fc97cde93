// CANN's per-API include path of an advanced API; ascsim's kernel_operator.h declares them all.
#pragma once

#include "kernel_operator.h"
