// The out-of-line part of ascsim/aicore/kernel_utils.h.
#include "ascsim/aicore/kernel_utils.h"

#include "ascsim/aicore/checks.h"

namespace ascsim::aicore {

void FaultInt4Tensor(const char* call) {
  Fault(ErrorKind::kInvalidArgument,
        Str(call, ": int4 tensors (two elements per byte) are not simulated by ascsim"));
}

void FaultZeroDivisor(const char* api) {
  Fault(ErrorKind::kInvalidArgument,
        Str(api, ": the divisor is 0 (the device would divide by zero)"));
}

}  // namespace ascsim::aicore
