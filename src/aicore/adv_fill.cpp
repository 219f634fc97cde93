// Fill(GlobalTensor, size, value): the type check (ascsim/adv/fill.h).
#include "ascsim/adv/fill.h"

namespace ascsim::aicore {

void CheckFillType(const char* type, bool a2_type) {
  CoreContext& core = CurrentCore();
  if (!a2_type && core.launch->soc->arch != 3510) {
    Fault(ErrorKind::kInvalidArgument,
          Str("Fill(GlobalTensor) of ", type, ": ", core.launch->soc->name,
              " supports uint16_t, int16_t, half, uint32_t, int32_t and float"));
  }
}

}  // namespace ascsim::aicore
