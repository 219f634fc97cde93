// GetTPipePtr() at global scope, as CANN declares it (kernels call it unqualified), and the same
// pipe through AscendC::GetTPipePtr.
#include <gtest/gtest.h>

#include <atomic>

#include "ascsim/kernel_launcher.h"
#include "kernel_operator.h"

namespace {
std::atomic<int> g_same{0};
}  // namespace

extern "C" __global__ __aicore__ void tpipe_global_custom() {
  AscendC::TPipe pipe;
  AscendC::TPipe* unqualified = GetTPipePtr();
  AscendC::TPipe* global = ::GetTPipePtr();
  AscendC::TPipe* qualified = AscendC::GetTPipePtr();
  if (unqualified == &pipe && global == &pipe && qualified == &pipe) g_same++;
}

TEST(TPipeGlobal, GetTPipePtrIsAGlobalFunctionAndInAscendC) {
  g_same = 0;
  ascsim::MakeKernelLauncher("tpipe_global_custom", &tpipe_global_custom).Run(4, nullptr);
  EXPECT_EQ(g_same.load(), 4);
}
