// The cube memories of a core (L1, L0A, L0B, L0C, BiasTable, Fixpipe buffer) carved from one
// allocation. One layout for every holder of cube memory: the AIC / AI cores a launch runs
// (runtime/launch.cpp, one arena per worker thread), a single-core fixture's core
// (EnsureCubeMemories) and the Matmul server contexts of a mix block (matmul_server.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>

#include "ascsim/aicore/core_context.h"

namespace ascsim::aicore {

struct CubeArena {
  // Where each cube memory starts (a 4 KiB page); null for UB (it has its own arena) and for a
  // memory of size 0.
  std::array<uint8_t*, kLocalMemoryCount> base{};
  std::unique_ptr<uint8_t, void (*)(void*)> owned{nullptr, std::free};
};

// One arena holding a memory of sizes[m] bytes for every cube memory m (sizes[kUb] is ignored).
CubeArena AllocateCubeArena(const std::array<uint32_t, kLocalMemoryCount>& sizes);

// The largest size of each memory over every SoC profile: an arena of these sizes serves a core
// of any profile, so a thread keeps one for its life.
const std::array<uint32_t, kLocalMemoryCount>& LargestMemoryBytes();

// Gives `core` the cube memories of its profile at `bases` (an arena at least that large).
void MapCubeMemories(CoreContext& core, const std::array<uint8_t*, kLocalMemoryCount>& bases);

}  // namespace ascsim::aicore
