// ASCSIM_TRACE=path.json traces every launch of any program: ACL programs too (aclInit installs
// it, as the CPU-twin macros and the Python module do).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "acl/acl.h"
#include "ascsim/runtime.h"
#include "host/env_trace.h"
#include "kernel_operator.h"

namespace {

TEST(AclTrace, AscsimTraceIsHonouredByAclPrograms) {
  // A fresh process: the trace hook is installed once per process.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const std::string path = ::testing::TempDir() + "ascsim_acl_trace_test.json";
  std::remove(path.c_str());
  EXPECT_EXIT(
      {
        setenv("ASCSIM_TRACE", path.c_str(), 1);
        if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) std::_Exit(2);
        ascsim::Launch("acl_traced_kernel", 2, [] {
          AscendC::TPipe pipe;
          AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
          pipe.InitBuffer(buf, 256);
          AscendC::Duplicate(buf.Get<float>(), 1.0f, 64);
        });
        aclFinalize();
        ascsim::host::FlushEnvTrace();
        std::ifstream in(path);
        std::stringstream text;
        text << in.rdbuf();
        std::_Exit(text.str().find("acl_traced_kernel") != std::string::npos ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
  std::remove(path.c_str());
}

}  // namespace
