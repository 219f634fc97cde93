// Host tiling of matmul_leakyrelu_custom: one block of C per AIC (tiling/tiling_api.h).
#include <cstdint>
#include <cstdio>
#include <vector>

#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

std::vector<uint8_t> GenerateTiling(int32_t m, int32_t n, int32_t k) {
  using namespace matmul_tiling;
  auto* platform = platform_ascendc::PlatformAscendCManager::GetInstance();
  MultiCoreMatmulTiling tilingApi(*platform);
  tilingApi.SetDim(static_cast<int32_t>(platform->GetCoreNumAic()));
  tilingApi.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  tilingApi.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  tilingApi.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  tilingApi.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  tilingApi.SetOrgShape(m, n, k);
  tilingApi.SetShape(m, n, k);
  tilingApi.SetBias(true);
  tilingApi.SetBufferSpace(-1, -1, -1);
  optiling::TCubeTiling tilingData;
  if (tilingApi.GetTiling(tilingData) == -1) {
    std::fprintf(stderr, "gen tiling failed\n");
    return {};
  }
  std::vector<uint8_t> buf(tilingData.GetDataSize());
  tilingData.SaveToBuffer(buf.data(), buf.size());
  return buf;
}
