/**
 * @file rms_norm_custom_tiling.h
 * Tiling of rms_norm_custom, filled by the host launcher (kernel_launchers.h) and passed to the
 * kernel by value: x is numRow rows of numCol elements; each block takes blockFactor consecutive
 * rows (the last block fewer) and keeps a whole row in UB; rstd is written rowFactor rows at a
 * time. Field names follow CANN's RMSNormTilingData (ops-nn norm/rms_norm) where they mean the
 * same; avgFactor = 1 / numCol as the kernel there computes it.
 */
#pragma once
#include <cstdint>

struct RmsNormCustomTilingData {
    uint32_t numRow;
    uint32_t numCol;
    uint32_t blockFactor;   // rows per block
    uint32_t rowFactor;     // rows per rstd copy-out
    float epsilon;
    float avgFactor;        // 1 / numCol
};

constexpr uint32_t RMS_NORM_ROW_FACTOR = 64;

// UB bytes a block needs for rows of numCol elements of typeSize bytes: x and y queues (double
// buffered), gamma, the float copies of gamma and of x, x^2, the reduction's work buffer, the
// rstd queue and one 32 B block for the sum. Each buffer is rounded up to 32 B as InitBuffer does.
inline uint64_t RmsNormCustomUbBytes(uint32_t numCol, uint32_t typeSize)
{
    auto round32 = [](uint64_t bytes) { return (bytes + 31) / 32 * 32; };
    const uint64_t row = round32(static_cast<uint64_t>(numCol) * typeSize);
    const uint64_t rowFloat = round32(static_cast<uint64_t>(numCol) * sizeof(float));
    const uint64_t repeats = (static_cast<uint64_t>(numCol) + 63) / 64;   // 256 B of float each
    const uint64_t work = round32(repeats * sizeof(float));
    const uint64_t rstd = round32(RMS_NORM_ROW_FACTOR * sizeof(float));
    const uint64_t floats = typeSize == sizeof(float) ? 1 : 3;  // x^2; and float gamma, x for half
    return 2 * row + 2 * row + row + floats * rowFloat + work + 2 * rstd + 32;
}
