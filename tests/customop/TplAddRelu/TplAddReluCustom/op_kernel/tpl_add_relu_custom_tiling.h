// The tiling data of TplAddReluCustom: a plain C++ struct, which the host fills through
// GetTilingData<T>() and the kernel reads with GET_TILING_DATA_WITH_STRUCT.
#ifndef TPL_ADD_RELU_CUSTOM_TILING_H
#define TPL_ADD_RELU_CUSTOM_TILING_H
#include <cstdint>

struct TplAddReluTilingData {
    uint32_t blockLength;  // elements per core
    uint32_t tileLength;   // elements per tile: blockLength / TILES / 2 (double buffering)
};
#endif  // TPL_ADD_RELU_CUSTOM_TILING_H
