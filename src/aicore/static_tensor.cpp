// Static tensor programming: LocalTensor(TPosition, addr, tileSize) and LocalMemAllocator
// (ascsim/aicore/local_mem_allocator.h). A static tensor lives at a byte address of a local
// memory with no TPipe behind it; here it is a view of a buffer record that spans the whole memory
// its position maps to (one record per position and block, state kFixed), so the usual operand
// checks, the sanitizer and the cost model see it like any other tensor. The checks are those of
// CANN's CPU-debug CreateTensor (asc-devkit impl/basic_api/kernel_tensor_impl.h): position not GM,
// address 32-byte aligned, a length of at least one element, a multiple of 32 bytes and inside the
// memory.
#include <memory>
#include <vector>

#include "aicore/sanitizer/core_sanitizer.h"
#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/kernel_type.h"
#include "ascsim/aicore/local_mem_allocator.h"

namespace ascsim::aicore {
namespace {

using StaticSlots = std::vector<std::unique_ptr<BufferSlot>>;

const char* HardwareName(uint8_t hard) {
  static const char* const kNames[] = {"GM", "UB", "L1", "L0A", "L0B", "L0C", "BIAS", "FIXBUF"};
  return hard < sizeof(kNames) / sizeof(kNames[0]) ? kNames[hard] : "MAX";
}

Memory HardwareMemory(uint8_t hard) {
  switch (static_cast<AscendC::Hardware>(hard)) {
    case AscendC::Hardware::UB:
      return Memory::kUb;
    case AscendC::Hardware::L1:
      return Memory::kL1;
    case AscendC::Hardware::L0A:
      return Memory::kL0A;
    case AscendC::Hardware::L0B:
      return Memory::kL0B;
    case AscendC::Hardware::L0C:
      return Memory::kL0C;
    case AscendC::Hardware::BIAS:
      return Memory::kBt;
    case AscendC::Hardware::FIXBUF:
      return Memory::kFb;
    default:
      return Memory::kNone;
  }
}

}  // namespace

BufferSlot* StaticTensorSlot(AscendC::TPosition pos, uint32_t addr, uint64_t elements,
                             uint32_t element_bytes, const char* type_name) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  const SocProfile& soc = *core.launch->soc;
  const Memory memory = PositionMemory(pos, soc.arch);
  auto where = [&] {
    return Str("LocalTensor(TPosition::", AscendC::PositionName(pos), ", addr ", addr, ", ",
               elements, " ", type_name, ")");
  };
  if (memory == Memory::kGm || memory == Memory::kNone) {
    Fault(ErrorKind::kInvalidArgument,
          Str(where(), ": the position is ",
              memory == Memory::kGm ? "Global Memory" : "no local memory", " on ", soc.name,
              "; a static tensor lives in a local memory"));
  }
  if (memory != Memory::kUb) {
    RevealCubeUse(core, "LocalTensor(TPosition, addr, tileSize)");
    EnsureCubeMemories(core);
  }
  const int m = static_cast<int>(memory);
  if (!UnitHasMemory(core.unit, memory) || core.mem_base[m] == nullptr) {
    Fault(ErrorKind::kInvalidArgument,
          Str(where(), ": the ", CoreUnitName(core.unit), " of ", soc.name, " has no ",
              MemoryLongName(memory), KernelModeNote()));
  }
  const uint64_t bytes = elements * element_bytes;
  const uint32_t capacity = core.mem_size[m];
  if (addr % kBlockBytes != 0) {
    Fault(ErrorKind::kInvalidArgument,
          Str(where(), ": addr ", addr, " is not 32-byte aligned"));
  }
  if (elements == 0 || bytes > capacity) {
    Fault(ErrorKind::kInvalidArgument,
          Str(where(), ": the tensor size must be in (0, ", capacity / element_bytes, "] elements"));
  }
  if (bytes % kBlockBytes != 0) {
    Fault(ErrorKind::kInvalidArgument,
          Str(where(), ": the tensor length is ", bytes, " bytes, not a multiple of 32"));
  }
  if (addr + bytes > capacity) {
    Fault(ErrorKind::kOutOfBounds,
          Str(where(), ": bytes [", addr, ", ", addr + bytes, ") exceed the ", capacity, " B of ",
              MemoryLongName(memory)));
  }

  return WholeMemorySlot(core, pos);
}

BufferSlot* WholeMemorySlot(CoreContext& core, AscendC::TPosition pos) {
  const Memory memory = PositionMemory(pos, core.launch->soc->arch);
  const int m = static_cast<int>(memory);
  if (!core.queues.static_slots) core.queues.static_slots = std::make_shared<StaticSlots>();
  auto& slots = *static_cast<StaticSlots*>(core.queues.static_slots.get());
  for (const auto& slot : slots) {
    if (slot->position == pos) return slot.get();
  }
  auto slot = std::make_unique<BufferSlot>();
  slot->addr = core.mem_base[m];
  slot->bytes = core.mem_size[m];
  slot->id = core.queues.next_buffer_id++;
  slot->state = BufferState::kFixed;
  slot->position = pos;
  slot->memory = memory;
  slot->mem_offset = 0;
  slot->trace = core.trace;
  slot->sanitizer = core.sanitizer;
  if (core.sanitizer != nullptr) core.sanitizer->Carved(*slot);
  slots.push_back(std::move(slot));
  return slots.back().get();
}

void ClaimLocalMemAllocator(uint8_t hard) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  const uint8_t bit = static_cast<uint8_t>(1u << hard);
  if (core.queues.local_mem_allocators & bit) {
    Fault(ErrorKind::kInvalidArgument,
          Str("LocalMemAllocator<Hardware::", HardwareName(hard),
              ">: a second allocator of one memory in a kernel (only one may exist in an "
              "operator's lifetime; keep the first and allocate from it)"));
  }
  core.queues.local_mem_allocators |= bit;
}

void CheckAllocatorPosition(uint8_t hard, AscendC::TPosition pos) {
  const CoreContext& core = CurrentCore();
  const Memory memory = PositionMemory(pos, core.launch->soc->arch);
  if (memory != HardwareMemory(hard)) {
    Fault(ErrorKind::kInvalidArgument,
          Str("LocalMemAllocator<Hardware::", HardwareName(hard), ">::Alloc<TPosition::",
              AscendC::PositionName(pos), ">: the position is ", MemoryLongName(memory), " on ",
              core.launch->soc->name, ", not ", HardwareName(hard),
              " (logic pos and hardware pos not matched)"));
  }
}

}  // namespace ascsim::aicore
