// The local memories of an AI core and which TPosition lives in which, per architecture; and the
// kind of core a block runs on (a whole AI core, or the AIC / AIV of a split architecture).
//
// Sources (asc-devkit): "通用说明和约束" (TPosition -> physical memory, alignment per memory),
// impl/basic_api/kernel_event.h GetPhyType (the same mapping in code), "基本架构" (A2: separate
// AIC with L1/L0A/L0B/L0C/BiasTable/Fixpipe buffer and AIV with UB; 310P: one AI core).
#pragma once

#include <cstdint>

#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/types.h"
#include "ascsim/local_memory.h"

namespace ascsim::aicore {

// The local memories (ascsim/local_memory.h: one enum, shared with the SoC profile's sizes).
using ascsim::kLocalMemoryCount;
using ascsim::Memory;

// "UB", "L1", "L0A", "L0B", "L0C", "BT", "FB", "GM", "-".
const char* MemoryName(Memory memory);
// "the Unified Buffer", "L1", "L0A", ... as messages spell them.
const char* MemoryLongName(Memory memory);

// The memory a TPosition denotes on a device of architecture `arch` (2201 = A2, 2002 = 310P).
Memory PositionMemory(AscendC::TPosition pos, int arch);

// Start address alignment every operand in that memory needs ("通用地址对齐约束"): 32 B for UB and
// L1, 512 B for L0A/L0B, 64 B for L0C, BiasTable and the Fixpipe buffer.
uint32_t MemoryAlignment(Memory memory);

// The kind of core a block runs on.
//  kAiCore: a whole AI core with every memory (310P, and the single-core test fixtures);
//  kAiv:    the vector core of a split architecture (A2): UB only;
//  kAic:    the cube core of a split architecture: L1, L0A, L0B, L0C, BiasTable, Fixpipe buffer.
enum class CoreUnit : uint8_t { kAiCore, kAiv, kAic };
const char* CoreUnitName(CoreUnit unit);  // "AI core", "AIV", "AIC"
constexpr bool UnitHasMemory(CoreUnit unit, Memory memory) {
  return memory == Memory::kUb ? unit != CoreUnit::kAic : unit != CoreUnit::kAiv;
}

}  // namespace ascsim::aicore
