// Fill(GlobalTensor, size, value): sets `size` elements of Global Memory to `value` (asc-devkit
// docs 高阶API/张量变换/Fill, include/adv_api/utils/init_global_memory.h), e.g. to clear a
// workspace or an output before atomic accumulation. As CANN's implementation
// (impl/adv_api/detail/utils/init_global_memory/init_global_memory_v220_impl.h, _v200_impl.h), a
// sequence of basic-API calls: the value is duplicated into the UB above the TPipe's buffers
// (PopStackBuffer), V_MTE3 synchronised, copied out in bursts of up to 255 repeats (DataCopyPad on
// A2/A3; 32-byte DataCopy plus SetValue for the tail on the 310P), and closed by
// PipeBarrier<PIPE_MTE3>. An atomic mode set by SetAtomicAdd/Max/Min therefore applies; an AIC
// returns at once. The documentation allows the call only before the first InitBuffer; Ascend's
// own samples call it after, which works since the staging space is above the TPipe's buffers.
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/adv/adv_support.h"
#include "ascsim/aicore/data_copy.h"
#include "ascsim/aicore/kernel_type.h"

namespace ascsim::aicore {
// Faults when `type` is not a type the running SoC's Fill supports (adv_fill.cpp).
void CheckFillType(const char* type, bool a2_type);
}  // namespace ascsim::aicore

namespace AscendC {

template <typename T>
void Fill(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value) {
  // uint16_t, int16_t, half, uint32_t, int32_t, float on A2/A3 and the 310P; the 950 adds the
  // 8-bit, bfloat16 and 64-bit types.
  constexpr bool kA2Type =
      std::is_same_v<T, uint16_t> || std::is_same_v<T, int16_t> || std::is_same_v<T, half> ||
      std::is_same_v<T, uint32_t> || std::is_same_v<T, int32_t> || std::is_same_v<T, float>;
  static_assert(kA2Type || std::is_same_v<T, uint8_t> || std::is_same_v<T, int8_t> ||
                    std::is_same_v<T, bfloat16_t> || std::is_same_v<T, uint64_t> ||
                    std::is_same_v<T, int64_t>,
                "Fill(GlobalTensor): unsupported data type");
  namespace ai = ascsim::aicore;
  ai::CheckFillType(ai::TypeName<T>(), kA2Type);
  // CANN returns on the cube core only (ASCEND_IS_AIC is false on the 310P's unified core).
  if (ai::CurrentCore().unit == ai::CoreUnit::kAic) return;
  LocalTensor<T> popBuffer;
  if (!PopStackBuffer<T, TPosition::LCM>(popBuffer)) {
    ai::Fault(ascsim::ErrorKind::kInvalidArgument,
              "Fill(GlobalTensor): no TPipe, so no Unified Buffer to stage the value in (construct "
              "the kernel's TPipe first)");
  }
  constexpr uint32_t kMaxBurst = 255 * 256 / sizeof(T);  // MAX_REPEAT_TIMES x 256 B
  const uint32_t popSize = popBuffer.GetSize() >= kMaxBurst ? kMaxBurst : popBuffer.GetSize();
  const uint64_t round = size / popSize;
  const uint64_t tail = size % popSize;
  const uint32_t roundSize = round != 0 ? popSize : 0;
  Duplicate<T>(popBuffer, value, static_cast<int32_t>(popSize));
  const event_t vToMte3 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
  SetFlag<HardEvent::V_MTE3>(vToMte3);
  WaitFlag<HardEvent::V_MTE3>(vToMte3);
  const bool v200 = ai::CurrentCore().launch->soc->arch == 2002;
  if (!v200) {
    DataCopyExtParams p;
    p.blockCount = 1;
    p.blockLen = static_cast<uint32_t>(roundSize * sizeof(T));
    for (uint64_t i = 0; i < round; ++i) DataCopyPad(gmWorkspaceAddr[i * roundSize], popBuffer, p);
    if (tail != 0) {
      p.blockLen = static_cast<uint32_t>(tail * sizeof(T));
      DataCopyPad(gmWorkspaceAddr[round * roundSize], popBuffer, p);
    }
  } else {
    // Whole 32-byte blocks by DataCopy, the elements after the last whole block by SetValue.
    auto copy = [&](uint64_t offset, uint64_t count) {
      const uint64_t aligned = count * sizeof(T) / ai::kBlockBytes * ai::kBlockBytes / sizeof(T);
      if (aligned != 0) {
        DataCopyParams p;
        p.blockCount = 1;
        p.blockLen = static_cast<uint16_t>(aligned * sizeof(T) / ai::kBlockBytes);
        DataCopy(gmWorkspaceAddr[offset], popBuffer, p);
      }
      for (uint64_t i = offset + aligned; i < offset + count; ++i) gmWorkspaceAddr.SetValue(i, value);
    };
    for (uint64_t i = 0; i < round; ++i) copy(i * roundSize, roundSize);
    if (tail != 0) copy(round * roundSize, tail);
  }
  PipeBarrier<PIPE_MTE3>();
}

}  // namespace AscendC
