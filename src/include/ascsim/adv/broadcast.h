// Broadcast on the basic API: [1] -> [n], [m, 1] -> [m, k] (axis 1), [1, k] -> [m, k] (axis 0)
// (include/adv_api/pad/broadcast.h; dim 1 or 2 as on Atlas A2/A3).
#pragma once

#include <cstdint>
#include <type_traits>

#include "ascsim/adv/math.h"
#include "ascsim/aicore/reduce_ops.h"

namespace AscendC {

template <class T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
               const uint32_t dstShape[dim], const uint32_t srcShape[dim],
               LocalTensor<uint8_t>& sharedTmpBuffer) {
  static_assert(dim == 1 || dim == 2, "Broadcast supports dim 1 and 2 on Atlas A2/A3");
  static_assert(axis == 0 || axis == 1, "Broadcast supports axis 0 and 1");
  static_assert(dim == 2 || axis == 0, "a one-dimensional Broadcast broadcasts axis 0");
  namespace ai = ascsim::aicore;
  constexpr const char* api = "Broadcast";
  ai::TensorAccess::CheckLive(sharedTmpBuffer, api, "sharedTmpBuffer");
  const uint32_t m = dim == 2 ? dstShape[0] : 1, k = dim == 2 ? dstShape[1] : dstShape[0];
  const bool shapes_ok = dim == 1 ? srcShape[0] == 1
                                  : (axis == 1 ? (srcShape[0] == m && srcShape[1] == 1)
                                               : (srcShape[0] == 1 && srcShape[1] == k));
  if (!shapes_ok) {
    ai::Fault(
        ascsim::ErrorKind::kInvalidArgument,
        ai::Str(api, "<dim ", dim, ", axis ", axis, ">: src shape [", srcShape[0],
                dim == 2 ? ai::Str(", ", srcShape[1]) : std::string(), "] does not broadcast to [",
                dstShape[0], dim == 2 ? ai::Str(", ", dstShape[1]) : std::string(), "]"));
  }
  ai::CheckCalCount(api, uint64_t{m} * k, uint64_t{m} * k, dstLocal.GetSize());
  if (dim == 1 || axis == 1) detail::VectorToScalar();  // src's values are read by the scalar unit
  if (dim == 1) {
    Duplicate(dstLocal, srcLocal.GetValue(0), static_cast<int32_t>(k));
  } else if (axis == 1 && (k * sizeof(T)) % 32 != 0) {
    // Rows that are not whole 32-byte blocks start at unaligned addresses, which no vector
    // instruction takes; the device broadcasts into an aligned scratch and compacts it into dst
    // (the copy buffer GetBroadCastMaxMinTmpSize counts). The simulator writes the same values
    // element by element and orders them before the vector pipe's next use.
    for (uint32_t i = 0; i < m; ++i) {
      const T v = srcLocal.GetValue(i);
      for (uint32_t j = 0; j < k; ++j) dstLocal.SetValue(i * k + j, v);
    }
    detail::ScalarToVector();
  } else if (axis == 1) {
    for (uint32_t i = 0; i < m; ++i)
      Duplicate(dstLocal[i * k], srcLocal.GetValue(i), static_cast<int32_t>(k));
  } else {
    for (uint32_t i = 0; i < m; ++i) Muls(dstLocal[i * k], srcLocal, T(1), static_cast<int32_t>(k));
  }
}
template <class T, int32_t dim, int32_t axis, bool isReuseSource = false>
void Broadcast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
               const uint32_t dstShape[dim], const uint32_t srcShape[dim]) {
  LocalTensor<uint8_t> stack = detail::AdvStack("Broadcast");
  Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape, stack);
}
// BroadCast: the name Broadcast calls (asc-devkit include/adv_api/pad/broadcast.h ->
// impl/adv_api/detail/pad/broadcast/broadcast_common_impl.h), which production kernels call
// directly.
template <class T, int32_t dim, int32_t axis, bool isReuseSource = false>
void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
               const uint32_t dstShape[dim], const uint32_t srcShape[dim],
               LocalTensor<uint8_t>& sharedTmpBuffer) {
  Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape, sharedTmpBuffer);
}
template <class T, int32_t dim, int32_t axis, bool isReuseSource = false>
void BroadCast(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
               const uint32_t dstShape[dim], const uint32_t srcShape[dim]) {
  Broadcast<T, dim, axis, isReuseSource>(dstLocal, srcLocal, dstShape, srcShape);
}

}  // namespace AscendC
