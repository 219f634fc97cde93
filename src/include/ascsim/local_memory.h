// The memories of an AI core, as one index every layer shares: the SoC profile's size table
// (ascsim/soc.h), the cores' arenas and the kernel API's checks (ascsim/aicore/memory.h) all
// read their per-memory figures by this enum.
#pragma once

#include <cstdint>

namespace ascsim {

// Local memories kUb .. kFb. kGm (a position that maps to Global Memory, e.g. CO2 on A2) and
// kNone (not a buffer position at all) are not local and cannot hold TPipe buffers.
enum class Memory : uint8_t { kUb, kL1, kL0A, kL0B, kL0C, kBt, kFb, kGm, kNone };
constexpr int kLocalMemoryCount = 7;  // kUb .. kFb

}  // namespace ascsim
