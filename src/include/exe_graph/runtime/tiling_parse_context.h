// gert::TilingParseContext (CANN metadef inc/external/exe_graph/runtime/tiling_parse_context.h):
// the context of an operator's TilingParse function, which fills its compile info once.
#ifndef ASCSIM_EXE_GRAPH_RUNTIME_TILING_PARSE_CONTEXT_H_
#define ASCSIM_EXE_GRAPH_RUNTIME_TILING_PARSE_CONTEXT_H_

#include <type_traits>

#include "exe_graph/runtime/extended_kernel_context.h"

namespace fe {
class PlatFormInfos;
}  // namespace fe

namespace gert {

class TilingParseContext : public ExtendedKernelContext {
 public:
  // The compiled JSON of the operator ("{}" for ascsim's builds).
  const ge::char_t* GetCompiledJson() const;
  template <typename T>
  T* GetCompiledInfo() {
    return reinterpret_cast<T*>(MutableCompiledInfo());
  }
  fe::PlatFormInfos* GetPlatformInfo() const;

 protected:
  explicit TilingParseContext(void* call) : ExtendedKernelContext(call) {}
  void* MutableCompiledInfo();
};
static_assert(std::is_standard_layout<TilingParseContext>::value,
              "The class TilingParseContext must be a POD");

}  // namespace gert

#endif  // ASCSIM_EXE_GRAPH_RUNTIME_TILING_PARSE_CONTEXT_H_
