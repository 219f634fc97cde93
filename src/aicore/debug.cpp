// Out-of-line part of ascsim/aicore/debug.h.
#include "ascsim/aicore/debug.h"

#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/core_context.h"

namespace AscendC {

void Trap() {
  ascsim::aicore::CoreContext& core = ascsim::aicore::CurrentCore();
  ascsim::aicore::EnterApiCall(core);
  ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                        "Trap(): the kernel trapped (the device raises an AI core exception)");
}

}  // namespace AscendC
