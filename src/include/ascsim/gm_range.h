// A device allocation as the memory registry knows it. Neutral ground: the runtime's registry
// returns it and the kernel API (LaunchShared::find_gm) consumes it, so neither layer has to
// include the other's headers for it.
#pragma once

#include <cstdint>

namespace ascsim {

struct GmRange {
  const uint8_t* begin = nullptr;
  const uint8_t* end = nullptr;
};

}  // namespace ascsim
