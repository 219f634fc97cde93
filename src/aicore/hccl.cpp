// The "not simulated" error of the HCCL / MC2 names (ascsim/adv/hccl.h,
// ascsim/aicore/hccl_context.h).
#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/core_context.h"
#include "ascsim/aicore/hccl_context.h"

namespace ascsim::aicore {

void FaultHcclNotSimulated(const char* call) {
  EnterApiCall(CurrentCore());
  Fault(ErrorKind::kInvalidArgument,
        Str(call,
            ": HCCL / MC2 communication is not simulated (ascsim runs one device and no AICPU "
            "communication server); run MC2 kernels on hardware"));
}

}  // namespace ascsim::aicore
