// GetHcclContext / SetHcclContext, the basic-API access to the MC2 communication context
// (asc-devkit include/basic_api/kernel_common.h: template <uint32_t index>, two slots). ascsim
// simulates no communication (ascsim/adv/hccl.h), so both are a one-line "not simulated" error
// naming the call (hccl.cpp).
#pragma once

#include <cstdint>

#include "ascsim/aicore/internal.h"

namespace ascsim::aicore {
// Faults with "<call>: HCCL / MC2 communication is not simulated ...".
[[noreturn]] void FaultHcclNotSimulated(const char* call);
}  // namespace ascsim::aicore

namespace AscendC {

template <uint32_t index>
void SetHcclContext(uint8_t* /*context*/) {
  ascsim::aicore::FaultHcclNotSimulated("SetHcclContext");
}
template <uint32_t index>
uint8_t* GetHcclContext() {
  ascsim::aicore::FaultHcclNotSimulated("GetHcclContext");
}

}  // namespace AscendC
