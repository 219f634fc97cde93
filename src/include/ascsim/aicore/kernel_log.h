// KERNEL_LOG and ASCENDC_ASSERT, the kernel-side log and check macros of Ascend C (asc-devkit
// impl/utils/debug/kernel_log.h, "kernel_log.h"): KERNEL_LOG(KERNEL_ERROR, fmt, ...) pastes the
// level into KERNEL_LOG_KERNEL_ERROR, which CANN's CPU-debug build prints as
// "[ERROR][Block_<i>][<AIC|AIV|MIX>_<sub block>][<file>:<line>][<function>][<pid>] <message>";
// ASCENDC_ASSERT(cond, behavior) runs `behavior` (usually a KERNEL_LOG) when `cond` is false and
// then raises SIGABRT. On the device both expand to nothing.
//
// ascsim keeps them on in every mode, as the CPU-debug build has them: a KERNEL_LOG line goes to
// the block's print channel ("[block i] [ERROR][Block_i]..."), and a failed ASCENDC_ASSERT faults
// the block with the condition, file and line where CANN's CPU mode would kill the process.
// The level is taken by name, so a misspelt level (production code has KERNEL_EORROR, which the
// device build never sees) still compiles and prints under the name written.
#pragma once

#include <cstdint>
#include <string>

#include "ascsim/aicore/kernel_print.h"

namespace AscendC {
enum class LogLevel : uint8_t {
  KERNEL_DEBUG = 0,
  KERNEL_INFO = 1,
  KERNEL_WARN = 2,
  KERNEL_ERROR = 3,
};
}  // namespace AscendC

namespace ascsim::aicore {
// Writes one KERNEL_LOG line (kernel_print.cpp); outside a kernel it goes straight to stdout.
void KernelLogLine(const char* level_name, const char* file, unsigned line, const char* function,
                   const std::string& message);
// A failed ASCENDC_ASSERT: faults the running block, or aborts outside a kernel as CANN does.
[[noreturn]] void AscendcAssertFailed(const char* cond, const char* file, unsigned line,
                                      const char* function);
}  // namespace ascsim::aicore

#ifndef KERNEL_LOG
#define KERNEL_LOG(level, format, ...)                                                       \
  ::ascsim::aicore::KernelLogLine(#level, __FILE__, __LINE__, __FUNCTION__,                  \
                                  ::ascsim::aicore::FormatKernelPrintf(format, ##__VA_ARGS__))
#endif

#ifndef ASCENDC_ASSERT
#define ASCENDC_ASSERT(cond, behavior)                                                    \
  do {                                                                                    \
    if (!(cond)) {                                                                        \
      behavior;                                                                           \
      ::ascsim::aicore::AscendcAssertFailed(#cond, __FILE__, __LINE__, __FUNCTION__);     \
    }                                                                                     \
  } while (0)
#endif
