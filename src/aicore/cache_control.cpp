// Out-of-line part of ascsim/aicore/cache_control.h: its call record.
#include "ascsim/aicore/cache_control.h"

namespace ascsim::aicore {

trace::ApiCall CacheCall(const char* name) {
  trace::ApiCall call = trace::ScalarCall(name, 0, true, true, trace::kNoBuffer);
  call.elements = 0;
  return call;
}

}  // namespace ascsim::aicore
