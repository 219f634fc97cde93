// The hardware limits and units of the Ascend C programming model, named once. Every check and
// every rounding in the simulator uses these; sources: the asc-devkit headers
// (impl/basic_api/kernel_struct_data_copy.h, kernel_tpipe.h, kernel_event.h) and the Ascend C API
// documentation (DataCopy, TPipe::InitBuffer, SetFlag/WaitFlag, vector repeat parameters).
#pragma once

#include <cstdint>

#include "ascsim/aicore/internal.h"
#include "ascsim/ceil_align.h"

namespace ascsim::aicore {

// One data block: the unit of UB addresses (32-byte aligned), InitBuffer lengths (rounded up) and
// DataCopy lengths (rounded down on the device).
constexpr uint32_t kBlockBytes = 32;
// One vector repeat: 8 data blocks.
constexpr uint32_t kRepeatBytes = 256;
constexpr uint32_t kBlocksPerRepeat = kRepeatBytes / kBlockBytes;
// repeatTime / repeatTimes of the mask/repeat forms.
constexpr uint32_t kMaxRepeatTimes = 255;
// DataCopyParams::blockCount (12 bits).
constexpr uint32_t kMaxDataCopyBlockCount = 4095;
// Buffers (queue buffers and TBufs together) one TPipe manages.
constexpr uint32_t kMaxBuffersPerTPipe = 64;
// Hardware event ids of SetFlag/WaitFlag: EVENT_ID0..EVENT_ID7.
constexpr uint32_t kEventIdCount = 8;
// Logical blocks of one launch (blockDim).
constexpr uint32_t kMinBlockDim = 1;
constexpr uint32_t kMaxBlockDim = 65535;
// TPosition values tracked per core (TPosition::MAX is below this).
constexpr uint32_t kPositionSlots = 32;

// Bytes rounded up / down to whole data blocks.
constexpr uint64_t RoundUpToBlock(uint64_t bytes) { return AlignUp<uint64_t>(bytes, kBlockBytes); }
constexpr uint64_t RoundDownToBlock(uint64_t bytes) { return bytes / kBlockBytes * kBlockBytes; }
constexpr bool IsBlockAligned(uint64_t bytes) { return bytes % kBlockBytes == 0; }

}  // namespace ascsim::aicore
