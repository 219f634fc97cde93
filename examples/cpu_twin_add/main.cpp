/**
 * @file main.cpp
 * add_custom the CPU-twin way, as the official samples' ASCENDC_CPU_DEBUG branch: GmAlloc,
 * SetKernelMode, ICPU_RUN_KF, GmFree. A fault inside the kernel throws ascsim::KernelError.
 * Exits non-zero on mismatch.
 */
#include <cstdint>
#include <cstdio>

#include "aclrtlaunch_add_custom.h"
#include "tikicpulib.h"

int32_t main(int32_t argc, char *argv[])
{
    (void)argc;
    (void)argv;
    uint32_t blockDim = 8;
    uint32_t totalLength = 8 * 2048;
    size_t inputByteSize = totalLength * sizeof(uint16_t);
    size_t outputByteSize = totalLength * sizeof(uint16_t);

    uint8_t *x = (uint8_t *)AscendC::GmAlloc(inputByteSize);
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(inputByteSize);
    uint8_t *z = (uint8_t *)AscendC::GmAlloc(outputByteSize);

    half *xh = reinterpret_cast<half *>(x);
    half *yh = reinterpret_cast<half *>(y);
    for (uint32_t i = 0; i < totalLength; i++) {
        xh[i] = half(static_cast<float>(i % 2048) * 0.5f);
        yh[i] = half(static_cast<float>(i % 3) - 1.0f);
    }

    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(add_custom, blockDim, x, y, z, totalLength);

    const half *zh = reinterpret_cast<const half *>(z);
    uint32_t mismatches = 0;
    for (uint32_t i = 0; i < totalLength; i++) {
        const float expected = static_cast<float>(half(static_cast<float>(xh[i]) + static_cast<float>(yh[i])));
        if (static_cast<float>(zh[i]) != expected) {
            if (mismatches < 5) {
                std::printf("mismatch at %u: got %f, expected %f\n", i, static_cast<float>(zh[i]), expected);
            }
            mismatches++;
        }
    }
    std::printf("cpu_twin_add: [8, 2048] half, blockDim %u: %u of %u elements match\n", blockDim,
                totalLength - mismatches, totalLength);

    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
    AscendC::GmFree((void *)z);
    if (mismatches != 0) {
        std::printf("[Failed] the result is wrong\n");
        return 1;
    }
    std::printf("[Success] the result is correct\n");
    return 0;
}
