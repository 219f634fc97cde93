/**
 * @file faulty_kernels.cpp
 * Kernels with realistic bugs, written the way the Ascend C samples are (KernelAdd shape), for the
 * error-path tests. The checks that catch them live in src/aicore; nothing here checks anything.
 */
#include "faulty_kernels.h"

#include <cstring>

#include "aclrtlaunch_add_custom.h"
#include "ascsim/kernel_launcher.h"
#include "kernel_operator.h"

namespace {
constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t SMALL_TILE_BYTES = 256;
}  // namespace

// Bug: Process() calls Compute() without the CopyIn() that would EnQue the input tile, so the
// DeQue in Compute() finds the queue empty.
class KernelDequeueEmpty {
public:
    __aicore__ inline KernelDequeueEmpty() {}
    __aicore__ inline void Init()
    {
        pipe.InitBuffer(inQueueX, BUFFER_NUM, SMALL_TILE_BYTES);
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, SMALL_TILE_BYTES);
    }
    __aicore__ inline void Process()
    {
        Compute();
    }

private:
    __aicore__ inline void Compute()
    {
        AscendC::LocalTensor<half> xLocal = inQueueX.DeQue<half>();
        AscendC::LocalTensor<half> zLocal = outQueueZ.AllocTensor<half>();
        AscendC::Adds(zLocal, xLocal, half(1.0f), SMALL_TILE_BYTES / sizeof(half));
        outQueueZ.EnQue<half>(zLocal);
        inQueueX.FreeTensor(xLocal);
    }

    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
};

extern "C" __global__ __aicore__ void dequeue_empty_custom()
{
    KernelDequeueEmpty op;
    op.Init();
    op.Process();
}

// Bug: the tile is 64 KiB per buffer (tuned for a bigger UB), so two input queues and one output
// queue, double buffered, need 384 KiB of Unified Buffer; the core has 192 KiB (256 KiB on 310P).
class KernelUbOverflow {
public:
    __aicore__ inline KernelUbOverflow() {}
    __aicore__ inline void Init()
    {
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_BYTES);
        pipe.InitBuffer(inQueueY, BUFFER_NUM, TILE_BYTES);
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, TILE_BYTES);
    }

private:
    static constexpr uint32_t TILE_BYTES = 64 * 1024;
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
};

extern "C" __global__ __aicore__ void ub_overflow_custom()
{
    KernelUbOverflow op;
    op.Init();
}

// Bug: the copy length is used as given; DataCopy needs count * sizeof(T) to be a multiple of
// 32 B (DataCopyPad is the call for other lengths).
template <typename T>
class KernelUnalignedCopy {
public:
    __aicore__ inline KernelUnalignedCopy() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR z, uint32_t count)
    {
        this->count = count;
        const uint32_t start = AscendC::GetBlockIdx() * count;
        xGm.SetGlobalBuffer((__gm__ T *)x + start, count);
        zGm.SetGlobalBuffer((__gm__ T *)z + start, count);
        pipe.InitBuffer(queue, 1, count * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<T> local = queue.AllocTensor<T>();
        AscendC::DataCopy(local, xGm, count);
        queue.EnQue(local);
        local = queue.DeQue<T>();
        AscendC::DataCopy(zGm, local, count);
        queue.FreeTensor(local);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQueBind<AscendC::QuePosition::VECIN, AscendC::QuePosition::VECOUT, 1> queue;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> zGm;
    uint32_t count;
};

extern "C" __global__ __aicore__ void unaligned_copy_custom(GM_ADDR x, GM_ADDR z, uint32_t count)
{
    KernelUnalignedCopy<half> op;
    op.Init(x, z, count);
    op.Process();
}

extern "C" __global__ __aicore__ void unaligned_copy_custom_float(GM_ADDR x, GM_ADDR z,
                                                                  uint32_t count)
{
    KernelUnalignedCopy<float> op;
    op.Init(x, z, count);
    op.Process();
}

// Bug: a hand-made handshake. Every core waits for a "ready" flag in GM that neither another core
// nor the host ever sets, doing a little vector work per poll. On the device the kernel spins
// until the AI-core timeout; here the launch timeout (or a cancel) stops it at its next API call.
class KernelSpinForever {
public:
    __aicore__ inline KernelSpinForever() {}
    __aicore__ inline void Init(GM_ADDR flag)
    {
        flagGm.SetGlobalBuffer((__gm__ int32_t *)flag, FLAG_INTS);
        pipe.InitBuffer(workBuf, WORK_ELEMS * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> work = workBuf.Get<float>();
        AscendC::Duplicate(work, 0.0f, WORK_ELEMS);
        while (flagGm.GetValue(0) == 0) {
            AscendC::Adds(work, work, 1.0f, WORK_ELEMS);
        }
    }

private:
    static constexpr uint32_t FLAG_INTS = 8;
    static constexpr uint32_t WORK_ELEMS = 64;
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> workBuf;
    AscendC::GlobalTensor<int32_t> flagGm;
};

extern "C" __global__ __aicore__ void spin_forever_custom(GM_ADDR flag)
{
    KernelSpinForever op;
    op.Init(flag);
    op.Process();
}

// Bug: the tile is copied into a TBuf and read by the vector pipe with no SetFlag/WaitFlag
// <HardEvent::MTE2_V> between them (a TBuf has no queue to order it): on the device the vector
// pipe may compute on the tile before it has arrived. The sanitizer's race check reports it.
class KernelMissingSync {
 public:
  __aicore__ inline KernelMissingSync() {}
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR z, uint32_t count) {
    this->count = count;
    const uint32_t start = AscendC::GetBlockIdx() * count;
    xGm.SetGlobalBuffer((__gm__ float*)x + start, count);
    zGm.SetGlobalBuffer((__gm__ float*)z + start, count);
    pipe.InitBuffer(inBuf, count * sizeof(float));
    pipe.InitBuffer(outBuf, count * sizeof(float));
  }
  __aicore__ inline void Process() {
    AscendC::LocalTensor<float> xLocal = inBuf.Get<float>();
    AscendC::LocalTensor<float> zLocal = outBuf.Get<float>();
    AscendC::DataCopy(xLocal, xGm, count);
    AscendC::Muls(zLocal, xLocal, 2.0f, count);  // missing: SetFlag/WaitFlag<MTE2_V>
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
    AscendC::DataCopy(zGm, zLocal, count);
  }

 private:
  AscendC::TPipe pipe;
  AscendC::TBuf<AscendC::TPosition::VECCALC> inBuf, outBuf;
  AscendC::GlobalTensor<float> xGm;
  AscendC::GlobalTensor<float> zGm;
  uint32_t count;
};

extern "C" __global__ __aicore__ void missing_sync_custom(GM_ADDR x, GM_ADDR z, uint32_t count) {
  KernelMissingSync op;
  op.Init(x, z, count);
  op.Process();
}

namespace ascsim::kernels::testing {

void LaunchAddWithLength(ElementType type, const void* x, const void* y, void* z,
                         uint32_t total_length, uint32_t block_dim, Stream* stream) {
  if (type == ElementType::kFloat16) {
    MakeKernelLauncher("add_custom", &add_custom).Run(block_dim, stream, x, y, z, total_length);
  } else {
    MakeKernelLauncher("add_custom", &add_custom_float)
        .Run(block_dim, stream, x, y, z, total_length);
  }
}

void LaunchDequeueEmpty(uint32_t block_dim, Stream* stream) {
  MakeKernelLauncher("dequeue_empty_custom", &dequeue_empty_custom).Run(block_dim, stream);
}

void LaunchUbOverflow(uint32_t block_dim, Stream* stream) {
  MakeKernelLauncher("ub_overflow_custom", &ub_overflow_custom).Run(block_dim, stream);
}

void LaunchUnalignedCopy(ElementType type, const void* x, void* z, uint32_t count,
                         uint32_t block_dim, Stream* stream) {
  if (type == ElementType::kFloat16) {
    MakeKernelLauncher("unaligned_copy_custom", &unaligned_copy_custom)
        .Run(block_dim, stream, x, z, count);
  } else {
    MakeKernelLauncher("unaligned_copy_custom", &unaligned_copy_custom_float)
        .Run(block_dim, stream, x, z, count);
  }
}

void LaunchMissingSync(const void* x, void* z, uint32_t count, uint32_t block_dim, Stream* stream) {
  MakeKernelLauncher("missing_sync_custom", &missing_sync_custom)
      .Run(block_dim, stream, x, z, count);
}

void LaunchSpinForever(uint32_t block_dim, Stream* stream) {
  // The flag the kernel waits for: zeroed device memory shared by every launch and never freed
  // (a queued launch may run after the caller has returned).
  static void* const flag = [] {
    void* p = DeviceMalloc(32);
    std::memset(p, 0, 32);
    return p;
  }();
  MakeKernelLauncher("spin_forever_custom", &spin_forever_custom).Run(block_dim, stream, flag);
}

}  // namespace ascsim::kernels::testing
