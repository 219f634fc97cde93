// utils/debug/asc_printf.h: printf in kernel code without kernel_operator.h (asc-devkit
// include/utils/debug/asc_printf.h; its hello_world example includes only this and acl/acl.h).
// bisheng resolves a kernel's printf to the device's print channel; here a printf with arguments
// inside a kernel goes to AscendC::printf (lines tagged with the block), and any other printf is
// the C library's.
#pragma once

#include <cstdio>
#include <utility>

#include "kernel_operator.h"

template <class... Args>
inline int printf(const char* fmt, Args&&... args) {
  if (::ascsim::aicore::TryCurrentCore() != nullptr) {
    AscendC::printf(fmt, std::forward<Args>(args)...);
    return 0;
  }
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-security"
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  return std::printf(fmt, ::ascsim::aicore::PrintfArg(args)...);
#pragma GCC diagnostic pop
}
