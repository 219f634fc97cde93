/*
 * Host program: reads x and the tiling data, runs leaky_relu_custom, writes y. The CPU-debug
 * build (ASCENDC_CPU_DEBUG) passes the tiling struct by value to ICPU_RUN_KF; the NPU build passes
 * it by pointer to the generated launcher and times the launch with events.
 */
#include "data_utils.h"
#include "leaky_relu_tiling.h"
#include "securec.h"
#ifndef ASCENDC_CPU_DEBUG
#include "acl/acl.h"
#include "aclrtlaunch_leaky_relu_custom.h"
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void leaky_relu_custom(GM_ADDR x, GM_ADDR y, LeakyReluTilingData tiling);
#endif

int32_t main(int32_t argc, char *argv[])
{
    constexpr uint32_t blockDim = 8;
    constexpr uint32_t totalLength = 8 * 4100;
    const size_t byteSize = totalLength * sizeof(float);
    uint8_t tilingBytes[sizeof(LeakyReluTilingData)];
    if (!ReadFile("./input/input_tiling.bin", sizeof(tilingBytes), tilingBytes, sizeof(tilingBytes))) {
        return 1;
    }
#ifdef ASCENDC_CPU_DEBUG
    LeakyReluTilingData tiling;
    if (memcpy_s(&tiling, sizeof(tiling), tilingBytes, sizeof(tilingBytes)) != EOK) {
        return 1;
    }
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(byteSize);
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(byteSize);
    ReadFile("./input/input_x.bin", byteSize, x, byteSize);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(leaky_relu_custom, blockDim, x, y, tiling);
    WriteFile("./output/output_y.bin", y, byteSize);
    AscendC::GmFree((void *)x);
    AscendC::GmFree((void *)y);
#else
    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));
    aclrtEvent start, end;
    CHECK_ACL(aclrtCreateEvent(&start));
    CHECK_ACL(aclrtCreateEventWithFlag(&end, ACL_EVENT_TIME_LINE));

    LeakyReluTilingData *tiling;
    uint8_t *xHost, *yHost, *xDevice, *yDevice;
    CHECK_ACL(aclrtMallocHost((void **)(&tiling), sizeof(LeakyReluTilingData)));
    if (memcpy_s(tiling, sizeof(LeakyReluTilingData), tilingBytes, sizeof(tilingBytes)) != EOK) {
        return 1;
    }
    CHECK_ACL(aclrtMallocHost((void **)(&xHost), byteSize));
    CHECK_ACL(aclrtMallocHost((void **)(&yHost), byteSize));
    CHECK_ACL(aclrtMalloc((void **)&xDevice, byteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&yDevice, byteSize, ACL_MEM_MALLOC_HUGE_FIRST));
    ReadFile("./input/input_x.bin", byteSize, xHost, byteSize);
    CHECK_ACL(aclrtMemcpy(xDevice, byteSize, xHost, byteSize, ACL_MEMCPY_HOST_TO_DEVICE));

    CHECK_ACL(aclrtRecordEvent(start, stream));
    ACLRT_LAUNCH_KERNEL(leaky_relu_custom)(blockDim, stream, xDevice, yDevice, tiling);
    CHECK_ACL(aclrtRecordEvent(end, stream));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    float ms = 0;
    CHECK_ACL(aclrtEventElapsedTime(&ms, start, end));
    INFO_LOG("leaky_relu_custom on %s: %.3f us (device time between the events)", aclrtGetSocName(),
             ms * 1000.0f);

    CHECK_ACL(aclrtMemcpy(yHost, byteSize, yDevice, byteSize, ACL_MEMCPY_DEVICE_TO_HOST));
    WriteFile("./output/output_y.bin", yHost, byteSize);

    CHECK_ACL(aclrtFree(xDevice));
    CHECK_ACL(aclrtFree(yDevice));
    CHECK_ACL(aclrtFreeHost(xHost));
    CHECK_ACL(aclrtFreeHost(yHost));
    CHECK_ACL(aclrtFreeHost(tiling));
    CHECK_ACL(aclrtDestroyEvent(start));
    CHECK_ACL(aclrtDestroyEvent(end));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
#endif
    return 0;
}
