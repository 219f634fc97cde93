// The pipe-pair lookup of set_flag / wait_flag (ascsim/aicore/cce_intrinsics.h).
#include "ascsim/aicore/cce_intrinsics.h"

#include <string>

namespace ascsim::aicore {

namespace {
const char* PipeToken(pipe_t p) {
  switch (p) {
    case PIPE_S:
      return "S";
    case PIPE_V:
      return "V";
    case PIPE_M:
      return "M";
    case PIPE_MTE1:
      return "MTE1";
    case PIPE_MTE2:
      return "MTE2";
    case PIPE_MTE3:
      return "MTE3";
    case PIPE_FIX:
      return "FIX";
    default:
      return nullptr;
  }
}
}  // namespace

AscendC::HardEvent EventOfPipes(const char* call, pipe_t src, pipe_t dst) {
  CoreContext& core = CurrentCore();
  const char* a = PipeToken(src);
  const char* b = PipeToken(dst);
  if (a != nullptr && b != nullptr) {
    const std::string want = std::string(a) + "_" + b;
    for (int e = 0; e < static_cast<int>(AscendC::HardEvent::MAX); ++e) {
      const auto event = static_cast<AscendC::HardEvent>(e);
      if (want == AscendC::HardEventName(event)) return event;
    }
  }
  (void)core;
  Fault(ErrorKind::kSyncMisuse,
        Str(call, "(pipe ", static_cast<int>(src), ", pipe ", static_cast<int>(dst),
            "): no hardware event links these pipes (use a HardEvent pair such as PIPE_MTE2 -> "
            "PIPE_V, or pipe_barrier for one pipe)"));
}

void FaultNegativeParamOffset(int64_t length) {
  Fault(ErrorKind::kInvalidArgument,
        Str("ParamOffset: the per-core length is ", length, ", which must not be negative"));
}

}  // namespace ascsim::aicore

int64_t get_para_base() {
  using namespace ascsim::aicore;
  EnterApiCall(CurrentCore());
  Fault(ascsim::ErrorKind::kInvalidArgument,
        "get_para_base: the kernel's parameter area (argument words and inline tiling, laid out by "
        "CANN's op compiler) is not simulated; take the arguments and tiling from the kernel's "
        "parameters");
}
