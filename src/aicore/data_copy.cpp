// Out-of-line parts of ascsim/aicore/data_copy.h: the copy call record and the per-architecture
// checks.
#include "ascsim/aicore/data_copy.h"

#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/kernel_type.h"

namespace ascsim::aicore {

trace::ApiCall CopyCall(const char* name, trace::Pipe pipe, uint64_t bytes, uint8_t elem,
                        BufferRef dst_buffer, BufferRef src_buffer) {
  trace::ApiCall call{};
  call.name = name;
  call.kind = trace::CallKind::kCopy;
  call.pipe = pipe;
  call.dtype_bytes = elem;
  call.bytes = bytes;
  call.elements = elem ? bytes / elem : 0;
  call.dst_buffer = dst_buffer.id;
  call.src_buffers[0] = src_buffer.id;
  call.ub_addr[0] = dst_buffer.ub;
  call.ub_addr[1] = src_buffer.ub;
  return call;
}

void CheckBlockCount(const char* call, uint32_t block_count) {
  if (block_count > kMaxDataCopyBlockCount) {
    Fault(ErrorKind::kInvalidArgument, Str(call, ": blockCount ", block_count,
                                           " exceeds the device limit ", kMaxDataCopyBlockCount));
  }
}

void RequireDataCopyPad(const char* call) {
  CoreContext& core = CurrentCore();
  if (!core.launch->soc->has_data_copy_pad) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": DataCopyPad is not available on ", core.launch->soc->name));
  }
}

}  // namespace ascsim::aicore
