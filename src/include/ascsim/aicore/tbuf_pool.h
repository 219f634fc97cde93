// TBufPool and TPipe::InitBufPool: manual reuse of UB / L1 between stages of a kernel (asc-devkit
// docs 资源管理/TBufPool, TPipe/InitBufPool.md; impl/basic_api/kernel_tbufpool_impl.h). A pool is
// a region carved from the TPipe (or from a parent pool), or one that shares another pool's start
// and length; its InitBuffer gives queues and TBufs buffers inside the region, at most 16 of them
// (QBUFPOOL_MAX_LEN; bufIDSize, default 4, is at most 16 too). Reset() ends the pool's work before another pool reuses the
// bytes: CANN waits for each buffer's free event; here that is a barrier over all pipes for the
// sanitizer. The buffers stay valid.
#pragma once

#include <cstdint>

#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/tpipe.h"

namespace ascsim::aicore {
// Reset of a pool: the barrier and the sanitizer's fresh region (tpipe.cpp).
void ResetPool(PoolRegion& pool);
}  // namespace ascsim::aicore

namespace AscendC {

template <TPosition pos, uint32_t bufIDSize = 4>
class TBufPool {
  static_assert(bufIDSize <= 16, "TBufPool: bufIDSize is at most 16");

 public:
  TBufPool() = default;
  TBufPool(const TBufPool&) = delete;
  TBufPool& operator=(const TBufPool&) = delete;

  template <class T>
  bool InitBuffer(T& que, uint8_t num, uint32_t len) {
    TPipe& pipe = Pipe("TBufPool::InitBuffer");
    pipe.EnterPool(region_, num, "TBufPool::InitBuffer");
    const bool ok = pipe.InitBuffer(que, num, len);
    pipe.LeavePool(region_);
    region_.buffers += num;
    return ok;
  }
  template <TPosition bufPos>
  bool InitBuffer(TBuf<bufPos>& buf, uint32_t len) {
    TPipe& pipe = Pipe("TBufPool::InitBuffer");
    pipe.EnterPool(region_, 1, "TBufPool::InitBuffer");
    const bool ok = pipe.InitBuffer(buf, len);
    pipe.LeavePool(region_);
    region_.buffers += 1;
    return ok;
  }
  template <class T>
  bool InitBufPool(T& bufPool, uint32_t len) {
    Pipe("TBufPool::InitBufPool")
        .CarvePool(bufPool.region_, T::kPosition, len, T::kBufIds, &region_, nullptr,
                   "TBufPool::InitBufPool");
    return true;
  }
  template <class T, class U>
  bool InitBufPool(T& bufPool, uint32_t len, U& shareBuf) {
    Pipe("TBufPool::InitBufPool")
        .CarvePool(bufPool.region_, T::kPosition, len, T::kBufIds, nullptr, &shareBuf.region_,
                   "TBufPool::InitBufPool");
    return true;
  }
  void Reset() { ascsim::aicore::ResetPool(region_); }

  static constexpr TPosition kPosition = pos;
  static constexpr uint32_t kBufIds = bufIDSize;

 private:
  friend class TPipe;
  template <TPosition, uint32_t>
  friend class TBufPool;

  TPipe& Pipe(const char* call) {
    if (region_.pipe == nullptr) {
      ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                            ascsim::aicore::Str(call, ": the TBufPool was not initialised "
                                                      "(TPipe::InitBufPool)"));
    }
    return *region_.pipe;
  }

  ascsim::aicore::PoolRegion region_;
};

template <TPosition pos, uint32_t bufIDSize>
bool TPipe::InitBufPool(TBufPool<pos, bufIDSize>& bufPool, uint32_t len) {
  CarvePool(bufPool.region_, pos, len, bufIDSize, nullptr, nullptr, "TPipe::InitBufPool");
  return true;
}

template <TPosition pos, uint32_t bufIDSize, TPosition sharePos, uint32_t shareIds>
bool TPipe::InitBufPool(TBufPool<pos, bufIDSize>& bufPool, uint32_t len,
                        TBufPool<sharePos, shareIds>& shareBuf) {
  CarvePool(bufPool.region_, pos, len, bufIDSize, nullptr, &shareBuf.region_,
            "TPipe::InitBufPool");
  return true;
}

}  // namespace AscendC
