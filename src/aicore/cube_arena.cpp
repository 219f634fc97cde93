#include "aicore/cube_arena.h"

#include <algorithm>

#include "ascsim/ceil_align.h"
#include "ascsim/soc.h"

namespace ascsim::aicore {
namespace {
constexpr uint64_t kPage = 4096;
uint64_t PageRounded(uint32_t bytes) { return AlignUp<uint64_t>(bytes, kPage); }
}  // namespace

CubeArena AllocateCubeArena(const std::array<uint32_t, kLocalMemoryCount>& sizes) {
  constexpr int kFirstCube = static_cast<int>(Memory::kL1);
  uint64_t total = 0;
  for (int m = kFirstCube; m < kLocalMemoryCount; ++m) total += PageRounded(sizes[m]);
  CubeArena arena;
  arena.owned = AllocateUbArena(static_cast<uint32_t>(total));
  uint8_t* p = arena.owned.get();
  for (int m = kFirstCube; m < kLocalMemoryCount; ++m) {
    if (sizes[m] == 0) continue;
    arena.base[m] = p;
    p += PageRounded(sizes[m]);
  }
  return arena;
}

const std::array<uint32_t, kLocalMemoryCount>& LargestMemoryBytes() {
  static const std::array<uint32_t, kLocalMemoryCount> largest = [] {
    std::array<uint32_t, kLocalMemoryCount> sizes{};
    for (const SocProfile& p : SocProfiles()) {
      for (int m = 0; m < kLocalMemoryCount; ++m) sizes[m] = std::max(sizes[m], p.memory_bytes[m]);
    }
    return sizes;
  }();
  return largest;
}

void MapCubeMemories(CoreContext& core, const std::array<uint8_t*, kLocalMemoryCount>& bases) {
  const auto& sizes = core.launch->soc->memory_bytes;
  for (int m = static_cast<int>(Memory::kL1); m < kLocalMemoryCount; ++m) {
    if (sizes[m] == 0) continue;
    core.mem_base[m] = bases[m];
    core.mem_size[m] = sizes[m];
  }
}

}  // namespace ascsim::aicore
