// The raw-address forms of the basic API that production kernels call directly: the *Impl
// functions behind DataCopy / DataCopyPad / TransDataTo5HD / Mmad in asc-devkit
// (impl/basic_api/dav_c220/kernel_operator_data_copy_impl.h: DataCopyGM2UBImpl,
// DataCopyUB2GMImpl, DataCopyPadGm2UBImpl, DataCopyPadUB2GMImpl;
// impl/basic_api/dav_c220/kernel_operator_vec_transpose_impl.h: TransDataTo5HDImpl;
// impl/basic_api/kernel_operator_mm_base_impl.h: MmadImpl;
// impl/basic_api/dav_c220/kernel_operator_vec_reduce_impl.h: BlockReduce{Sum,Max,Min}IntrinsicsImpl;
// impl/basic_api/dav_c220/kernel_operator_vec_duplicate_impl.h: DuplicateIntrinsicsImpl: the
// vector instructions under the mask the kernel set, as the isSetMask = false forms of
// BlockReduce* / Duplicate). ops-nn / ops-transformer kernels pass
// `(__ubuf__ T*)tensor.GetPhyAddr()` and `(__gm__ T*)global.GetPhyAddr()`: in ascsim GetPhyAddr
// of a LocalTensor is its UB byte offset, so a `__ubuf__` pointer here carries that offset (or is
// a host pointer into the core's UB from get_imm: cce_intrinsics.h), and
// each call runs the public API on the UB buffer holding it, with that API's checks.
// On an AIC the UB forms do nothing, as CANN's `if ASCEND_IS_AIC { return; }`.
#pragma once

#include <cstdint>

#include "ascsim/aicore/cce_intrinsics.h"
#include "ascsim/aicore/cube.h"
#include "ascsim/aicore/data_copy.h"
#include "ascsim/aicore/global_tensor.h"
#include "ascsim/aicore/local_tensor.h"
#include "ascsim/aicore/reduce_ops.h"
#include "ascsim/aicore/tensor_access.h"
#include "ascsim/aicore/ub_movement.h"
#include "ascsim/aicore/vector_masked.h"

namespace ascsim::aicore {

// The live UB buffer of this core's TPipe holding byte offset `ub_offset`; `*slot_offset` gets
// the buffer's own UB offset. Faults (naming `call` and `role`) when no allocated buffer holds it
// or the offset is not a multiple of `elem` bytes into it. Defined in basic_api_impl.cpp.
BufferSlot* UbSlotAt(const char* call, const char* role, uint64_t ub_offset, uint32_t elem,
                     uint64_t* slot_offset);
// Whether this core is an AIC (the UB forms are no-ops there).
bool OnCubeCore();

template <class T>
AscendC::LocalTensor<T> UbTensorAt(const char* call, const char* role, const void* ub_addr) {
  const uint64_t off = UbAddressValue(ub_addr);  // an offset, or a pointer from get_imm
  uint64_t lo = 0;
  BufferSlot* slot = UbSlotAt(call, role, off, sizeof(T), &lo);
  const auto whole = TensorAccess::Bind<T>(slot, static_cast<uint32_t>(slot->bytes / sizeof(T)));
  return whole[static_cast<uint32_t>((off - lo) / sizeof(T))];
}

template <class T>
AscendC::GlobalTensor<T> GmTensorAt(__gm__ T* p) {
  AscendC::GlobalTensor<T> g;
  g.SetGlobalBuffer(p);
  return g;
}

}  // namespace ascsim::aicore

namespace AscendC {

template <class T>
void DataCopyGM2UBImpl(__ubuf__ T* dst, __gm__ T* src, const DataCopyParams& intriParams) {
  if (ascsim::aicore::OnCubeCore()) return;
  DataCopy(ascsim::aicore::UbTensorAt<T>("DataCopyGM2UBImpl", "dst", dst),
           ascsim::aicore::GmTensorAt(src), intriParams);
}
template <class T>
void DataCopyUB2GMImpl(__gm__ T* dst, __ubuf__ T* src, const DataCopyParams& intriParams) {
  if (ascsim::aicore::OnCubeCore()) return;
  DataCopy(ascsim::aicore::GmTensorAt(dst),
           ascsim::aicore::UbTensorAt<T>("DataCopyUB2GMImpl", "src", src), intriParams);
}
template <class T>
void DataCopyPadGm2UBImpl(__ubuf__ T* dst, __gm__ T* src, const DataCopyParams& intriParams,
                          const DataCopyPadParams& padParams) {
  if (ascsim::aicore::OnCubeCore()) return;
  DataCopyPad(ascsim::aicore::UbTensorAt<T>("DataCopyPadGm2UBImpl", "dst", dst),
              ascsim::aicore::GmTensorAt(src), intriParams, padParams);
}
template <class T>
void DataCopyPadGm2UBImpl(__ubuf__ T* dst, __gm__ T* src, const DataCopyExtParams& intriParams,
                          const DataCopyPadExtParams<T>& padParams) {
  if (ascsim::aicore::OnCubeCore()) return;
  DataCopyPad(ascsim::aicore::UbTensorAt<T>("DataCopyPadGm2UBImpl", "dst", dst),
              ascsim::aicore::GmTensorAt(src), intriParams, padParams);
}
template <class T>
void DataCopyPadUB2GMImpl(__gm__ T* dst, __ubuf__ T* src, const DataCopyParams& intriParams) {
  if (ascsim::aicore::OnCubeCore()) return;
  DataCopyPad(ascsim::aicore::GmTensorAt(dst),
              ascsim::aicore::UbTensorAt<T>("DataCopyPadUB2GMImpl", "src", src), intriParams);
}
template <class T>
void DataCopyPadUB2GMImpl(__gm__ T* dst, __ubuf__ T* src, const DataCopyExtParams& intriParams) {
  if (ascsim::aicore::OnCubeCore()) return;
  DataCopyPad(ascsim::aicore::GmTensorAt(dst),
              ascsim::aicore::UbTensorAt<T>("DataCopyPadUB2GMImpl", "src", src), intriParams);
}

// TransDataTo5HDImpl<T>: the address lists as `__ubuf__ T*` (the UB offsets) or as uint64_t.
template <class T>
void TransDataTo5HDImpl(__ubuf__ T* dstList[NCHW_CONV_ADDR_LIST_SIZE],
                        __ubuf__ T* srcList[NCHW_CONV_ADDR_LIST_SIZE],
                        const TransDataTo5HDParams& transDataTo5HDParams) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                "TransDataTo5HDImpl takes 8-, 16- or 32-bit elements");
  if (ascsim::aicore::OnCubeCore()) return;
  uint64_t d[NCHW_CONV_ADDR_LIST_SIZE], s[NCHW_CONV_ADDR_LIST_SIZE];
  for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
    d[i] = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(dstList[i]));
    s[i] = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(srcList[i]));
  }
  ascsim::aicore::TransDataTo5HDRun("TransDataTo5HDImpl", sizeof(T), d, s, transDataTo5HDParams);
}
template <class T>
void TransDataTo5HDImpl(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE],
                        uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                        const TransDataTo5HDParams& transDataTo5HDParams) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                "TransDataTo5HDImpl takes 8-, 16- or 32-bit elements");
  if (ascsim::aicore::OnCubeCore()) return;
  ascsim::aicore::TransDataTo5HDRun("TransDataTo5HDImpl", sizeof(T), dstList, srcList,
                                    transDataTo5HDParams);
}

// vcgadd / vcgmax / vcgmin: per 32-byte block, one result, under the current mask (normal or
// counter mode).
#define ASCSIM_BLOCK_REDUCE_IMPL(Name, Api)                                                    \
  template <class T>                                                                          \
  void Name(__ubuf__ T* dstLocal, __ubuf__ T* srcLocal, const int32_t repeatTime,             \
            const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride) { \
    if (ascsim::aicore::OnCubeCore()) return;                                                 \
    const LocalTensor<T> dst = ascsim::aicore::UbTensorAt<T>(#Name, "dst", dstLocal);         \
    const LocalTensor<T> src = ascsim::aicore::UbTensorAt<T>(#Name, "src", srcLocal);         \
    Api<T, false>(dst, src, repeatTime, static_cast<int32_t>(256 / sizeof(T)), dstRepStride,  \
                  srcBlkStride, srcRepStride);                                                \
  }
ASCSIM_BLOCK_REDUCE_IMPL(BlockReduceSumIntrinsicsImpl, BlockReduceSum)
ASCSIM_BLOCK_REDUCE_IMPL(BlockReduceMaxIntrinsicsImpl, BlockReduceMax)
ASCSIM_BLOCK_REDUCE_IMPL(BlockReduceMinIntrinsicsImpl, BlockReduceMin)
#undef ASCSIM_BLOCK_REDUCE_IMPL

// vector_dup: scalarValue into dst's blocks under the current mask.
template <class T>
void DuplicateIntrinsicsImpl(__ubuf__ T* dstLocal, T scalarValue, uint8_t repeatTime,
                             uint16_t dstBlockStride, uint8_t dstRepeatStride) {
  if (ascsim::aicore::OnCubeCore()) return;
  Duplicate<T, false>(ascsim::aicore::UbTensorAt<T>("DuplicateIntrinsicsImpl", "dst", dstLocal),
                      scalarValue, static_cast<uint64_t>(256 / sizeof(T)), repeatTime,
                      dstBlockStride, dstRepeatStride);
}

template <class T, class U, class S>
void MmadImpl(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
              const MmadParams& mmadParams) {
  Mmad(dst, fm, filter, mmadParams);
}
template <class T, class U, class S, class V>
void MmadImpl(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
              const LocalTensor<V>& bias, const MmadParams& mmadParams) {
  Mmad(dst, fm, filter, bias, mmadParams);
}

}  // namespace AscendC
