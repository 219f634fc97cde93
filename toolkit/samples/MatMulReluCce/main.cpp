/*
 * Host side of matmul_relu_custom: reads input/a.bin and input/b.bin, runs the kernel and writes
 * output/output.bin. Built twice from this one file: with __CCE_KT_TEST__ (cpu, the CPU-debug
 * library: GmAlloc and ICPU_RUN_KF) and without it (npu, the ACL runtime and the kernel's _do
 * wrapper).
 */
#include "data_utils.h"
#ifndef __CCE_KT_TEST__
#include "acl/acl.h"
extern void matmul_relu_custom_do(uint32_t blockDim, void *l2ctrl, void *stream, uint8_t *a,
    uint8_t *b, uint8_t *c);
#else
#include "tikicpulib.h"
extern "C" void matmul_relu_custom(uint8_t *a, uint8_t *b, uint8_t *c);
#endif

namespace {
constexpr uint32_t M = 64;
constexpr uint32_t N = 48;
constexpr uint32_t K = 64;
constexpr uint32_t BLOCK_DIM = 2;  // each block computes M / BLOCK_DIM rows of C
}  // namespace

int32_t main(int32_t argc, char *argv[])
{
    size_t aFileSize = M * K * sizeof(uint16_t);  // uint16_t holds the bits of a half
    size_t bFileSize = K * N * sizeof(uint16_t);
    size_t cFileSize = M * N * sizeof(uint16_t);

#ifdef __CCE_KT_TEST__
    uint8_t *a = (uint8_t *)AscendC::GmAlloc(aFileSize);
    uint8_t *b = (uint8_t *)AscendC::GmAlloc(bFileSize);
    uint8_t *c = (uint8_t *)AscendC::GmAlloc(cFileSize);
    if (!ReadFile("./input/a.bin", aFileSize, a, aFileSize) ||
        !ReadFile("./input/b.bin", bFileSize, b, bFileSize)) {
        return 1;
    }

    ICPU_RUN_KF(matmul_relu_custom, BLOCK_DIM, a, b, c);

    if (!WriteFile("./output/output.bin", c, cFileSize)) {
        return 1;
    }
    AscendC::GmFree((void *)a);
    AscendC::GmFree((void *)b);
    AscendC::GmFree((void *)c);
#else
    CHECK_ACL(aclInit(nullptr));
    int32_t deviceId = 0;
    CHECK_ACL(aclrtSetDevice(deviceId));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));

    uint8_t *aHost = nullptr;
    uint8_t *bHost = nullptr;
    uint8_t *cHost = nullptr;
    uint8_t *aDevice = nullptr;
    uint8_t *bDevice = nullptr;
    uint8_t *cDevice = nullptr;
    CHECK_ACL(aclrtMallocHost((void **)&aHost, aFileSize));
    CHECK_ACL(aclrtMallocHost((void **)&bHost, bFileSize));
    CHECK_ACL(aclrtMallocHost((void **)&cHost, cFileSize));
    CHECK_ACL(aclrtMalloc((void **)&aDevice, aFileSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&bDevice, bFileSize, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc((void **)&cDevice, cFileSize, ACL_MEM_MALLOC_HUGE_FIRST));
    if (!ReadFile("./input/a.bin", aFileSize, aHost, aFileSize) ||
        !ReadFile("./input/b.bin", bFileSize, bHost, bFileSize)) {
        return 1;
    }
    CHECK_ACL(aclrtMemcpy(aDevice, aFileSize, aHost, aFileSize, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(bDevice, bFileSize, bHost, bFileSize, ACL_MEMCPY_HOST_TO_DEVICE));

    matmul_relu_custom_do(BLOCK_DIM, nullptr, stream, aDevice, bDevice, cDevice);
    CHECK_ACL(aclrtSynchronizeStream(stream));

    CHECK_ACL(aclrtMemcpy(cHost, cFileSize, cDevice, cFileSize, ACL_MEMCPY_DEVICE_TO_HOST));
    if (!WriteFile("./output/output.bin", cHost, cFileSize)) {
        return 1;
    }

    CHECK_ACL(aclrtFree(aDevice));
    CHECK_ACL(aclrtFree(bDevice));
    CHECK_ACL(aclrtFree(cDevice));
    CHECK_ACL(aclrtFreeHost(aHost));
    CHECK_ACL(aclrtFreeHost(bHost));
    CHECK_ACL(aclrtFreeHost(cHost));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(deviceId));
    CHECK_ACL(aclFinalize());
#endif
    return 0;
}
