/**
 * @file elementwise_tiling.h
 * Tiling shared by the element-wise kernels and their host launchers: how a 1-D problem of
 * totalLength elements is split over blockDim cores and, within a core, into UB tiles.
 *
 * Every block but the last gets the same number of elements, a multiple of one 32-byte data
 * block, so each block's GM start is 32 B aligned. Within a block, tiles of tileLength elements
 * are processed; the last tile may be short, and if its byte length is not a multiple of 32 B it
 * is moved with DataCopyPad (A2) instead of DataCopy, which would round it down.
 */
#pragma once
#include <cstdint>

struct ElementwiseTiling {
    uint32_t blockLength;    // elements per block (the last block may have fewer)
    uint32_t tileLength;     // elements per full tile
};

constexpr uint32_t ElementwiseAlign(uint32_t typeSize) { return 32 / typeSize; }

inline ElementwiseTiling ComputeElementwiseTiling(uint32_t totalLength, uint32_t blockNum,
                                                  uint32_t typeSize, uint32_t tileBytes)
{
    const uint32_t align = ElementwiseAlign(typeSize);
    uint64_t perBlock = (static_cast<uint64_t>(totalLength) + blockNum - 1) / blockNum;
    perBlock = (perBlock + align - 1) / align * align;
    ElementwiseTiling tiling;
    tiling.blockLength = static_cast<uint32_t>(perBlock);
    tiling.tileLength = tileBytes / typeSize;
    return tiling;
}

// Elements of block `blockIdx`: [start, start + length).
inline void BlockRange(const ElementwiseTiling& tiling, uint32_t totalLength, uint32_t blockIdx,
                       uint32_t& start, uint32_t& length)
{
    const uint64_t begin = static_cast<uint64_t>(tiling.blockLength) * blockIdx;
    start = begin < totalLength ? static_cast<uint32_t>(begin) : totalLength;
    const uint64_t end = begin + tiling.blockLength;
    length = static_cast<uint32_t>((end < totalLength ? end : totalLength) - start);
}
