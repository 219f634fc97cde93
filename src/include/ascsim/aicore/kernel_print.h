// printf / PRINTF and DumpTensor from kernels (the CPU-debug behaviour of the device's Dump
// channel). Each output line is tagged with its block, "[block 3] ...", and whole lines are
// written to stdout under one process-wide lock, so lines from concurrent blocks never mix. Text
// without a trailing newline is held per block until the line completes or the block ends.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <type_traits>

#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/global_tensor.h"
#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/local_tensor.h"
#include "ascsim/aicore/tensor_access.h"

namespace ascsim::aicore {

// Appends `text` to the current block's output and writes every completed line.
void KernelPrint(std::string_view text);
// Writes the block's unfinished line (called when the block ends).
void FlushKernelPrint(CoreContext& core);

// Variadic arguments as C's printf wants them: half and bfloat16_t print through %f as double.
template <class A>
auto PrintfArg(const A& a) {
  using D = std::decay_t<A>;
  if constexpr (std::is_same_v<D, half> || std::is_same_v<D, bfloat16_t> ||
                std::is_same_v<D, float>) {
    return static_cast<double>(static_cast<float>(a));
  } else {
    return a;
  }
}

template <class... Args>
std::string FormatKernelPrintf(const char* fmt, const Args&... args) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-security"
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  const int n = std::snprintf(nullptr, 0, fmt, PrintfArg(args)...);
  if (n <= 0) return "";
  std::string out(static_cast<size_t>(n) + 1, '\0');
  std::snprintf(out.data(), out.size(), fmt, PrintfArg(args)...);
#pragma GCC diagnostic pop
  out.resize(static_cast<size_t>(n));
  return out;
}

template <class T>
std::string DumpValues(const T* data, uint32_t count) {
  std::string line = "[";
  char buf[64];
  for (uint32_t i = 0; i < count; ++i) {
    if constexpr (std::is_integral_v<T>) {
      std::snprintf(buf, sizeof(buf), "%lld", static_cast<long long>(data[i]));
    } else {
      std::snprintf(buf, sizeof(buf), "%f", static_cast<double>(static_cast<float>(data[i])));
    }
    if (i) line += ", ";
    line += buf;
  }
  return line + "]";
}

const char* DumpTypeName(const char* type_name);

}  // namespace ascsim::aicore

namespace AscendC {

template <class... Args>
void printf(const char* fmt, Args&&... args) {
  ascsim::aicore::CoreContext& core = ascsim::aicore::CurrentCore();
  ascsim::aicore::EnterApiCall(core);
  ascsim::aicore::KernelPrint(ascsim::aicore::FormatKernelPrintf(fmt, args...));
}
template <class... Args>
void PRINTF(const char* fmt, Args&&... args) {
  AscendC::printf(fmt, args...);
}

// Prints "DumpTensor: desc=..., addr=..., data_type=..., position=..., dump_size=N" and the first
// dumpSize elements; dumpSize beyond the tensor is a fault (it would read past the buffer).
template <class T>
void DumpTensor(const LocalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  if (dumpSize > tensor.GetSize()) {
    ai::Fault(ascsim::ErrorKind::kOutOfBounds,
              ai::Str("DumpTensor desc=", desc, ": dumpSize ", dumpSize,
                      " exceeds the LocalTensor's ", tensor.GetSize(), " elements"));
  }
  ai::KernelPrint(ai::Str(
      "DumpTensor: desc=", desc, ", addr=", tensor.GetPhyAddr(),
      ", data_type=", ai::DumpTypeName(ai::TypeName<T>()),
      ", position=", ai::MemoryName(ai::TensorAccess::MemoryOf(tensor)), ", dump_size=", dumpSize,
      "\n", ai::DumpValues(ascsim::aicore::TensorAccess::Data(tensor), dumpSize), "\n"));
}
template <class T>
void DumpTensor(const GlobalTensor<T>& tensor, uint32_t desc, uint32_t dumpSize) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const T* p =
      ascsim::aicore::TensorAccess::CheckedAddress(tensor, "DumpTensor", "read", 0, dumpSize);
  ai::KernelPrint(
      ai::Str("DumpTensor: desc=", desc, ", addr=", ai::Hex(reinterpret_cast<uintptr_t>(p)),
              ", data_type=", ai::DumpTypeName(ai::TypeName<T>()),
              ", position=GM, dump_size=", dumpSize, "\n", ai::DumpValues(p, dumpSize), "\n"));
}

}  // namespace AscendC
