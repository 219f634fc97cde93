// The out-of-line half of the kernel tiling macros (ascsim/aicore/tiling_data.h): where the
// tiling bytes are, and the faults when they are not there.
#include "ascsim/aicore/tiling_data.h"

#include "ascsim/aicore/checks.h"

namespace ascsim::aicore {

const uint8_t* TilingBytes(const uint8_t* tiling, size_t offset, size_t bytes, const char* macro,
                           const char* what) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  if (tiling == nullptr) {
    Fault(ErrorKind::kInvalidArgument,
          Str(macro, ": the tiling argument is nullptr (", what, " needs ", offset + bytes,
              " B; the host passes the tiling data its TilingFunc wrote)"));
  }
  GmRange alloc;
  if (core.launch->find_gm != nullptr && core.launch->find_gm(tiling, &alloc)) {
    const uint64_t have = static_cast<uint64_t>(alloc.end - tiling);
    if (have < offset + bytes) {
      Fault(ErrorKind::kOutOfBounds,
            Str(macro, ": ", what, " needs ", offset + bytes,
                " B of tiling data but the tiling "
                "buffer at ",
                Hex(reinterpret_cast<uintptr_t>(tiling)), " holds ", have,
                " B (the host wrote a smaller tiling struct than the kernel reads)"));
    }
  }
  return tiling + offset;
}

void CopyTilingBytes(void* dst, const void* src, size_t bytes, const char* macro) {
  std::memcpy(dst, TilingBytes(static_cast<const uint8_t*>(src), 0, bytes, macro, "the struct"),
              bytes);
}

}  // namespace ascsim::aicore
