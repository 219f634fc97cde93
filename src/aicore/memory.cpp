#include "ascsim/aicore/memory.h"

namespace ascsim::aicore {

const char* MemoryName(Memory memory) {
  switch (memory) {
    case Memory::kUb:
      return "UB";
    case Memory::kL1:
      return "L1";
    case Memory::kL0A:
      return "L0A";
    case Memory::kL0B:
      return "L0B";
    case Memory::kL0C:
      return "L0C";
    case Memory::kBt:
      return "BT";
    case Memory::kFb:
      return "FB";
    case Memory::kGm:
      return "GM";
    case Memory::kNone:
      break;
  }
  return "-";
}

const char* MemoryLongName(Memory memory) {
  switch (memory) {
    case Memory::kUb:
      return "the Unified Buffer";
    case Memory::kL1:
      return "the L1 Buffer";
    case Memory::kL0A:
      return "the L0A Buffer";
    case Memory::kL0B:
      return "the L0B Buffer";
    case Memory::kL0C:
      return "the L0C Buffer";
    case Memory::kBt:
      return "the BiasTable Buffer";
    case Memory::kFb:
      return "the Fixpipe Buffer";
    case Memory::kGm:
      return "Global Memory";
    case Memory::kNone:
      break;
  }
  return "no memory";
}

Memory PositionMemory(AscendC::TPosition pos, int arch) {
  using AscendC::TPosition;
  const bool coupled = arch == 2002;  // 310P: C1/CO2 in UB, C2 in L0C, SPM in L1
  switch (pos) {
    case TPosition::VECIN:
    case TPosition::VECOUT:
    case TPosition::VECCALC:
      return Memory::kUb;
    case TPosition::A1:
    case TPosition::B1:
    case TPosition::TSCM:
      return Memory::kL1;
    case TPosition::A2:
      return Memory::kL0A;
    case TPosition::B2:
      return Memory::kL0B;
    case TPosition::CO1:
      return Memory::kL0C;
    case TPosition::C1:
      return coupled ? Memory::kUb : Memory::kL1;
    case TPosition::C2:
      return coupled ? Memory::kL0C : Memory::kBt;
    case TPosition::CO2:
      return coupled ? Memory::kUb : Memory::kGm;
    case TPosition::SPM:
      return coupled ? Memory::kL1 : Memory::kGm;
    case TPosition::C2PIPE2GM:
      return coupled ? Memory::kNone : Memory::kFb;
    case TPosition::GM:
      return Memory::kGm;
    case TPosition::C2PIPE2LOCAL:
    case TPosition::MAX:
      break;
  }
  return Memory::kNone;
}

uint32_t MemoryAlignment(Memory memory) {
  switch (memory) {
    case Memory::kL0A:
    case Memory::kL0B:
      return 512;
    case Memory::kL0C:
    case Memory::kBt:
    case Memory::kFb:
      return 64;
    default:
      return 32;
  }
}

const char* CoreUnitName(CoreUnit unit) {
  switch (unit) {
    case CoreUnit::kAiCore:
      return "AI core";
    case CoreUnit::kAiv:
      return "AIV";
    case CoreUnit::kAic:
      return "AIC";
  }
  return "?";
}

}  // namespace ascsim::aicore
