// The GM side of a copy's call record, for the cost model: where the copy's first GM byte would
// lie on the device, the GM tensor's L2 cache hint, and the rows it touches (transfer
// efficiency, L2 lines, same-address and unaligned-row effects). One place for the vector copies
// (data_copy.h WithGm) and the cube's (cube_copy.h: ND2NZ, GM <-> L1, Fixpipe into GM).
#pragma once

#include <cstdint>

#include "ascsim/aicore/global_tensor.h"
#include "ascsim/aicore/tensor_access.h"
#include "ascsim/trace.h"

namespace ascsim::aicore {

// The address a copy record gives the cost model for GM byte `gm`: where it would lie on the
// device, whose allocations (aclrtMalloc, GmAlloc) start on 512 B boundaries
// (kModelGmAlignment). Host memory a launch reads in place (a NumPy input) may start anywhere;
// its offsets from the allocation's start are kept, so a row that starts off a 512 B line on the
// device does here too, whatever malloc gave the array (the cost model charges such rows an HBM
// line more, docs/calibration.md). `alloc_begin`: the start of the allocation `gm` lies in, as
// the GlobalTensor found it (TensorAccess::AllocBegin; nullptr: not device memory).
constexpr uint64_t kModelGmAlignment = 512;
inline uint64_t ModelGmAddress(const void* gm, const void* alloc_begin) {
  const auto addr = reinterpret_cast<uintptr_t>(gm);
  return alloc_begin == nullptr
             ? addr
             : addr - reinterpret_cast<uintptr_t>(alloc_begin) % kModelGmAlignment;
}

// What a copy's record needs of its GM tensor: the start of its device allocation and its L2
// cache hint (SetL2CacheHint; CACHE_MODE_DISABLE: the copy goes around L2).
struct GmSide {
  const uint8_t* alloc_begin = nullptr;
  trace::L2Mode l2_mode = trace::L2Mode::kNormal;
};
template <class T>
GmSide GmSideOf(const AscendC::GlobalTensor<T>& t) {
  return GmSide{TensorAccess::AllocBegin(t),
                static_cast<trace::L2Mode>(static_cast<uint8_t>(t.cacheMode_))};
}

// Fills `call`'s GM side: `rows` rows of `run` bytes, `pitch` bytes apart, from GM byte `first`.
inline void SetGmSide(trace::ApiCall& call, const void* first, const GmSide& gm, uint64_t rows,
                      uint64_t run, uint64_t pitch) {
  call.gm_addr = ModelGmAddress(first, gm.alloc_begin);
  call.l2_mode = gm.l2_mode;
  call.gm_rows = static_cast<uint32_t>(rows);
  call.gm_run = static_cast<uint32_t>(run);
  call.gm_pitch = pitch;
}

}  // namespace ascsim::aicore
