// Which device allocations a launch may reach. On the device a block that computes its slice one
// block too far (`z + blockLength * GetBlockIdx()` with a blockLength larger than the buffer)
// writes into whatever buffer lies there; in one process of the simulator that is another
// launch's input or output, often one running on another stream. The registry alone cannot tell:
// the address is device memory. What can tell is where the address came from: a kernel reaches
// GM through the pointers it was given (and the addresses it reads from GM or from its tiling).
#include <cstring>
#include <limits>

#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/core_context.h"
#include "ascsim/runtime.h"

namespace ascsim::aicore {
namespace {

bool Holds(const GmRange& alloc, uintptr_t p) {
  return p >= reinterpret_cast<uintptr_t>(alloc.begin) &&
         p <= reinterpret_cast<uintptr_t>(alloc.end);  // one past the end resolves too
}

}  // namespace

GmState GmProvenance(const LaunchShared& launch, const void* p, const GmRange& alloc) {
  const LaunchGmArgs& args = *launch.gm_args;
  for (const void* arg : args.pointers) {
    if (Holds(alloc, reinterpret_cast<uintptr_t>(arg))) return GmState::kOwn;
  }
  // An allocation's exact start: an address read from GM (a ListTensorDesc entry, a table the
  // host wrote) or the Matmul server's scratch. An overrun lands there only by coincidence: every
  // DeviceMalloc allocation is followed by unregistered guard bytes.
  if (p == alloc.begin) return GmState::kOwn;
  for (uint64_t word : args.words) {
    if (Holds(alloc, static_cast<uintptr_t>(word))) return GmState::kOwn;
  }
  // An allocation whose start is stored in a small buffer the launch was given: a tensor of a
  // ListTensorDesc (a custom operator's dynamic input), which each block slices
  // (`GetDataPtr(i) + blockLength * GetBlockIdx()`). Read only on this path, once per
  // SetGlobalBuffer that reached a foreign-looking allocation.
  constexpr size_t kMaxTableBytes = 4096;
  if (launch.find_gm != nullptr) {
    for (const void* arg : args.pointers) {
      GmRange table;
      if (arg == nullptr || !launch.find_gm(arg, &table)) continue;
      const auto bytes = static_cast<size_t>(table.end - table.begin);
      if (bytes > kMaxTableBytes) continue;
      for (size_t at = 0; at + sizeof(uint64_t) <= bytes; at += sizeof(uint64_t)) {
        uint64_t word;
        std::memcpy(&word, table.begin + at, sizeof(word));
        if (word == reinterpret_cast<uintptr_t>(alloc.begin)) return GmState::kOwn;
      }
    }
  }
  return GmState::kForeign;
}

void FaultGmAddress(const char* call, const char* verb, const uint8_t* lo, const uint8_t* hi,
                    const GmRange& alloc, GmState state) {
  const auto at = reinterpret_cast<uintptr_t>(lo);
  if (state != GmState::kForeign) {
    Fault(ErrorKind::kOutOfBounds,
          Str(call, " ", verb, " at ", Hex(at),
              ": address is not device memory (not from aclrtMalloc, GmAlloc or a launch "
              "argument)"));
  }
  std::string detail =
      Str(call, " ", verb, " of ", hi - lo, " B at ", Hex(at),
          ": the address is inside a device "
          "allocation of ",
          alloc.end - alloc.begin, " B at ", Hex(reinterpret_cast<uintptr_t>(alloc.begin)),
          " that this launch was not given (no GM argument points into it)");
  // Name the argument whose allocation ends closest below the address: the usual cause is an
  // offset computed past its end (a length larger than the buffer, one block too many).
  const CoreContext* core = TryCurrentCore();
  if (core != nullptr && core->launch->gm_args != nullptr && core->launch->find_gm != nullptr) {
    const LaunchGmArgs& args = *core->launch->gm_args;
    uintptr_t best_gap = std::numeric_limits<uintptr_t>::max();
    size_t best = args.pointers.size();
    GmRange best_range;
    for (size_t i = 0; i < args.pointers.size(); ++i) {
      GmRange r;
      if (args.pointers[i] == nullptr || !core->launch->find_gm(args.pointers[i], &r)) continue;
      const auto end = reinterpret_cast<uintptr_t>(r.end);
      if (end <= at && at - end < best_gap) {
        best_gap = at - end;
        best = i;
        best_range = r;
      }
    }
    if (best < args.pointers.size()) {
      detail += Str("; it lies ", best_gap, " B past the end of the ",
                    best_range.end - best_range.begin, " B allocation of kernel argument index ",
                    args.param[best], " (an offset or length larger than that buffer?)");
    }
  }
  detail += "; on the device this access would reach another buffer";
  Fault(ErrorKind::kOutOfBounds, detail);
}

}  // namespace ascsim::aicore
