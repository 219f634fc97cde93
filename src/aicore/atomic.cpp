#include "ascsim/aicore/atomic.h"

namespace ascsim::aicore {

const char* AtomicOpName(AtomicOp op) {
  switch (op) {
    case AtomicOp::kAdd: return "Add";
    case AtomicOp::kMax: return "Max";
    case AtomicOp::kMin: return "Min";
    case AtomicOp::kNone: break;
  }
  return "None";
}

void SetAtomicMode(AtomicOp op, const char* type_name, bool supported) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  if (op != AtomicOp::kNone) {
    // Atlas inference (310P) combines float/half/int16_t only; A2 adds int8_t/int32_t/bfloat16_t.
    const std::string t = type_name;
    const bool on_310p = core.launch->soc->arch == 2002;
    if (!supported || (on_310p && t != "float" && t != "half" && t != "int16_t")) {
      Fault(ErrorKind::kInvalidArgument,
            Str("SetAtomic", AtomicOpName(op), "<", type_name, ">: ", core.launch->soc->name,
                " cannot combine ", type_name, " atomically (",
                on_310p ? "float, half, int16_t" : "float, half, bfloat16_t, int8_t, int16_t, int32_t",
                ")"));
    }
  }
  core.sys.atomic_op = static_cast<uint8_t>(op);
  core.sys.atomic_type = type_name;
}

}  // namespace ascsim::aicore
