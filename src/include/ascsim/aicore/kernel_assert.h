// The kernel assert of Ascend C (asc-devkit docs 调试接口/异常检测/assert, include/utils/debug/
// asc_assert.h): assert(expr) and assert(expr, fmt, args...), also spelled ascendc_assert. A
// failed assertion in a kernel prints "[ASSERT] <file>:<line>: <function>: Assertion `<expr>'
// failed. <message>" on the block's output, as the device's print channel does, and stops the
// block with that line as its fault (the device traps; CANN's CPU mode aborts the process, which
// ascsim never does). Outside a kernel it is the C library's assert. NDEBUG, or ASCENDC_DUMP=0,
// turns it off, as in CANN.
#pragma once

#include <cassert>
#include <string>

#include "ascsim/aicore/core_context.h"
#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/kernel_print.h"

namespace ascsim::aicore {
// Prints the assertion line (and `message`) and faults the block (kernel_print.cpp).
[[noreturn]] void KernelAssertFailed(const char* expr, const char* file, unsigned line,
                                     const char* function, const char* message);
// The C library's failure outside a kernel: the message on stderr, then abort().
[[noreturn]] void HostAssertFailed(const char* expr, const char* file, unsigned line,
                                   const char* function);

inline void KernelAssert(bool ok, const char* expr, const char* file, unsigned line,
                         const char* function) {
  if (ok) return;
  if (TryCurrentCore() == nullptr) HostAssertFailed(expr, file, line, function);
  KernelAssertFailed(expr, file, line, function, "");
}
template <class... Args>
void KernelAssert(bool ok, const char* expr, const char* file, unsigned line, const char* function,
                  const char* fmt, const Args&... args) {
  if (ok) return;
  if (TryCurrentCore() == nullptr) HostAssertFailed(expr, file, line, function);
  KernelAssertFailed(expr, file, line, function, FormatKernelPrintf(fmt, args...).c_str());
}
}  // namespace ascsim::aicore

#undef assert
#undef ascendc_assert
#if !(defined(ASCENDC_DUMP) && ASCENDC_DUMP == 0) && !defined(NDEBUG)
#define ASCSIM_ASSERT_ARGS(expr, ...) \
  ::ascsim::aicore::KernelAssert(static_cast<bool>(expr), #expr, __FILE__, __LINE__, \
                                 __PRETTY_FUNCTION__, ##__VA_ARGS__)
#define assert(...) ASCSIM_ASSERT_ARGS(__VA_ARGS__)
#define ascendc_assert(...) ASCSIM_ASSERT_ARGS(__VA_ARGS__)
#else
#define assert(...) static_cast<void>(0)
#define ascendc_assert(...) static_cast<void>(0)
#endif
