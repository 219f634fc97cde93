// Kernels for the cost model's calibration against published Atlas A2 measurements
// (docs/calibration.md). Written for these tests in the style of the asc-devkit best-practice
// Add (examples/01_simd_cpp_api/05_best_practices/00_vector_compute/add_high_performance): the
// rows of an [8192, 8192] half matrix split evenly over the blocks, a loop of DataCopy in,
// Add, DataCopy out ordered by hardware flags, UB buffers at explicit byte offsets (carved from
// one TBuf), optional double buffering and L2 bypass for the inputs.
#pragma once

#include <cstdint>

#include <cstring>
#include <string>

#include "ascsim/profile.h"
#include "ascsim/runtime.h"
#include "kernel_operator.h"

namespace calibration {

constexpr uint32_t kUbBytes = 192 * 1024;

// One version of the Add: what the published table varies.
struct AddVersion {
  uint32_t rows = 8192, cols = 8192;  // the matrix, split by rows over the blocks
  uint32_t copy_len = 4096;           // elements per DataCopy
  uint32_t buffer_num = 1;            // 2: ping-pong with two event ids
  uint32_t bypass_l2 = 0;             // SetL2CacheHint(CACHE_MODE_DISABLE) on x and y
  // UB byte offsets of x, y, z: [0] ping, [1] pong.
  uint32_t x_addr[2] = {0, 0}, y_addr[2] = {0, 0}, z_addr[2] = {0, 0};
};

// The layouts of the published versions (byte offsets; "MAX" is the largest copy, 16384 half).
// Packed: x, y, z one after the other (the read operands x and y land in the same bank groups).
inline AddVersion PackedLayout(AddVersion v, uint32_t max_len) {
  const uint32_t slot = max_len * 2;
  v.x_addr[0] = 0;
  v.y_addr[0] = slot;
  v.z_addr[0] = 2 * slot;
  v.x_addr[1] = 3 * slot;
  v.y_addr[1] = 4 * slot;
  v.z_addr[1] = 5 * slot;
  return v;
}
// Bank-conflict free: y starts one copy (copy_len halves) after x, which shifts it by 256 B of
// bank groups when copy_len = MAX - 128; ping and pong 2 * MAX apart, z after the inputs.
inline AddVersion SpreadLayout(AddVersion v, uint32_t max_len) {
  const uint32_t slot = max_len * 2, copy = v.copy_len * 2;
  v.x_addr[0] = 0;
  v.y_addr[0] = copy;
  v.x_addr[1] = 2 * slot;
  v.y_addr[1] = 2 * slot + copy;
  v.z_addr[0] = 4 * slot;
  v.z_addr[1] = 4 * slot + copy;
  return v;
}

class KernelAddVersion {
 public:
  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const AddVersion& v) {
    v_ = v;
    // Even split of the rows: the first `rem` blocks take one row more.
    const uint32_t blocks = AscendC::GetBlockNum(), idx = AscendC::GetBlockIdx();
    const uint32_t base = v.rows / blocks, rem = v.rows % blocks;
    const uint32_t rows = idx < rem ? base + 1 : base;
    const uint32_t start = idx < rem ? idx * rows : rem * (base + 1) + (idx - rem) * base;
    elements_ = static_cast<uint64_t>(rows) * v.cols;
    const uint64_t offset = static_cast<uint64_t>(start) * v.cols;
    xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(x) + offset, elements_);
    yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(y) + offset, elements_);
    zGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(z) + offset, elements_);
    if (v.bypass_l2 != 0) {
      xGm_.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
      yGm_.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
    }
    pipe_.InitBuffer(ub_, kUbBytes);
    AscendC::LocalTensor<half> all = ub_.Get<half>();
    for (int b = 0; b < 2; ++b) {
      x_[b] = all[v.x_addr[b] / sizeof(half)];
      y_[b] = all[v.y_addr[b] / sizeof(half)];
      z_[b] = all[v.z_addr[b] / sizeof(half)];
    }
  }

  __aicore__ inline void Process() {
    if (v_.buffer_num == 2) {
      ProcessDoubleBuffer();
    } else {
      ProcessSingle();
    }
  }

 private:
  __aicore__ inline uint32_t Loops() const {
    return static_cast<uint32_t>((elements_ + v_.copy_len - 1) / v_.copy_len);
  }
  __aicore__ inline uint32_t Len(uint32_t i) const {
    const uint64_t left = elements_ - static_cast<uint64_t>(i) * v_.copy_len;
    return left > v_.copy_len ? v_.copy_len : static_cast<uint32_t>(left);
  }

  // One buffer: the next load waits for the Add to have read x and y, the next Add for the
  // store to have read z.
  __aicore__ inline void ProcessSingle() {
    const uint32_t loops = Loops();
    for (uint32_t i = 0; i < loops; ++i) {
      const uint64_t at = static_cast<uint64_t>(i) * v_.copy_len;
      const uint32_t len = Len(i);
      if (i > 0) AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);
      AscendC::DataCopy(x_[0], xGm_[at], len);
      AscendC::DataCopy(y_[0], yGm_[at], len);
      AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
      AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
      if (i > 0) AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID0);
      AscendC::Add(z_[0], x_[0], y_[0], len);
      if (i + 1 < loops) AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);
      AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
      AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(EVENT_ID0);
      AscendC::DataCopy(zGm_[at], z_[0], len);
      if (i + 1 < loops) AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID0);
    }
  }

  // Ping-pong: tile i uses buffer set i % 2 and event id i % 2, so the loads of one tile
  // overlap the Add and the store of the other.
  __aicore__ inline void ProcessDoubleBuffer() {
    AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID1);
    AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID0);
    AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID1);
    const uint32_t loops = Loops();
    for (uint32_t i = 0; i < loops; ++i) {
      const uint64_t at = static_cast<uint64_t>(i) * v_.copy_len;
      const uint32_t len = Len(i);
      const int b = static_cast<int>(i & 1);
      const auto event = static_cast<event_t>(b == 0 ? EVENT_ID0 : EVENT_ID1);
      AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(event);
      AscendC::DataCopy(x_[b], xGm_[at], len);
      AscendC::DataCopy(y_[b], yGm_[at], len);
      AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(event);
      AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(event);
      AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(event);
      AscendC::Add(z_[b], x_[b], y_[b], len);
      AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(event);
      AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(event);
      AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(event);
      AscendC::DataCopy(zGm_[at], z_[b], len);
      AscendC::SetFlag<AscendC::HardEvent::MTE3_V>(event);
    }
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID1);
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE3_V>(EVENT_ID1);
  }

  AscendC::TPipe pipe_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> ub_;
  AscendC::GlobalTensor<half> xGm_, yGm_, zGm_;
  AscendC::LocalTensor<half> x_[2], y_[2], z_[2];
  AddVersion v_;
  uint64_t elements_ = 0;
};

extern "C" __global__ __aicore__ inline void add_version(GM_ADDR x, GM_ADDR y, GM_ADDR z,
                                                         AddVersion version) {
  KernelAddVersion op;
  op.Init(x, y, z, version);
  op.Process();
}

// GM -> UB transfer patterns of a [rows, cols] half matrix (asc-devkit
// examples/01_simd_cpp_api/05_best_practices/04_memory_access/data_copy describes them; the
// kernel here is written for these tests): each block walks its own rows (or, for `whole`, the
// whole matrix), in tiles of [tile_m, tile_n] moved by one DataCopyPad each into one UB buffer.
struct CopyPattern {
  uint32_t rows = 12288, cols = 12288;
  uint32_t tile_m = 64, tile_n = 1024;
  uint32_t repeats = 1;    // passes over the data
  uint32_t slices = 1;     // the columns in this many slices, each passed over `repeats` times
  uint32_t whole = 0;      // every block loads the whole matrix, by blocks of `rows / blocks`
  uint32_t stagger = 0;    // with `whole`: block b starts at row block b (else all at 0)
  uint32_t bypass_l2 = 0;  // SetL2CacheHint(CACHE_MODE_DISABLE) on the source
};

class KernelCopyPattern {
 public:
  __aicore__ inline void Init(GM_ADDR src, const CopyPattern& p) {
    p_ = p;
    srcGm_.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(src),
                           static_cast<uint64_t>(p.rows) * p.cols);
    if (p.bypass_l2 != 0) srcGm_.SetL2CacheHint(AscendC::CacheMode::CACHE_MODE_DISABLE);
    pipe_.InitBuffer(ub_, p.tile_m * ((p.tile_n * sizeof(half) + 31) / 32 * 32));
  }
  __aicore__ inline void Process() {
    const uint32_t blocks = AscendC::GetBlockNum(), idx = AscendC::GetBlockIdx();
    const uint32_t per_block = p_.rows / blocks;
    if (p_.whole != 0) {
      for (uint32_t b = 0; b < blocks; ++b) {
        const uint32_t which = p_.stagger != 0 ? (b + idx) % blocks : b;
        Walk(which * per_block, per_block, 0, p_.cols);
      }
      return;
    }
    const uint32_t slice = p_.cols / p_.slices;
    for (uint32_t s = 0; s < p_.slices; ++s) {
      for (uint32_t r = 0; r < p_.repeats; ++r) Walk(idx * per_block, per_block, s * slice, slice);
    }
  }

 private:
  __aicore__ inline void Walk(uint32_t row0, uint32_t rows, uint32_t col0, uint32_t cols) {
    AscendC::LocalTensor<half> buf = ub_.Get<half>();
    AscendC::DataCopyPadParams pad{false, 0, 0, 0};
    for (uint32_t m = 0; m < rows; m += p_.tile_m) {
      for (uint32_t n = 0; n < cols; n += p_.tile_n) {
        const uint32_t width = n + p_.tile_n > cols ? cols - n : p_.tile_n;
        AscendC::DataCopyParams params;
        params.blockCount = static_cast<uint16_t>(p_.tile_m);
        params.blockLen = static_cast<uint16_t>(width * sizeof(half));
        params.srcStride = static_cast<uint16_t>((p_.cols - width) * sizeof(half));
        params.dstStride = 0;
        const uint64_t at = static_cast<uint64_t>(row0 + m) * p_.cols + col0 + n;
        AscendC::DataCopyPad(buf, srcGm_[at], params, pad);
      }
    }
  }

  AscendC::TPipe pipe_;
  AscendC::TBuf<AscendC::TPosition::VECIN> ub_;
  AscendC::GlobalTensor<half> srcGm_;
  CopyPattern p_;
};

extern "C" __global__ __aicore__ inline void copy_pattern(GM_ADDR src, CopyPattern pattern) {
  KernelCopyPattern op;
  op.Init(src, pattern);
  op.Process();
}

// The data_copy README's [12288, 12288] half source (smaller matrices use its start), allocated
// once per process for every held-out row that reads it; zeros: the estimate does not depend on
// values.
inline GM_ADDR DataCopySource() {
  static void* src = [] {
    const uint64_t bytes = uint64_t{12288} * 12288 * 2;
    void* p = ascsim::DeviceMalloc(bytes);
    std::memset(p, 0, bytes);
    return p;
  }();
  return static_cast<GM_ADDR>(src);
}

// The estimated duration (issue to result, us) of the first call named `name` in a launch's
// timeline; 0 when there is none.
inline double CallUs(const ascsim::LaunchEstimate& e, const std::string& name) {
  for (const ascsim::TimelineEvent& ev : e.events) {
    if ((*e.traces)[ev.block].calls[ev.call_index].name == name) return ev.dur_us;
  }
  return 0;
}

// The bank_conflict_ub README's measurement: one Add of 4096 floats (64 repeats) with src0, src1
// and dst at the given UB byte offsets, after the whole UB is filled. Returns the Add's estimated
// duration in us.
inline double BankLayoutAddUs(uint32_t src0, uint32_t src1, uint32_t dst) {
  ascsim::ScopedSettings saved;
  ascsim::SetSanitize(0);
  ascsim::Profiler prof;
  ascsim::Launch("bank_add", 1, [=] {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> ub;
    pipe.InitBuffer(ub, kUbBytes);
    AscendC::LocalTensor<float> all = ub.Get<float>();
    AscendC::Duplicate(all, 1.0f, kUbBytes / 4);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::Add(all[dst / 4], all[src0 / 4], all[src1 / 4], 4096);
  });
  return CallUs(prof.Summary().at(0), "Add");
}

}  // namespace calibration
