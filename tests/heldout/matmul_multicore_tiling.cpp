// Host half of held-out kernel 17: the Matmul tiling, in its own translation unit as a CANN
// operator's op_host does it. A kernel file cannot name matmul_tiling::DataType::DT_FLOAT16:
// the classic kernel compile defines DT_* as numbers (asc-devkit include/basic_api/
// kernel_type.h: `#define DT_FLOAT16 1`), in CANN as here.
#include "matmul_multicore_tiling.h"

#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace heldout_mm {

int64_t MultiCoreTiling(int32_t M, int32_t N, int32_t K, int32_t dim, bool withBias,
                        TCubeTiling& tiling) {
  auto* plat = platform_ascendc::PlatformAscendCManager::GetInstance();
  if (plat == nullptr) return -1;
  matmul_tiling::MultiCoreMatmulTiling api(*plat);
  if (api.SetDim(dim) != 0) return -1;
  api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
               matmul_tiling::DataType::DT_FLOAT16);
  api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
               matmul_tiling::DataType::DT_FLOAT16);
  api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
               matmul_tiling::DataType::DT_FLOAT);
  api.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
                  matmul_tiling::DataType::DT_FLOAT);
  api.SetShape(M, N, K);
  api.SetOrgShape(M, N, K);
  api.SetBias(withBias);
  api.SetBufferSpace(-1, -1, -1);
  return api.GetTiling(tiling);
}

}  // namespace heldout_mm
