// LocalMemAllocator and AscendC::Hardware: the allocator of static tensor programming, which
// hands out LocalTensors at consecutive addresses of one local memory with no TPipe/TQue
// (asc-devkit docs "LocalMemAllocator", include/basic_api/kernel_tensor.h and
// impl/basic_api/kernel_tensor_impl.h): the head starts at 0 and moves by each tensor's exact byte
// size; the tensor's own constructor checks alignment and capacity. Only one allocator per
// memory may exist at a time (CANN's CPU-debug mode asserts it), and it must not be mixed with
// TPipe on that memory.
#pragma once

#include <cstdint>

#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/local_tensor.h"
#include "ascsim/aicore/types.h"

namespace AscendC {

// The physical memories (impl/utils/common_types.h).
enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

// The position a tensor of `hard` gets when Alloc names none (impl/basic_api/kernel_event.h).
constexpr TPosition GetDefaultPosition(Hardware hard) {
  return hard == Hardware::UB       ? TPosition::VECCALC
         : hard == Hardware::L1     ? TPosition::A1
         : hard == Hardware::L0A    ? TPosition::A2
         : hard == Hardware::L0B    ? TPosition::B2
         : hard == Hardware::L0C    ? TPosition::CO1
         : hard == Hardware::BIAS   ? TPosition::C2
         : hard == Hardware::FIXBUF ? TPosition::C2PIPE2GM
                                    : TPosition::MAX;
}

}  // namespace AscendC

namespace ascsim::aicore {
// Registers this block's allocator of `hard`; faults when the block made one already.
void ClaimLocalMemAllocator(uint8_t hard);
// Faults unless `pos` lives in `hard` on this core's architecture (CANN: a static_assert).
void CheckAllocatorPosition(uint8_t hard, AscendC::TPosition pos);
}  // namespace ascsim::aicore

namespace AscendC {

template <Hardware hard = Hardware::UB>
class LocalMemAllocator {
  static_assert(hard != Hardware::GM && hard != Hardware::MAX,
                "illegal hardware position GM or MAX");

 public:
  LocalMemAllocator() { ascsim::aicore::ClaimLocalMemAllocator(static_cast<uint8_t>(hard)); }
  LocalMemAllocator(const LocalMemAllocator&) = delete;
  LocalMemAllocator& operator=(const LocalMemAllocator&) = delete;

  uint32_t GetCurAddr() const { return head_; }

  template <TPosition pos, class DataType, uint32_t tileSize>
  LocalTensor<DataType> Alloc() {
    return Take<DataType>(pos, tileSize, true);
  }
  template <TPosition pos, class DataType>
  LocalTensor<DataType> Alloc(uint32_t tileSize) {
    return Take<DataType>(pos, tileSize, true);
  }
  template <class DataType, uint32_t tileSize>
  LocalTensor<DataType> Alloc() {
    return Take<DataType>(GetDefaultPosition(hard), tileSize, false);
  }
  template <class DataType>
  LocalTensor<DataType> Alloc(uint32_t tileSize) {
    return Take<DataType>(GetDefaultPosition(hard), tileSize, false);
  }

 private:
  template <class DataType>
  LocalTensor<DataType> Take(TPosition pos, uint32_t tileSize, bool named) {
    if (named) ascsim::aicore::CheckAllocatorPosition(static_cast<uint8_t>(hard), pos);
    LocalTensor<DataType> output(pos, head_, tileSize);
    head_ += static_cast<uint32_t>(sizeof(DataType) * tileSize);
    return output;
  }

  uint32_t head_ = 0;
};

}  // namespace AscendC
