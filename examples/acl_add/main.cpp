/**
 * @file main.cpp
 * Host program for add_custom written against ACL, as the official samples' main.cpp: set up
 * the device and a stream, copy x and y in, launch with ACLRT_LAUNCH_KERNEL, copy z out, verify.
 * Runs unmodified on the simulator; exits non-zero on any ACL error or mismatch.
 */
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "acl/acl.h"
#include "aclrtlaunch_add_custom.h"

#define CHECK_ACL(x)                                                                        \
    do {                                                                                    \
        aclError __ret = x;                                                                 \
        if (__ret != ACL_ERROR_NONE) {                                                      \
            std::fprintf(stderr, "%s:%d aclError:%d %s\n", __FILE__, __LINE__, __ret,       \
                         aclGetRecentErrMsg());                                             \
            std::exit(1);                                                                   \
        }                                                                                   \
    } while (0)

int32_t main(int32_t argc, char *argv[])
{
    (void)argc;
    (void)argv;
    uint32_t blockDim = 8;
    uint32_t totalLength = 8 * 2048;
    size_t inputByteSize = totalLength * sizeof(uint16_t);
    size_t outputByteSize = totalLength * sizeof(uint16_t);

    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    uint8_t *xHost, *yHost, *zHost;
    uint8_t *xDevice, *yDevice, *zDevice;
    CHECK_ACL(aclrtMallocHost((void **)(&xHost), inputByteSize));
    CHECK_ACL(aclrtMallocHost((void **)(&yHost), inputByteSize));
    CHECK_ACL(aclrtMallocHost((void **)(&zHost), outputByteSize));
    CHECK_ACL(aclrtMalloc((void **)&xDevice, inputByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&yDevice, inputByteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&zDevice, outputByteSize, ACL_MEM_MALLOC_HUGE_FIRST));

    // The samples read x and y from files; here they are generated: x[i] = (i % 1000) / 8,
    // y[i] = -(i % 37) / 4, both exact in half.
    half *x = reinterpret_cast<half *>(xHost);
    half *y = reinterpret_cast<half *>(yHost);
    for (uint32_t i = 0; i < totalLength; i++) {
        x[i] = half(static_cast<float>(i % 1000) / 8.0f);
        y[i] = half(-static_cast<float>(i % 37) / 4.0f);
    }

    CHECK_ACL(aclrtMemcpy(xDevice, inputByteSize, xHost, inputByteSize, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(yDevice, inputByteSize, yHost, inputByteSize, ACL_MEMCPY_HOST_TO_DEVICE));

    CHECK_ACL(ACLRT_LAUNCH_KERNEL(add_custom)(blockDim, stream, xDevice, yDevice, zDevice, totalLength));
    CHECK_ACL(aclrtSynchronizeStream(stream));

    CHECK_ACL(aclrtMemcpy(zHost, outputByteSize, zDevice, outputByteSize, ACL_MEMCPY_DEVICE_TO_HOST));

    const half *z = reinterpret_cast<const half *>(zHost);
    uint32_t mismatches = 0;
    for (uint32_t i = 0; i < totalLength; i++) {
        const float expected = static_cast<float>(half(static_cast<float>(x[i]) + static_cast<float>(y[i])));
        if (static_cast<float>(z[i]) != expected) {
            if (mismatches < 5) {
                std::printf("mismatch at %u: got %f, expected %f\n", i, static_cast<float>(z[i]), expected);
            }
            mismatches++;
        }
    }
    std::printf("acl_add: [8, 2048] half, blockDim %u: %u of %u elements match (z[1234] = %f)\n",
                blockDim, totalLength - mismatches, totalLength, static_cast<float>(z[1234]));

    CHECK_ACL(aclrtFree(xDevice));
    CHECK_ACL(aclrtFree(yDevice));
    CHECK_ACL(aclrtFree(zDevice));
    CHECK_ACL(aclrtFreeHost(xHost));
    CHECK_ACL(aclrtFreeHost(yHost));
    CHECK_ACL(aclrtFreeHost(zHost));

    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
    if (mismatches != 0) {
        std::printf("[Failed] the result is wrong\n");
        return 1;
    }
    std::printf("[Success] the result is correct\n");
    return 0;
}
