/**
 * @file faulty_kernels.h
 * Deliberately faulty kernels: each one carries a bug a kernel author really makes, so that the
 * simulator's error paths can be exercised end to end (C++ launch -> Python exception). They are
 * part of the test surface (exposed as add_custom.testing), not shipped operators.
 */
#pragma once

#include <cstdint>

#include "ascsim/runtime.h"
#include "kernel_launchers.h"

// The kernels themselves, for ACLRT_LAUNCH_KERNEL in tests.
extern "C" void missing_sync_custom(uint8_t* x, uint8_t* z, uint32_t count);

namespace ascsim::kernels::testing {

// The real add_custom kernel launched with a caller-given totalLength. A totalLength larger than
// the arrays makes the kernel read past the end of x and y (an out-of-bounds fault).
void LaunchAddWithLength(ElementType type, const void* x, const void* y, void* z,
                         uint32_t total_length, uint32_t block_dim, Stream* stream);

// A kernel whose Compute stage DeQues from a queue its CopyIn stage never EnQued (the device
// would hang until timeout; the simulator faults with kind "queue misuse").
void LaunchDequeueEmpty(uint32_t block_dim, Stream* stream);

// A kernel that sizes its tiles from the whole problem instead of the UB: its InitBuffer calls
// ask for more Unified Buffer than the core has (kind "UB overflow").
void LaunchUbOverflow(uint32_t block_dim, Stream* stream);

// A copy kernel that moves `count` elements per block with plain DataCopy (block b copies
// x[b*count, (b+1)*count) to z). When count * sizeof(T) is not a multiple of 32 B the device
// rounds the length down: a warning, or a fault in strict mode.
void LaunchUnalignedCopy(ElementType type, const void* x, void* z, uint32_t count,
                         uint32_t block_dim, Stream* stream);

// A kernel whose cores wait forever for a GM flag nobody sets, calling GetValue and Adds in the
// loop: it ends only by the launch timeout or a cancel (ErrorKind::kTimeout).
void LaunchSpinForever(uint32_t block_dim, Stream* stream);

// float z = 2 x over `count` floats per block, with the MTE2 -> V flag missing (a race for the
// sanitizer, a right answer otherwise: the simulator runs the pipes in order).
void LaunchMissingSync(const void* x, void* z, uint32_t count, uint32_t block_dim, Stream* stream);

}  // namespace ascsim::kernels::testing
