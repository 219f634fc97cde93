// Out-of-line checks of ascsim/aicore/ub_movement.h.
#include "ascsim/aicore/ub_movement.h"

namespace ascsim::aicore {

void CheckCopyRepeatParams(const AscendC::CopyRepeatParams& p) {
  if (p.dstRepeatSize > kMaxCopyRepeatSize || p.srcRepeatSize > kMaxCopyRepeatSize) {
    Fault(ErrorKind::kInvalidArgument,
          Str("Copy: dstRepeatSize ", p.dstRepeatSize, " / srcRepeatSize ", p.srcRepeatSize,
              " is outside [0, ", kMaxCopyRepeatSize, "] (CopyRepeatParams)"));
  }
}

}  // namespace ascsim::aicore
