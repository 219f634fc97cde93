// DataCopy and DataCopyPad: moves between GM and UB (MTE2 in, MTE3 out) and within UB.
// Device traps reproduced: a contiguous DataCopy whose byte length is not a multiple of 32 B is
// rounded down (and warned about); UB operands must be 32-byte aligned; every GM byte touched must
// lie inside the GlobalTensor and its device allocation.
#pragma once

#include <cstdint>

#include "ascsim/aicore/atomic.h"
#include "ascsim/aicore/cube_copy.h"
#include "ascsim/aicore/global_tensor.h"
#include "ascsim/aicore/gm_side.h"
#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/local_tensor.h"
#include "ascsim/aicore/operand_checks.h"
#include "ascsim/aicore/simd/vector_math.h"
#include "ascsim/aicore/tensor_access.h"

namespace AscendC {

// Strided copy in 32-byte data blocks: blockCount blocks of blockLen x 32 B, with srcStride and
// dstStride gaps (also in 32 B units) between consecutive blocks.
struct DataCopyParams {
  DataCopyParams() = default;
  DataCopyParams(uint16_t count, uint16_t len, uint16_t srcGap, uint16_t dstGap)
      : blockCount(count), blockLen(len), srcStride(srcGap), dstStride(dstGap) {}
  uint16_t blockCount = 1;
  uint16_t blockLen = 0;
  uint16_t srcStride = 0;
  uint16_t dstStride = 0;
};

// DataCopyPad: blockLen in bytes; the GM-side stride in bytes, the UB-side stride in 32 B blocks.
struct DataCopyExtParams {
  DataCopyExtParams() = default;
  DataCopyExtParams(uint16_t count, uint32_t len, uint32_t srcGap, uint32_t dstGap, uint32_t rsv)
      : blockCount(count), blockLen(len), srcStride(srcGap), dstStride(dstGap), rsv(rsv) {}
  uint16_t blockCount = 1;
  uint32_t blockLen = 0;
  uint32_t srcStride = 0;
  uint32_t dstStride = 0;
  uint32_t rsv = 0;
};
struct DataCopyPadParams {
  DataCopyPadParams() = default;
  DataCopyPadParams(bool pad, uint8_t left, uint8_t right, uint64_t value)
      : isPad(pad), leftPadding(left), rightPadding(right), paddingValue(value) {}
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  uint64_t paddingValue = 0;
};
template <class T>
struct DataCopyPadExtParams {
  DataCopyPadExtParams() = default;
  DataCopyPadExtParams(bool pad, uint8_t left, uint8_t right, T value)
      : isPad(pad), leftPadding(left), rightPadding(right), paddingValue(value) {}
  bool isPad = false;
  uint8_t leftPadding = 0;   // elements
  uint8_t rightPadding = 0;  // elements
  T paddingValue = T(0);
};

}  // namespace AscendC

namespace ascsim::aicore {

trace::ApiCall CopyCall(const char* name, trace::Pipe pipe, uint64_t bytes, uint8_t elem,
                        BufferRef dst_buffer, BufferRef src_buffer);

// The GM side of a copy record: where it starts (`gm`, a byte of tensor `t`), the tensor's L2
// hint and the runs (gm_side.h). Called inside Record's lambda only.
template <class T>
trace::ApiCall WithGm(trace::ApiCall call, const AscendC::GlobalTensor<T>& t, const T* gm,
                      uint64_t rows, uint64_t run_bytes, uint64_t pitch_bytes) {
  SetGmSide(call, gm, GmSideOf(t), rows, run_bytes, pitch_bytes);
  return call;
}

// The device's rounding of a contiguous DataCopy length; warns when it drops bytes.
template <class T>
uint64_t RoundedCopyCount(const char* what, uint64_t count) {
  const uint64_t bytes = count * sizeof(T);
  const uint64_t copied = RoundDownToBlock(bytes);
  if (copied != bytes) {
    Warn(Str(what, " count ", count, " of ", TypeName<T>(), " (", bytes,
             " B) is not a multiple of 32 B; the device copies ", copied, " B (",
             copied / sizeof(T), " elements) and drops the rest (use DataCopyPad)"),
         Str(what, "/", count, "/", TypeName<T>()));
  }
  return copied / sizeof(T);
}

void CheckBlockCount(const char* call, uint32_t block_count);
void RequireDataCopyPad(const char* call);

}  // namespace ascsim::aicore

namespace AscendC {

// GM -> UB, contiguous.
template <class T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const uint32_t count) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  if (ai::TensorAccess::MemoryOf(dst) != ai::Memory::kUb) {  // GM -> L1 (cube_copy.h)
    const uint64_t n = ai::RoundedCopyCount<T>("DataCopy GM->L1", count);
    ai::cube::DataCopyIn(dst, src, {1, n * sizeof(T), 0, 0}, "DataCopy GM->L1");
    return;
  }
  const uint64_t n = ai::RoundedCopyCount<T>("DataCopy GM->UB", count);
  T* d = ai::CheckUbOperand("DataCopy GM->UB", "dst", dst, n, {ascsim::trace::Pipe::kMte2});
  const T* s = ascsim::aicore::TensorAccess::CheckedAddress(src, "DataCopy GM->UB", "read", 0, n);
  ascsim::simd::Copy(d, s, n * sizeof(T));
  ai::Record(core, [&] {
    return ai::WithGm(ai::CopyCall("DataCopy", ascsim::trace::Pipe::kMte2, n * sizeof(T), sizeof(T),
                                   ai::BufferId(dst), ascsim::trace::kNoBuffer),
                      src, s, 1, n * sizeof(T), n * sizeof(T));
  });
}

// UB -> GM, contiguous.
template <class T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  if (ai::TensorAccess::MemoryOf(src) != ai::Memory::kUb) {  // L1 -> GM (cube_copy.h)
    const uint64_t n = ai::RoundedCopyCount<T>("DataCopy L1->GM", count);
    ai::cube::DataCopyOut(dst, src, {1, n * sizeof(T), 0, 0}, "DataCopy L1->GM");
    return;
  }
  const uint64_t n = ai::RoundedCopyCount<T>("DataCopy UB->GM", count);
  const T* s = ai::CheckUbOperand("DataCopy UB->GM", "src", src, n, {ascsim::trace::Pipe::kMte3});
  T* d = ascsim::aicore::TensorAccess::CheckedAddress(dst, "DataCopy UB->GM", "write", 0, n);
  ai::StoreToGm("DataCopy UB->GM", d, s, n);
  ai::Record(core, [&] {
    return ai::WithGm(ai::CopyCall("DataCopy", ascsim::trace::Pipe::kMte3, n * sizeof(T), sizeof(T),
                                   ascsim::trace::kNoBuffer, ai::BufferId(src)),
                      dst, d, 1, n * sizeof(T), n * sizeof(T));
  });
}

// UB -> UB, contiguous (runs on the vector pipe).
template <class T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  if (ai::TensorAccess::MemoryOf(dst) != ai::Memory::kUb ||
      ai::TensorAccess::MemoryOf(src) != ai::Memory::kUb) {  // between memories (cube_copy.h)
    const uint64_t n = ai::RoundedCopyCount<T>("DataCopy", count);
    ai::cube::CopyLocal("DataCopy", ai::cube::Local(dst, "DataCopy", "dst"),
                        ai::cube::Local(src, "DataCopy", "src"), nullptr, n * sizeof(T));
    return;
  }
  const uint64_t n = ai::RoundedCopyCount<T>("DataCopy UB->UB", count);
  T* d = ai::CheckUbOperand("DataCopy UB->UB", "dst", dst, n);
  const T* s = ai::CheckUbOperand("DataCopy UB->UB", "src", src, n);
  ai::CheckOverlap("DataCopy UB->UB", "dst", d, n * sizeof(T), "src", s, n * sizeof(T));
  ascsim::simd::Copy(d, s, n * sizeof(T));
  ai::Record(core, [&] {
    return ai::CopyCall("DataCopy", ascsim::trace::Pipe::kV, n * sizeof(T), sizeof(T),
                        ai::BufferId(dst), ai::BufferId(src));
  });
}

// GM -> UB, strided in 32 B blocks.
template <class T>
void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const char* call = "DataCopy GM->UB (DataCopyParams)";
  ai::CheckBlockCount(call, p.blockCount);
  if (ai::TensorAccess::MemoryOf(dst) != ai::Memory::kUb) {  // GM -> L1 (cube_copy.h)
    const uint64_t len = uint64_t{p.blockLen} * ONE_BLK_SIZE;
    ai::cube::DataCopyIn(dst, src,
                         {p.blockCount, len, len + uint64_t{p.srcStride} * ONE_BLK_SIZE,
                          len + uint64_t{p.dstStride} * ONE_BLK_SIZE},
                         "DataCopy GM->L1 (DataCopyParams)");
    return;
  }
  const uint64_t blk = ONE_BLK_SIZE / sizeof(T);  // elements per 32 B block
  const uint64_t len = uint64_t{p.blockLen} * blk;
  const uint64_t src_pitch = len + uint64_t{p.srcStride} * blk;
  const uint64_t dst_pitch = len + uint64_t{p.dstStride} * blk;
  if (p.blockCount == 0 || len == 0) return;
  const uint64_t dst_extent = (p.blockCount - 1) * dst_pitch + len;
  const uint64_t src_extent = (p.blockCount - 1) * src_pitch + len;
  const auto dst_rows = ai::Footprint::Rows(p.blockCount, len * sizeof(T), dst_pitch * sizeof(T));
  const auto src_rows = ai::Footprint::Rows(p.blockCount, len * sizeof(T), src_pitch * sizeof(T));
  T* d = ai::CheckUbOperand(call, "dst", dst, dst_extent, {ascsim::trace::Pipe::kMte2, &dst_rows});
  const T* s = ascsim::aicore::TensorAccess::CheckedAddress(src, call, "read", 0, src_extent,
                                                            ascsim::trace::Pipe::kMte2, &src_rows);
  for (uint32_t b = 0; b < p.blockCount; ++b) {
    ascsim::simd::Copy(d + b * dst_pitch, s + b * src_pitch, len * sizeof(T));
  }
  ai::Record(core, [&] {
    return ai::WithGm(ai::CopyCall("DataCopy", ascsim::trace::Pipe::kMte2,
                                   uint64_t{p.blockCount} * len * sizeof(T), sizeof(T),
                                   ai::BufferId(dst), ascsim::trace::kNoBuffer),
                      src, s, p.blockCount, len * sizeof(T), src_pitch * sizeof(T));
  });
}

// UB -> GM, strided in 32 B blocks.
template <class T>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const char* call = "DataCopy UB->GM (DataCopyParams)";
  ai::CheckBlockCount(call, p.blockCount);
  if (ai::TensorAccess::MemoryOf(src) != ai::Memory::kUb) {  // L1 -> GM (cube_copy.h)
    const uint64_t len = uint64_t{p.blockLen} * ONE_BLK_SIZE;
    ai::cube::DataCopyOut(dst, src,
                          {p.blockCount, len, len + uint64_t{p.srcStride} * ONE_BLK_SIZE,
                           len + uint64_t{p.dstStride} * ONE_BLK_SIZE},
                          "DataCopy L1->GM (DataCopyParams)");
    return;
  }
  const uint64_t blk = ONE_BLK_SIZE / sizeof(T);
  const uint64_t len = uint64_t{p.blockLen} * blk;
  const uint64_t src_pitch = len + uint64_t{p.srcStride} * blk;
  const uint64_t dst_pitch = len + uint64_t{p.dstStride} * blk;
  if (p.blockCount == 0 || len == 0) return;
  const auto src_rows = ai::Footprint::Rows(p.blockCount, len * sizeof(T), src_pitch * sizeof(T));
  const auto dst_rows = ai::Footprint::Rows(p.blockCount, len * sizeof(T), dst_pitch * sizeof(T));
  const T* s = ai::CheckUbOperand(call, "src", src, (p.blockCount - 1) * src_pitch + len,
                                  {ascsim::trace::Pipe::kMte3, &src_rows});
  T* d = ascsim::aicore::TensorAccess::CheckedAddress(dst, call, "write", 0,
                                                      (p.blockCount - 1) * dst_pitch + len,
                                                      ascsim::trace::Pipe::kMte3, &dst_rows);
  for (uint32_t b = 0; b < p.blockCount; ++b) {
    ai::StoreToGm(call, d + b * dst_pitch, s + b * src_pitch, len);
  }
  ai::Record(core, [&] {
    return ai::WithGm(ai::CopyCall("DataCopy", ascsim::trace::Pipe::kMte3,
                                   uint64_t{p.blockCount} * len * sizeof(T), sizeof(T),
                                   ascsim::trace::kNoBuffer, ai::BufferId(src)),
                      dst, d, p.blockCount, len * sizeof(T), dst_pitch * sizeof(T));
  });
}

// GM -> UB with byte-exact lengths (A2): each block lands 32 B aligned in UB, padded on the
// right up to the next 32 B; with isPad the left/right padding elements get paddingValue.
template <class T>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& p,
                 const DataCopyPadExtParams<T>& pad) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const char* call = "DataCopyPad GM->UB";
  ai::RequireDataCopyPad(call);
  ai::CheckBlockCount(call, p.blockCount);
  if (p.blockLen % sizeof(T) != 0) {
    ai::Fault(ascsim::ErrorKind::kInvalidArgument,
              ai::Str(call, ": blockLen ", p.blockLen, " B is not a whole number of ",
                      ai::TypeName<T>()));
  }
  if (p.blockCount == 0 || p.blockLen == 0) return;
  const uint64_t len = p.blockLen / sizeof(T);
  const uint64_t left = pad.leftPadding, right = pad.rightPadding;
  const uint64_t row_bytes = (left + len + right) * sizeof(T);
  const uint64_t row_pitch =
      ai::RoundUpToBlock(row_bytes) + uint64_t{p.dstStride} * ONE_BLK_SIZE;  // bytes
  // With one block the stride is never applied (a group-matmul sample copies its scale row with
  // DataCopyExtParams{1, len, 1, 1, 0}), so only a stride between blocks must be whole elements.
  const uint64_t src_pitch_bytes = p.blockLen + (p.blockCount > 1 ? uint64_t{p.srcStride} : 0);
  if (src_pitch_bytes % sizeof(T) != 0) {
    ai::Fault(ascsim::ErrorKind::kInvalidArgument,
              ai::Str(call, ": srcStride ", p.srcStride, " B is not a whole number of ",
                      ai::TypeName<T>()));
  }
  const uint64_t src_pitch = src_pitch_bytes / sizeof(T);
  const uint64_t dst_extent = ((p.blockCount - 1) * row_pitch + row_bytes) / sizeof(T);
  // Each row lands padded to whole 32 B blocks: the padding and the dummy bytes up to the next
  // block are written too (the sanitizer counts them as written).
  const uint64_t padded_row = ai::RoundUpToBlock(row_bytes);
  const auto dst_rows = ai::Footprint::Rows(p.blockCount, padded_row, row_pitch);
  const auto src_rows = ai::Footprint::Rows(p.blockCount, p.blockLen, src_pitch_bytes);
  T* d = ai::CheckUbOperand(call, "dst", dst, dst_extent, {ascsim::trace::Pipe::kMte2, &dst_rows});
  const T* s = ascsim::aicore::TensorAccess::CheckedAddress(src, call, "read", 0,
                                                            (p.blockCount - 1) * src_pitch + len,
                                                            ascsim::trace::Pipe::kMte2, &src_rows);
  const uint64_t dummy = (padded_row - row_bytes) / sizeof(T);
  for (uint32_t b = 0; b < p.blockCount; ++b) {
    T* row = reinterpret_cast<T*>(reinterpret_cast<uint8_t*>(d) + b * row_pitch);
    ascsim::simd::Copy(row + left, s + b * src_pitch, len * sizeof(T));
    if (pad.isPad) {
      for (uint64_t i = 0; i < left; ++i) row[i] = pad.paddingValue;
      for (uint64_t i = 0; i < right; ++i) row[left + len + i] = pad.paddingValue;
    }
    // The dummy elements up to the block: the row's first element when there is no padding,
    // paddingValue with isPad, otherwise unspecified (left as they were).
    T* tail = row + left + len + right;
    if (left == 0 && right == 0) {
      for (uint64_t i = 0; i < dummy; ++i) tail[i] = row[0];
    } else if (pad.isPad) {
      for (uint64_t i = 0; i < dummy; ++i) tail[i] = pad.paddingValue;
    }
  }
  ai::Record(core, [&] {
    return ai::WithGm(
        ai::CopyCall("DataCopyPad", ascsim::trace::Pipe::kMte2, uint64_t{p.blockCount} * p.blockLen,
                     sizeof(T), ai::BufferId(dst), ascsim::trace::kNoBuffer),
        src, s, p.blockCount, p.blockLen, src_pitch_bytes);
  });
}

// The older spelling with DataCopyParams (blockLen in bytes) and DataCopyPadParams.
template <class T>
void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p,
                 const DataCopyPadParams& pad) {
  T value;
  const uint64_t raw = pad.paddingValue;
  // half/bfloat16_t are not trivial types (user-declared constructors) but hold only their bits.
  std::memcpy(static_cast<void*>(&value), &raw, sizeof(T));
  DataCopyPad(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0),
              DataCopyPadExtParams<T>(pad.isPad, pad.leftPadding, pad.rightPadding, value));
}

// UB -> GM with byte-exact lengths: blockLen bytes per block; UB blocks start 32 B aligned
// (srcStride in 32 B blocks between them), GM blocks are dstStride bytes apart.
template <class T>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src,
                 const DataCopyExtParams& p) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const char* call = "DataCopyPad UB->GM";
  ai::RequireDataCopyPad(call);
  ai::CheckBlockCount(call, p.blockCount);
  // As for GM -> UB, a stride is applied only between blocks.
  if (p.blockLen % sizeof(T) != 0 || (p.blockCount > 1 && p.dstStride % sizeof(T) != 0)) {
    ai::Fault(ascsim::ErrorKind::kInvalidArgument,
              ai::Str(call, ": blockLen ", p.blockLen, " B / dstStride ", p.dstStride,
                      " B is not a whole number of ", ai::TypeName<T>()));
  }
  if (p.blockCount == 0 || p.blockLen == 0) return;
  const uint64_t len = p.blockLen / sizeof(T);
  const uint64_t src_pitch_bytes =
      ai::RoundUpToBlock(p.blockLen) + uint64_t{p.srcStride} * ONE_BLK_SIZE;
  const uint64_t dst_pitch =
      (uint64_t{p.blockLen} + (p.blockCount > 1 ? p.dstStride : 0)) / sizeof(T);
  const auto src_rows = ai::Footprint::Rows(p.blockCount, p.blockLen, src_pitch_bytes);
  const auto dst_rows = ai::Footprint::Rows(p.blockCount, p.blockLen, dst_pitch * sizeof(T));
  const T* s =
      ai::CheckUbOperand(call, "src", src, ((p.blockCount - 1) * src_pitch_bytes) / sizeof(T) + len,
                         {ascsim::trace::Pipe::kMte3, &src_rows});
  T* d = ascsim::aicore::TensorAccess::CheckedAddress(dst, call, "write", 0,
                                                      (p.blockCount - 1) * dst_pitch + len,
                                                      ascsim::trace::Pipe::kMte3, &dst_rows);
  for (uint32_t b = 0; b < p.blockCount; ++b) {
    const T* row =
        reinterpret_cast<const T*>(reinterpret_cast<const uint8_t*>(s) + b * src_pitch_bytes);
    ai::StoreToGm(call, d + b * dst_pitch, row, len);
  }
  ai::Record(core, [&] {
    return ai::WithGm(
        ai::CopyCall("DataCopyPad", ascsim::trace::Pipe::kMte3, uint64_t{p.blockCount} * p.blockLen,
                     sizeof(T), ascsim::trace::kNoBuffer, ai::BufferId(src)),
        dst, d, p.blockCount, p.blockLen, dst_pitch * sizeof(T));
  });
}
template <class T>
void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p) {
  DataCopyPad(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0));
}

}  // namespace AscendC
