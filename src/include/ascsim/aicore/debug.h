// The debugging interfaces besides printing and dumps (docs 基础API/调试接口): Trap, InitDump.
#pragma once

#include <cstdint>

#include "ascsim/aicore/types.h"

namespace AscendC {

// ---------------------------------------------------------------- debugging
// Trap stops the core on the device (an AI core exception); here it faults with the block named.
void Trap();
// The dump machinery is set up by the CPU-debug framework; here DumpTensor/printf need nothing.
inline void InitDump(bool mixFlag, uint32_t gmLen) { (void)mixFlag, (void)gmLen; }
inline void InitDump(bool mixFlag, GM_ADDR dumpStartAddr, uint32_t gmLen) {
  (void)mixFlag, (void)dumpStartAddr, (void)gmLen;
}

}  // namespace AscendC
