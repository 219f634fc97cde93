// TQueSync<src, dst>: SetFlag / WaitFlag between two pipes named by pipe_t rather than by a
// HardEvent (TQueSync<PIPE_MTE2, PIPE_V>().SetFlag(id) is SetFlag<HardEvent::MTE2_V>(id)).
//
// Source: asc-devkit include/basic_api/kernel_operator_block_sync_intf.h (declaration) and
// impl/basic_api/kernel_tquesync_impl.h (set_flag / wait_flag on the pipe pair; src == dst does
// not compile). A pipe pair with no HardEvent faults at the call, as set_flag does here.
#pragma once

#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/cce_intrinsics.h"
#include "ascsim/aicore/sync.h"
#include "ascsim/aicore/tpipe.h"

namespace AscendC {

template <pipe_t src, pipe_t dst>
class TQueSync {
 public:
  static_assert(src != dst, "src/dst pipe cannot be same.");
  void SetFlag(TEventID id) {
    ascsim::aicore::SetFlagImpl(ascsim::aicore::EventOfPipes("TQueSync::SetFlag", src, dst), id);
  }
  void WaitFlag(TEventID id) {
    ascsim::aicore::WaitFlagImpl(ascsim::aicore::EventOfPipes("TQueSync::WaitFlag", src, dst), id);
  }
};

}  // namespace AscendC
