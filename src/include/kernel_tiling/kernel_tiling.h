// kernel_tiling/kernel_tiling.h: the tiling structs kernels read, as CANN generates them
// (asc-devkit impl/adv_api/cmake/scripts/gen_kernel_tiling_data_def.py: plain structs of the
// TILING_DATA_FIELD_DEFs in AscendC::tiling, packed to 8, exported at global scope). ascsim
// provides TCubeTiling, the Matmul tiling, and the advanced APIs' structs (SoftMaxTiling,
// RmsNormTiling: ascsim/adv/tiling_structs.h).
#pragma once

#include <cstdint>
#include <cstring>

#include "ascsim/adv/kernel_tiling_structs.h"
#include "ascsim/adv/pad_tiling_structs.h"
#include "ascsim/adv/tiling_structs.h"
#include "ascsim/matmul/tcube_tiling_fields.h"

namespace AscendC {
namespace tiling {

#pragma pack(push, 8)
struct TCubeTiling {
#define ASCSIM_TCUBE_FIELD(name) int32_t name = 0;
  ASCSIM_TCUBE_TILING_FIELDS(ASCSIM_TCUBE_FIELD)
#undef ASCSIM_TCUBE_FIELD
};
#pragma pack(pop)

}  // namespace tiling
}  // namespace AscendC

using AscendC::tiling::TCubeTiling;
