// InitGlobalMemory: fills `size` elements of a GlobalTensor with `value` (a workspace cleared before
// atomic accumulation, say).
//
// Source: asc-devkit include/adv_api/utils/init_global_memory.h and the A2 / 310P algorithm of
// impl/adv_api/detail/utils/init_global_memory/init_global_memory_v220_impl.h (v200 is the same):
// the UB above the TPipe's buffers (PopStackBuffer) is filled with `value` by Duplicate (at most 255
// repeats of 256 B), then copied out by DataCopy in whole 32-byte blocks, piece after piece; the
// elements of a piece's unaligned end are written by the scalar unit (GlobalTensor::SetValue). An
// AIC does nothing (vector work). The caller orders this with later GM access of other cores
// (SyncAll, or a separate launch), as on the device.
// Types: those Duplicate takes (the header documents half, float, int16_t, uint16_t, int32_t,
// uint32_t; CANN does not check, and kernels instantiate it for bfloat16_t too).
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/adv/adv_support.h"
#include "ascsim/aicore/data_copy.h"
#include "ascsim/aicore/global_tensor.h"
#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/kernel_type.h"

namespace AscendC {

template <typename T>
__aicore__ inline void InitGlobalMemory(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size,
                                        const T value) {
  if (g_coreType == AIC) return;
  LocalTensor<T> pop = detail::AdvStack("InitGlobalMemory").template ReinterpretCast<T>();
  constexpr uint32_t kMaxBurst = (MAX_REPEAT_TIMES * ONE_REPEAT_BYTE_SIZE) / sizeof(T);
  const uint32_t popSize =
      pop.GetSize() >= kMaxBurst ? kMaxBurst : static_cast<uint32_t>(pop.GetSize());
  if (popSize == 0) {
    ascsim::aicore::Fault(ascsim::ErrorKind::kUbOverflow,
                          "InitGlobalMemory: no Unified Buffer is left above the TPipe's buffers");
  }
  const uint64_t rounds = size / popSize;
  const uint32_t tail = static_cast<uint32_t>(size % popSize);
  const uint32_t roundSize = rounds != 0 ? popSize : 0;
  Duplicate<T>(pop, value, popSize);
  detail::AdvPipeSync<HardEvent::V_MTE3>();
  DataCopyParams params;
  params.blockCount = 1;
  uint64_t offset = 0;
  const uint32_t roundExtra = static_cast<uint32_t>(roundSize * sizeof(T) % ONE_BLK_SIZE);
  params.blockLen = static_cast<uint16_t>((roundSize * sizeof(T) - roundExtra) / ONE_BLK_SIZE);
  for (uint64_t r = 0; r < rounds; ++r) {
    DataCopy(gmWorkspaceAddr[offset], pop, params);
    offset += roundSize;
    for (uint64_t i = offset - roundExtra / sizeof(T); i < offset; ++i) {
      gmWorkspaceAddr.SetValue(i, value);
    }
  }
  if (tail != 0) {
    const uint32_t tailExtra = static_cast<uint32_t>(tail * sizeof(T) % ONE_BLK_SIZE);
    const uint32_t tailAlign = static_cast<uint32_t>(tail * sizeof(T) - tailExtra);
    offset = rounds * roundSize;
    if (tailAlign != 0) {
      params.blockLen = static_cast<uint16_t>(tailAlign / ONE_BLK_SIZE);
      DataCopy(gmWorkspaceAddr[offset], pop, params);
    }
    for (uint64_t i = offset + tailAlign / sizeof(T); i < size; ++i) {
      gmWorkspaceAddr.SetValue(i, value);
    }
  }
  PipeBarrier<PIPE_MTE3>();
}

}  // namespace AscendC
