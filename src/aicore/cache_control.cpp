// Out-of-line part of ascsim/aicore/cache_control.h: its call record, ICachePreLoad's check.
#include "ascsim/aicore/cache_control.h"

#include "ascsim/soc.h"

namespace ascsim::aicore {

trace::ApiCall CacheCall(const char* name) {
  trace::ApiCall call = trace::ScalarCall(name, 0, true, true, trace::kNoBuffer);
  call.elements = 0;
  return call;
}

void ICachePreLoadRun(int64_t preFetchLen) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  if (core.launch->soc->arch == 2201) {
    const bool aic = core.unit == CoreUnit::kAic;
    const int64_t icacheKiB = aic ? 32 : 16;
    const int64_t limit = icacheKiB / 2;
    if (preFetchLen < 0 || preFetchLen >= limit) {
      Fault(ErrorKind::kInvalidArgument,
            Str("ICachePreLoad: preFetchLen ", preFetchLen, " (units of 2 KiB) must be in [0, ",
                limit, "): the ", aic ? "AIC" : "AIV", "'s instruction cache holds ", icacheKiB,
                " KiB"));
    }
  }
  Record(core, [&] { return CacheCall("ICachePreLoad"); });
}

}  // namespace ascsim::aicore
