/*
 * Tiling data of leaky_relu_custom: passed to the kernel by value (and to aclrtlaunch_* by
 * pointer).
 */
#ifndef LEAKY_RELU_TILING_H
#define LEAKY_RELU_TILING_H
#include <cstdint>

struct LeakyReluTilingData {
    uint32_t totalLength; // elements over all blocks
    uint32_t tileLength;  // elements per tile (a multiple of 8 floats: 32 bytes)
    float negativeSlope;
};
#endif
