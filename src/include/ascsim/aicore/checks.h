// The one place where kernel-side checks build their messages and raise them. A fault names the
// kernel, the block, the call and its numbers in one line:
//   add_custom: block 3/8: DataCopy GM->UB read [16384, 18432) of half exceeds GlobalTensor size
//   16384
// A warning is a device trap that is not fatal on hardware; strict mode turns it into an error.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>

#include "ascsim/aicore/core_context.h"
#include "ascsim/aicore/internal.h"
#include "ascsim/error.h"
#include "ascsim/half.h"

namespace ascsim::aicore {

template <class... Args>
std::string Str(const Args&... args) {
  std::ostringstream out;
  (out << ... << args);
  return out.str();
}

// "0x1f40"-style hex for addresses and UB offsets.
inline std::string Hex(uint64_t value) {
  std::ostringstream out;
  out << "0x" << std::hex << value;
  return out.str();
}

// "add_custom: block 3/8: " for the current core ("" outside a kernel).
std::string WhereAmI();

// Throws the error of `kind` with the current core's prefix. Never returns.
//
// The functions kernel code reaches in libascsim take std::string_view, never std::string, so a
// program built with the old libstdc++ ABI (-D_GLIBCXX_USE_CXX11_ABI=0, as CANN's samples are)
// links against the same library.
[[noreturn]] void Fault(ErrorKind kind, std::string_view detail);

// The failure paths of the per-call operand checks, kept out of line so that the checks
// themselves stay a few compares and branches that inline into every API call.
[[noreturn]] [[gnu::cold]] [[gnu::noinline]] void FaultNegativeCount(const char* call,
                                                                     int64_t count);
[[noreturn]] [[gnu::cold]] [[gnu::noinline]] void FaultUnalignedUb(const char* call,
                                                                   const char* role,
                                                                   uint64_t offset,
                                                                   uint32_t align = 32);
struct BufferSlot;
// An operand that must be in the Unified Buffer lives in another memory.
[[noreturn]] [[gnu::cold]] [[gnu::noinline]] void FaultNotUb(const char* call, const char* role,
                                                             const BufferSlot* slot);
[[noreturn]] [[gnu::cold]] [[gnu::noinline]] void FaultTensorRange(const char* call,
                                                                   const char* role, uint64_t begin,
                                                                   uint64_t end, const char* type,
                                                                   uint64_t size);

// Records a warning for the launch (deduplicated by `key`, or by `detail` when `key` is empty);
// in strict mode raises it as a StrictWarning fault instead.
void Warn(std::string_view detail, std::string_view key = {});

// Called at the top of every API call: counts it and stops a cancelled (timed-out) launch.
void EnterApiCall(CoreContext& core);
// Faults unless the launch runs on `arch` (2201: Atlas A2/A3): `what` of `call` exists only there.
void RequireArch(const char* call, int arch, const char* what);

template <class T>
constexpr const char* TypeName() {
  if constexpr (std::is_same_v<T, half>)
    return "half";
  else if constexpr (std::is_same_v<T, bfloat16_t>)
    return "bfloat16_t";
  else if constexpr (std::is_same_v<T, float>)
    return "float";
  else if constexpr (std::is_same_v<T, double>)
    return "double";
  else if constexpr (std::is_same_v<T, int8_t>)
    return "int8_t";
  else if constexpr (std::is_same_v<T, uint8_t>)
    return "uint8_t";
  else if constexpr (std::is_same_v<T, int16_t>)
    return "int16_t";
  else if constexpr (std::is_same_v<T, uint16_t>)
    return "uint16_t";
  else if constexpr (std::is_same_v<T, int32_t>)
    return "int32_t";
  else if constexpr (std::is_same_v<T, uint32_t>)
    return "uint32_t";
  else if constexpr (std::is_same_v<T, int64_t>)
    return "int64_t";
  else if constexpr (std::is_same_v<T, uint64_t>)
    return "uint64_t";
  else
    return "T";
}

// A UB operand in a call record: its buffer id (dependencies) and UB byte offset (bank
// conflicts). Built from kNoBuffer for "no operand"; only built when profiling is on.
struct BufferRef {
  BufferRef(uint32_t buffer = trace::kNoBuffer) : id(buffer) {}  // NOLINT: kNoBuffer converts
  BufferRef(uint32_t buffer, uint64_t ub_offset)
      : id(buffer), ub(static_cast<uint32_t>(ub_offset)) {}
  uint32_t id;
  uint32_t ub = trace::kNoUbAddr;
};

// Records an API call for the cost model when profiling is on (one branch when off). `make`
// builds the call record, so nothing is built when profiling is off.
template <class MakeCall>
inline void Record(CoreContext& core, MakeCall&& make) {
  if (core.trace != nullptr) [[unlikely]]
    core.trace->calls.push_back(make());
}

}  // namespace ascsim::aicore
