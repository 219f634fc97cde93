// debug.h: Trap.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"

namespace {

using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;

TEST(Trap, FaultsNamingTheBlock) {
  CoreFixture fx;
  EXPECT_EQ(ErrorOf([] { AscendC::Trap(); }),
            "test: block 0/1: Trap(): the kernel trapped (the device raises an AI core exception)");
}

}  // namespace
