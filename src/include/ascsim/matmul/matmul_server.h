// Where a Matmul object does its cube work (docs/cube.md, "Matmul in mix kernels"):
//  - on its own core when that core has the cube unit (an AIC, a whole AI core);
//  - on the AIC of its block when it lives on an AIV of a mix kernel (REGIST_MATMUL_OBJ without
//    ASCENDC_CUBE_ONLY): the AIV is the client, the AIC the server. Each AIV client gets its own
//    AIC-side context (its L1/L0 buffers, the AIC's trace); requests run one at a time, in the
//    order the device's AIC polls its clients' message queues (in turn), and only once the AIC
//    has reached REGIST_MATMUL_OBJ.
#pragma once

#include <memory>

#include "ascsim/aicore/core_context.h"
#include "ascsim/aicore/internal.h"

namespace ascsim::aicore {

// The AIC-side context of a Matmul client on `core` (an AIV of a mix block); null when `core`
// runs its Matmul itself. Faults on an AIV that has no AIC (not a mix kernel).
CoreContext* MatmulServerFor(CoreContext& core, const char* call);
// REGIST_MATMUL_OBJ on the AIC of a mix block: the server is ready for its AIVs.
void MatmulServerReady(CoreContext& aic);
// True on the AIC of a mix block (where REGIST_MATMUL_OBJ leaves the kernel to serve).
bool IsMixAic(const CoreContext& core);

// A and B both ibShare: AIV 0's IterateAll computes C for both clients and AIV 1 posts no
// request (asc-devkit matmul_client.h PostMessage); AIV 1's IterateAll waits for the result the
// AIC then signals. SharedResultDone: AIV 0's request of one such IterateAll ended.
// AwaitSharedResult: AIV 1 waits for AIV 0's `nth` (1-based) result; faults when AIV 0 left the
// kernel before it (the device would hang).
void MatmulSharedResultDone(CoreContext* server);
void MatmulAwaitSharedResult(CoreContext* server, uint64_t nth);

// While alive, this thread runs as `server` (null: stays on its own core), holding the AIC for
// itself. Waits until the AIC has registered (faults when it never will) and until the AIC takes
// this client's request: in turn with the block's other client, passing over one that cannot post.
class MatmulServerScope {
 public:
  explicit MatmulServerScope(CoreContext* server);
  ~MatmulServerScope();
  MatmulServerScope(const MatmulServerScope&) = delete;
  MatmulServerScope& operator=(const MatmulServerScope&) = delete;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace ascsim::aicore
