// Cache control (docs 基础API/缓存控制): DataCacheCleanAndInvalid, ICachePreLoad,
// GetICachePreloadStatus; GlobalTensor::SetL2CacheHint lives in global_tensor.h.
// Sources: asc-devkit include/basic_api/kernel_operator_{common,cache,scalar,sys_var,vec_vconv,
// vec_reduce}_intf.h, impl/basic_api/dav_c220/kernel_operator_common_impl.h,
// impl/basic_api/kernel_operator_common_intf_impl.h (InitOutput), impl/basic_api/kernel_scalar*.h,
// impl/basic_api/kernel_utils_base.h (AscendCUtils), impl/basic_api/utils/kernel_utils_constants.h
// (RESERVED_WORKSPACE) and the API pages under docs/zh/api/SIMD-API/基础API/
#pragma once

#include <cstdint>

#include "ascsim/aicore/cache_types.h"
#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/core_context.h"
#include "ascsim/aicore/global_tensor.h"
#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/local_tensor.h"
#include "ascsim/aicore/tensor_access.h"
#include "ascsim/aicore/types.h"

namespace ascsim::aicore {

trace::ApiCall CacheCall(const char* name);
// ICachePreLoad: checks preFetchLen against the core's instruction cache and records the call.
void ICachePreLoadRun(int64_t preFetchLen);

}  // namespace ascsim::aicore

namespace AscendC {

// ---------------------------------------------------------------- cache control
// Writes back and invalidates data-cache lines so scalar GM writes reach GM (and GM data written by
// other cores or the MTEs is re-read). ascsim's scalar GM accesses go straight to memory, so this
// changes nothing here; it is checked (the tensor must be bound) and recorded on pipe S.
namespace detail {
template <class T>
void Dcci(const char* call, const GlobalTensor<T>& dst, CacheLine entireType) {
  ascsim::aicore::CoreContext& core = ascsim::aicore::CurrentCore();
  ascsim::aicore::EnterApiCall(core);
  if (entireType == CacheLine::SINGLE_CACHE_LINE) {
    ascsim::aicore::TensorAccess::CheckedAddress(dst, call, "line", 0, 0);
  }
  ascsim::aicore::Record(core, [&] { return ascsim::aicore::CacheCall(call); });
}
}  // namespace detail
template <class T, CacheLine entireType, DcciDst dcciDst>
void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst) {
  // dav_c220 only: the 310P has the two-parameter form.
  ascsim::aicore::RequireArch("DataCacheCleanAndInvalid<T, CacheLine, DcciDst>", 2201,
                              "the DcciDst form");
  detail::Dcci("DataCacheCleanAndInvalid", dst, entireType);
}
template <class T, CacheLine entireType>
void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst) {
  detail::Dcci("DataCacheCleanAndInvalid", dst, entireType);
}
template <class T, CacheLine entireType, DcciDst dcciDst>
void DataCacheCleanAndInvalid(const LocalTensor<T>& dst) {
  ascsim::aicore::RequireArch("DataCacheCleanAndInvalid<T, CacheLine, DcciDst>(LocalTensor)", 2201,
                              "the DcciDst form");
  ascsim::aicore::CoreContext& core = ascsim::aicore::CurrentCore();
  ascsim::aicore::EnterApiCall(core);
  ascsim::aicore::TensorAccess::CheckLive(dst, "DataCacheCleanAndInvalid", "dst");
  ascsim::aicore::Record(core,
                         [&] { return ascsim::aicore::CacheCall("DataCacheCleanAndInvalid"); });
}

// Prefetches preFetchLen x 2 KiB of instructions into the ICache (ICachePreLoad(ISASI).md): on
// A2/A3 the length must stay below the ICache (32 KiB on an AIC, 16 KiB on an AIV); the 310P
// ignores it (128 bytes). ascsim has no instruction cache, so the call is checked and recorded.
inline void ICachePreLoad(const int64_t preFetchLen) {
  ascsim::aicore::ICachePreLoadRun(preFetchLen);
}
// No preload is ever pending here; CANN's CPU build returns 0 too (kernel_operator_cache_impl.h).
inline int64_t GetICachePreloadStatus() { return 0; }

}  // namespace AscendC
