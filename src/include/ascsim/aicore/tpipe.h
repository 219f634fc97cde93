// TPipe, TQue/TQueBind and TBuf: the UB memory manager and the queues that order a kernel's
// stages. TPipe carves each core's Unified Buffer into 32-byte-aligned buffers; a queue runs the
// AllocTensor -> EnQue -> DeQue -> FreeTensor protocol per buffer. Protocol errors that would hang
// the device (DeQue of an empty queue, AllocTensor with every buffer in use) fail at once.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "ascsim/aicore/buffer_slot.h"
#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/limits.h"
#include "ascsim/aicore/local_tensor.h"
#include "ascsim/aicore/tensor_access.h"
#include "ascsim/aicore/types.h"

namespace AscendC {

using TEventID = int8_t;

class TPipe;
template <TPosition pos, uint32_t bufIDSize>
class TBufPool;  // tbuf_pool.h

}  // namespace AscendC

namespace ascsim::aicore {

// A queue's buffers, inline up to kInline: every block makes its TQues anew, and a heap vector
// cost each queue of each block an allocation and a free.
class QueueSlots {
 public:
  static constexpr size_t kInline = 4;
  void reserve(size_t n) {
    if (n > kInline) heap_.reserve(n);
  }
  void push_back(BufferSlot* slot) {
    if (heap_.empty() && size_ < kInline) {
      inline_[size_++] = slot;
      return;
    }
    if (heap_.empty()) heap_.assign(inline_, inline_ + size_);  // from now on all on the heap
    heap_.push_back(slot);
    ++size_;
  }
  void clear() {
    size_ = 0;
    heap_.clear();
  }
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  BufferSlot* operator[](size_t i) const { return data()[i]; }
  BufferSlot* const* begin() const { return data(); }
  BufferSlot* const* end() const { return data() + size_; }

 private:
  BufferSlot* const* data() const { return heap_.empty() ? inline_ : heap_.data(); }
  BufferSlot* inline_[kInline] = {};
  size_t size_ = 0;
  std::vector<BufferSlot*> heap_;
};

// The non-template part of every queue.
class QueueBase {
 public:
  QueueBase(AscendC::TPosition src, AscendC::TPosition dst, int32_t depth)
      : src_(src), dst_(dst), depth_(depth) {}
  // A copy, as CANN's TQueBind is a value (asc-devkit include/basic_api/kernel_tpipe.h: its
  // counters and FIFO array, and bufStart, a pointer to the buffer states the TPipe keeps):
  // production kernels pass TQues by value (ops-nn apply_fused_ema_adam's ScalarPow allocates
  // and frees a tensor of its copy). The copy has the original's buffers, whose states both see,
  // and counts as the same queue for the ownership checks. A queue that holds enqueued tensors
  // is not copied (a copy would DeQue the same buffers again): a one-line error says so.
  QueueBase(const QueueBase& other);
  // Assignment likewise (ops-math isin_part_v1 and ops-nn quant_batch_matmul_v3 store a TQue
  // member from a parameter); a queue holding enqueued tensors is not overwritten either (they
  // could never be dequeued again).
  QueueBase& operator=(const QueueBase& other);

  BufferSlot* AllocSlot();
  // `fifo` false: a depth-0 queue's EnQue, which only marks the buffer (DeQue names the tensor).
  // `user_src` / `user_dst`: the positions of EnQue<srcUserPos, dstUserPos> (MAX: the queue's).
  void EnQueSlot(BufferSlot* slot, uint32_t generation, bool fifo = true,
                 AscendC::TPosition user_src = AscendC::TPosition::MAX,
                 AscendC::TPosition user_dst = AscendC::TPosition::MAX);
  BufferSlot* DeQueSlot(AscendC::TPosition user_src = AscendC::TPosition::MAX,
                        AscendC::TPosition user_dst = AscendC::TPosition::MAX);
  // A depth-0 queue's DeQue(tensor): the tensor's own buffer, which must have been enqueued.
  void DeQueInPlace(BufferSlot* slot, uint32_t generation);
  void FreeSlot(BufferSlot* slot, uint32_t generation);
  // FreeAllEvent: faults when a buffer is still enqueued (the device's queue must have every
  // buffer dequeued); otherwise nothing to simulate (see TQueBind::FreeAllEvent).
  void FreeAllEvents();
  // Faults unless `slot` is a live buffer of this queue (not null, not another's, not freed).
  void CheckOwnTensor(const char* call, BufferSlot* slot, uint32_t generation) const;

  uint32_t queued() const { return fifo_count_; }
  uint32_t idle() const;
  uint32_t buffer_count() const { return static_cast<uint32_t>(slots_.size()); }
  uint32_t buffer_bytes() const { return slots_.empty() ? 0 : slots_[0]->bytes; }
  AscendC::TPosition position() const { return src_; }
  std::string Describe() const;  // "VECIN queue" / "VECIN->VECOUT queue"

 private:
  friend class AscendC::TPipe;
  AscendC::TPosition src_, dst_;
  int32_t depth_;
  // The queue InitBuffer gave the buffers to (BufferSlot::owner): this one, or the original of a
  // copy.
  const QueueBase* identity_ = this;
  QueueSlots slots_;
  // The enqueued tensors, oldest first, linked through BufferSlot::next_queued: a queue holds
  // each of its buffers at most once, and a link costs no allocation (every block makes its
  // TQues anew).
  BufferSlot* fifo_head_ = nullptr;
  BufferSlot* fifo_tail_ = nullptr;
  uint32_t fifo_count_ = 0;
  uint32_t next_alloc_ = 0;

  void FifoClear() {
    fifo_head_ = fifo_tail_ = nullptr;
    fifo_count_ = 0;
  }
  void FifoPush(BufferSlot* slot);
  BufferSlot* FifoPop();  // fifo_count_ > 0
};

// The region of a TBufPool (tbuf_pool.h): [base, base + size) of `memory`, handed out from
// `cursor` on; `buffers` of its `max_buffers` buffer ids are in use.
struct PoolRegion {
  AscendC::TPipe* pipe = nullptr;
  Memory memory = Memory::kUb;
  uint32_t base = 0;
  uint32_t size = 0;
  uint32_t cursor = 0;
  uint32_t buffers = 0;
  uint32_t max_buffers = 0;
  bool ready = false;
};

// AllocTensor / TBuf::Get of a buffer booked in a memory this sub-core of a mix kernel lacks.
[[noreturn]] void FaultAbsentMemory(const CoreContext& core, const char* call,
                                    const BufferSlot& slot, const std::string& what);

class TBufBase {
 public:
  explicit TBufBase(AscendC::TPosition pos) : pos_(pos) {}
  // A handle, as CANN's TBuf (a TQueBind<pos, pos, 0, 0> of buffer start and length, copyable:
  // asc-devkit include/basic_api/kernel_tpipe.h): a copy reaches the same buffer. Production
  // kernels pass TBufs by value (ops-nn apply_fused_ema_adam's ScalarPow).
  TBufBase(const TBufBase&) = default;
  TBufBase& operator=(const TBufBase&) = default;
  BufferSlot* slot(const char* call) const;

 private:
  friend class AscendC::TPipe;
  AscendC::TPosition pos_;
  BufferSlot* slot_ = nullptr;
};

// The buffer of `pipe` holding UB byte offset `ub_offset` (null when none), for the APIs that
// take raw UB addresses (TransDataTo5HD's address lists); defined in ub_movement.cpp.
BufferSlot* FindUbSlot(const AscendC::TPipe& pipe, uint64_t ub_offset);
// The stack buffer of `pipe`: the UB above its buffers (PopStackBuffer, and the temporary space of
// the advanced APIs called without sharedTmpBuffer), re-sized to what is free now; defined in
// adv_support.cpp. Faults when no UB is free.
BufferSlot* StackSlot(AscendC::TPipe& pipe, const char* call);

}  // namespace ascsim::aicore

namespace AscendC {

constexpr bool IsUserQuePos(TPosition p) {
  return p == TPosition::GM || p == TPosition::VECIN || p == TPosition::VECOUT ||
         p == TPosition::VECCALC;
}

template <TPosition src, TPosition dst, int32_t depth, auto mask = 0>
class TQueBind : private ascsim::aicore::QueueBase {
  // The queue protocol's machinery stays out of kernel code's reach; TPipe carves the buffers.
  friend class TPipe;

 public:
  TQueBind() : QueueBase(src, dst, depth) {}

  // Depth >= 1: AllocTensor -> EnQue -> DeQue -> FreeTensor through the queue's FIFO. Depth 0
  // (TQue<pos, 0>): no FIFO; the tensor is allocated, enqueued and dequeued in place
  // (AllocTensor(tensor), EnQue(tensor), DeQue(tensor)); the forms of the other kind do not
  // compile, as in CANN (asc-devkit impl/basic_api/kernel_tquebind_impl.h).
  template <class T>
  LocalTensor<T> AllocTensor() {
    static_assert(depth != 0, "must use AllocTensor<LocalTensor&> api while tque's depth is zero");
    ascsim::aicore::BufferSlot* slot = AllocSlot();
    return ascsim::aicore::TensorAccess::Bind<T>(slot, slot->bytes / sizeof(T));
  }
  template <class T>
  void AllocTensor(LocalTensor<T>& tensor) {
    static_assert(depth == 0, "can not AllocTensor in place while tque's depth is non zero");
    ascsim::aicore::BufferSlot* slot = AllocSlot();
    tensor = ascsim::aicore::TensorAccess::Bind<T>(slot, slot->bytes / sizeof(T));
  }
  template <class T>
  bool EnQue(const LocalTensor<T>& tensor) {
    EnQueSlot(ascsim::aicore::TensorAccess::Slot(tensor),
              ascsim::aicore::TensorAccess::Generation(tensor), depth != 0);
    return true;
  }
  // EnQue / DeQue synchronising the pipes of the user positions instead of the queue's (a VECCALC
  // queue handing a tensor from VECOUT to VECIN work, say). UB positions and GM only.
  template <TPosition srcUserPos, TPosition dstUserPos, class T>
  bool EnQue(const LocalTensor<T>& tensor) {
    static_assert(depth != 0, "can not enque tbuf with user pos while tque's depth is zero");
    static_assert(IsUserQuePos(srcUserPos) && IsUserQuePos(dstUserPos),
                  "enque only support src/dst position GM/UB(VECIN/VECOUT/VECCALC) currently.");
    static_assert(!(srcUserPos == TPosition::GM && dstUserPos == TPosition::GM),
                  "enque src and dst position cannot be GM at the same time.");
    EnQueSlot(ascsim::aicore::TensorAccess::Slot(tensor),
              ascsim::aicore::TensorAccess::Generation(tensor), true, srcUserPos, dstUserPos);
    return true;
  }
  template <class T>
  LocalTensor<T> DeQue() {
    static_assert(depth != 0, "must use DeQue<LocalTensor&> api while tque's depth is zero");
    ascsim::aicore::BufferSlot* slot = DeQueSlot();
    return ascsim::aicore::TensorAccess::Bind<T>(slot, slot->bytes / sizeof(T));
  }
  // DeQue(): the oldest enqueued buffer as its handle (what LocalTensor::GetBufferHandle gives),
  // for kernels that keep their LocalTensor and only need the hand-over's synchronisation
  // (asc-devkit include/basic_api/kernel_tpipe.h `TBufHandle DeQue();`; ops-nn rms_norm,
  // ops-transformer incre_flash_attention).
  TBufHandle DeQue() {
    static_assert(depth != 0, "must use DeQue<LocalTensor&> api while tque's depth is zero");
    return reinterpret_cast<TBufHandle>(DeQueSlot());
  }
  template <TPosition srcUserPos, TPosition dstUserPos, class T>
  LocalTensor<T> DeQue() {
    static_assert(depth != 0, "must use DeQue<LocalTensor&> api while tque's depth is zero");
    static_assert(IsUserQuePos(srcUserPos) && IsUserQuePos(dstUserPos),
                  "deque only support src/dst position GM/UB(VECIN/VECOUT/VECCALC) currently.");
    ascsim::aicore::BufferSlot* slot = DeQueSlot(srcUserPos, dstUserPos);
    return ascsim::aicore::TensorAccess::Bind<T>(slot, slot->bytes / sizeof(T));
  }
  template <class T>
  void DeQue(LocalTensor<T>& tensor) {
    static_assert(depth == 0, "can not DeQue tensor in place while tque's depth is non zero");
    DeQueInPlace(ascsim::aicore::TensorAccess::Slot(tensor),
                 ascsim::aicore::TensorAccess::Generation(tensor));
  }
  template <class T>
  void FreeTensor(LocalTensor<T>& tensor) {
    FreeSlot(ascsim::aicore::TensorAccess::Slot(tensor),
             ascsim::aicore::TensorAccess::Generation(tensor));
  }
  // Releases the synchronisation events the queue's freed buffers still hold (asc-devkit
  // include/basic_api/kernel_tpipe.h `void FreeAllEvent()`; impl/basic_api/kernel_tquebind_impl.h:
  // for every buffer whose free event is pending, WaitFlag on it and release the event id, so a
  // kernel can give the ids back before it sets up other queues; depth 0 does not compile, and a
  // buffer still enqueued fails its CPU-debug check). In ascsim the next AllocTensor of a buffer
  // already waits for the pipes that used it before FreeTensor, and event ids are not a limited
  // resource, so after the check there is nothing left to do: the same waits happen at the next
  // AllocTensor instead (values and sanitizer verdicts are the same).
  void FreeAllEvent() {
    static_assert(depth != 0, "can not use FreeAllEvent api while depth is zero");
    FreeAllEvents();
  }
  bool VacantInQue() const { return queued() < buffer_count(); }
  bool HasTensorInQue() const { return queued() > 0; }
  int32_t GetTensorCountInQue() const { return static_cast<int32_t>(queued()); }
  bool HasIdleBuffer() const { return idle() > 0; }
};

template <TPosition pos, int32_t depth = 1, auto mask = 0>
class TQue : public TQueBind<pos, pos, depth, mask> {};

// A queue whose buffers are in the L1 Buffer, written from `pos` (VECIN or GM) for the Cube to
// read (asc-devkit include/basic_api/kernel_tpipe.h and docs 资源管理/TSCM/TSCM简介.md).
template <TPosition pos, int32_t depth = 1, auto mask = 0>
using TSCM = TQueBind<pos, TPosition::TSCM, depth, mask>;

template <TPosition pos = TPosition::VECCALC>
class TBuf : private ascsim::aicore::TBufBase {
  friend class TPipe;

 public:
  TBuf() : TBufBase(pos) {}

  template <class T>
  LocalTensor<T> Get() {
    ascsim::aicore::BufferSlot* s = slot("TBuf::Get");
    return ascsim::aicore::TensorAccess::Bind<T>(s, s->bytes / sizeof(T));
  }
  template <class T>
  LocalTensor<T> Get(uint32_t len) {
    ascsim::aicore::BufferSlot* s = slot("TBuf::Get");
    CheckFits("TBuf::Get", s, 0, len, sizeof(T));
    return ascsim::aicore::TensorAccess::Bind<T>(s, len);
  }
  // CANN's TBuf is a TQueBind<pos, pos, 0> whose queue calls do nothing but hand out the whole
  // buffer (asc-devkit impl/basic_api/kernel_tbuf_impl.h): AllocTensor and DeQue are Get,
  // EnQue and FreeTensor are no-ops. Kernels written against a TQue keep working on a TBuf.
  template <class T>
  LocalTensor<T> AllocTensor() {
    return Get<T>();
  }
  template <class T>
  LocalTensor<T> DeQue() {
    return Get<T>();
  }
  template <class T>
  void EnQue(const LocalTensor<T>&) {}
  template <class T>
  void FreeTensor(LocalTensor<T>&) {}

  // The address record of this TBuf's buffer (asc-devkit impl/basic_api/kernel_tbuf_impl.h
  // TBuf::GetBufferAddr): `buf` must be the handle of a tensor of this TBuf. dataLen is the
  // whole buffer (the device records the length of the last Get(len)).
  TBuffAddr GetBufferAddr(TBufHandle buf) {
    ascsim::aicore::BufferSlot* s = slot("TBuf::GetBufferAddr");
    if (reinterpret_cast<ascsim::aicore::BufferSlot*>(buf) != s) {
      ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                            buf == nullptr ? std::string("TBuf::GetBufferAddr: the handle is null")
                                           : std::string("TBuf::GetBufferAddr: the handle is not "
                                                         "this TBuf's buffer"));
    }
    TBuffAddr addr;
    addr.dataLen = s->bytes;
    addr.bufferAddr = s->mem_offset;
    addr.bufferHandle = buf;
    addr.logicPos = static_cast<uint8_t>(pos);
    addr.absAddr = s->addr;
    return addr;
  }

  // `size` elements starting `bufOffset` bytes into the buffer.
  template <class T>
  LocalTensor<T> GetWithOffset(uint32_t size, uint32_t bufOffset) {
    ascsim::aicore::BufferSlot* s = slot("TBuf::GetWithOffset");
    CheckFits("TBuf::GetWithOffset", s, bufOffset, size, sizeof(T));
    if (bufOffset % ONE_BLK_SIZE != 0) {
      ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                            ascsim::aicore::Str("TBuf::GetWithOffset: offset ", bufOffset,
                                                " B is not 32-byte aligned"));
    }
    LocalTensor<T> whole = ascsim::aicore::TensorAccess::Bind<T>(s, s->bytes / sizeof(T));
    LocalTensor<T> view = whole[bufOffset / sizeof(T)];
    view.SetSize(size);
    return view;
  }

 private:
  static void CheckFits(const char* call, ascsim::aicore::BufferSlot* s, uint64_t offset_bytes,
                        uint64_t count, uint64_t elem) {
    if (offset_bytes + count * elem > s->bytes) {
      ascsim::aicore::Fault(
          ascsim::ErrorKind::kOutOfBounds,
          ascsim::aicore::Str(call, ": ", count, " elements of ", elem, " B at byte offset ",
                              offset_bytes, " exceed the TBuf's ", s->bytes, " B"));
    }
  }
};

class TPipe {
 public:
  TPipe();
  ~TPipe();
  TPipe(const TPipe&) = delete;
  // CANN's TPipe has the implicit copy assignment (asc-devkit include/basic_api/kernel_tpipe.h
  // declares none and deletes none), so `pipe_ = pipe;` compiles there (ops-nn layer_norm_grad_v3,
  // ada_layer_norm_grad keep a TPipe member and assign the kernel's to it). The copy would be a
  // second TPipe carving the same UB from the first one's cursor; ascsim keeps one TPipe per
  // kernel, so the assignment is a one-line "not simulated" error naming it (tpipe.cpp).
  TPipe& operator=(const TPipe& other);

  // `num` buffers of `len` bytes (rounded up to 32 B) for a queue.
  template <TPosition src, TPosition dst, int32_t depth, auto mask>
  bool InitBuffer(TQueBind<src, dst, depth, mask>& que, uint8_t num, uint32_t len) {
    return InitQueue(que, num, len);
  }
  template <TPosition pos>
  bool InitBuffer(TBuf<pos>& buf, uint32_t len) {
    return InitTBuf(buf, len);
  }

  // The constructor initialises the pipe; after Destroy(), Init() makes it the kernel's TPipe again
  // (asc-devkit docs TPipe/Init.md: "每次复用需要先Destroy释放资源，再调用init重新初始化").
  void Init();
  // A TBufPool of `len` bytes (rounded up to 32 B) carved from this pipe, or sharing `shareBuf`'s
  // start and length (tbuf_pool.h; docs TPipe/InitBufPool.md).
  template <TPosition pos, uint32_t bufIDSize>
  bool InitBufPool(TBufPool<pos, bufIDSize>& bufPool, uint32_t len);
  template <TPosition pos, uint32_t bufIDSize, TPosition sharePos, uint32_t shareIds>
  bool InitBufPool(TBufPool<pos, bufIDSize>& bufPool, uint32_t len,
                   TBufPool<sharePos, shareIds>& shareBuf);

  // Releases every buffer of this pipe (queues and TBufs must not be used afterwards).
  void Reset();
  // Releases the pipe's resources for good; only then may the kernel construct the next TPipe.
  void Destroy();

  // Event ids for SetFlag/WaitFlag, 8 per HardEvent (kernel_tpipe_impl.h): FetchEventID returns
  // the lowest id AllocEventID has not taken, without taking it (two FetchEventID in a row give
  // the same id); AllocEventID takes it until ReleaseEventID.
  template <HardEvent evt>
  TEventID FetchEventID() {
    return FetchEventID(evt);
  }
  TEventID FetchEventID(HardEvent evt);
  template <HardEvent evt>
  TEventID AllocEventID() {
    return TakeEventId(evt);
  }
  template <HardEvent evt>
  void ReleaseEventID(TEventID id) {
    GiveBackEventId(evt, id);
  }

  // Bytes carved so far from the Unified Buffer / from `memory` (memory.h).
  uint32_t used_bytes() const { return used_[0]; }
  uint32_t used_bytes(ascsim::aicore::Memory memory) const {
    return used_[static_cast<int>(memory)];
  }
  uint32_t buffer_count() const { return slot_count_; }

 private:
  friend ascsim::aicore::BufferSlot* ascsim::aicore::FindUbSlot(const TPipe& pipe,
                                                                uint64_t ub_offset);
  friend ascsim::aicore::BufferSlot* ascsim::aicore::StackSlot(TPipe& pipe, const char* call);
  template <TPosition pos, uint32_t bufIDSize>
  friend class TBufPool;
  // Carves `len` bytes for a pool of `pos` from this pipe (`parent` null) or from `parent`'s
  // region, or shares `share`'s region; `what` names the pool in messages (tpipe.cpp).
  void CarvePool(ascsim::aicore::PoolRegion& pool, TPosition pos, uint32_t len,
                 uint32_t max_buffers, ascsim::aicore::PoolRegion* parent,
                 const ascsim::aicore::PoolRegion* share, const char* what);
  // While a pool is entered, InitQueue / InitTBuf carve from its region.
  void EnterPool(ascsim::aicore::PoolRegion& pool, uint32_t buffers, const char* what);
  void LeavePool(ascsim::aicore::PoolRegion& pool);
  bool InitQueue(ascsim::aicore::QueueBase& que, uint32_t num, uint32_t len);
  bool InitTBuf(ascsim::aicore::TBufBase& buf, uint32_t len);
  ascsim::aicore::BufferSlot* Carve(uint32_t len, TPosition pos, ascsim::aicore::Memory memory);
  // The memory `pos` lives in on this core; faults when the core has none (an AIC has no UB, an
  // AIV no L1/L0, CO2 is GM on A2). `what` names the queue/TBuf for messages.
  ascsim::aicore::Memory MemoryFor(TPosition pos, const std::string& what);
  // The bytes of `memory` this pipe may carve (the profile's size where the core lacks it).
  uint32_t MemoryCapacity(ascsim::aicore::Memory memory) const;
  // Faults when `num` buffers of `rounded` bytes do not fit in what is left of `memory`.
  void CheckCapacity(ascsim::aicore::Memory memory, const std::string& what, uint64_t num,
                     uint64_t rounded, bool tbuf = false);
  // Marks every buffer record stale for good and hands them to the core (they outlive the pipe).
  void RetireForGood();
  TEventID TakeEventId(HardEvent evt);
  void GiveBackEventId(HardEvent evt, TEventID id);

  ascsim::aicore::CoreContext* core_;
  TPipe* previous_;
  uint32_t used_[ascsim::aicore::kLocalMemoryCount] = {};  // bytes carved per memory
  // The buffers carved since construction or the last Reset. Their records live in the block's
  // SlotStore (buffer_slot.h) until the block ends, so a LocalTensor from before a Reset or
  // Destroy still finds its (bumped) generation and is reported as stale instead of reading
  // freed memory. (Plain arrays and vectors: TPipe lives in kernel code, so its members must
  // have the same layout under both libstdc++ ABIs.)
  ascsim::aicore::BufferSlot* slots_[ascsim::aicore::kMaxBuffersPerTPipe] = {};
  uint32_t slot_count_ = 0;
  std::vector<ascsim::aicore::BufferSlot*> retired_;                // released by Reset
  uint8_t taken_event_ids_[static_cast<int>(HardEvent::MAX)] = {};  // bit i: EVENT_IDi taken
  ascsim::aicore::BufferSlot stack_slot_;  // the free UB above the buffers (StackSlot)
  bool stack_slot_valid_ = false;
  ascsim::aicore::PoolRegion* pool_ = nullptr;  // the TBufPool being carved from (EnterPool)
  uint32_t pool_saved_used_ = 0;
};

// The TPipe constructed most recently on this core.
TPipe* GetTPipePtr();

}  // namespace AscendC
