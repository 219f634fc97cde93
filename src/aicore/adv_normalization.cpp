// The parameter checks of the normalization advanced APIs (ascsim/adv/normalization.h), with the
// conditions of asc-devkit's WelfordUpdateImpl checks (layernorm_common_impl.h).
#include "ascsim/adv/normalization.h"

namespace AscendC::detail {

void CheckWelfordUpdateParam(const WelfordUpdateParam& para, uint64_t x_size, uint32_t type_size) {
  namespace ai = ascsim::aicore;
  const char* api = "WelfordUpdate";
  auto fail = [&](const std::string& what) {
    ai::Fault(ascsim::ErrorKind::kInvalidArgument, ai::Str(api, ": ", what));
  };
  if (para.rnLength != 1) fail(ai::Str("para.rnLength is ", para.rnLength, "; it must be 1"));
  if (para.abLength > x_size) {
    fail(ai::Str("para.abLength ", para.abLength, " exceeds the inputX size ", x_size));
  }
  if (para.abComputeLength == 0) fail("para.abComputeLength must be greater than 0");
  if (para.abComputeLength > para.abLength) {
    fail(ai::Str("para.abComputeLength ", para.abComputeLength, " exceeds para.abLength ",
                 para.abLength));
  }
  const uint32_t per_block = ONE_BLK_SIZE / type_size;
  if (para.abLength % per_block != 0) {
    fail(ai::Str("para.abLength ", para.abLength, " is not a whole number of 32 B blocks (",
                 per_block, " elements)"));
  }
}

}  // namespace AscendC::detail
