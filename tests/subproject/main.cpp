// One .cpp with an Ascend C kernel and the ACL host code that launches it, built by a project
// that only does add_subdirectory(ascsim) and links ascsim::ascsim.
#include <cstdio>
#include <vector>

#include "acl/acl.h"
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE_LENGTH = 256;  // floats per tile

// z = 2 * x + y over blockLength floats per block; blockLength is a multiple of TILE_LENGTH.
class KernelScaleAdd {
public:
    __aicore__ inline KernelScaleAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t blockLength)
    {
        this->blockLength = blockLength;
        const uint32_t offset = blockLength * AscendC::GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ float *)x + offset, blockLength);
        yGm.SetGlobalBuffer((__gm__ float *)y + offset, blockLength);
        zGm.SetGlobalBuffer((__gm__ float *)z + offset, blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < blockLength / TILE_LENGTH; i++) {
            AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>();
            AscendC::LocalTensor<float> yLocal = inQueueY.AllocTensor<float>();
            AscendC::DataCopy(xLocal, xGm[i * TILE_LENGTH], TILE_LENGTH);
            AscendC::DataCopy(yLocal, yGm[i * TILE_LENGTH], TILE_LENGTH);
            inQueueX.EnQue(xLocal);
            inQueueY.EnQue(yLocal);
            xLocal = inQueueX.DeQue<float>();
            yLocal = inQueueY.DeQue<float>();
            AscendC::LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
            AscendC::Muls(zLocal, xLocal, 2.0f, TILE_LENGTH);
            AscendC::Add(zLocal, zLocal, yLocal, TILE_LENGTH);
            outQueueZ.EnQue(zLocal);
            inQueueX.FreeTensor(xLocal);
            inQueueY.FreeTensor(yLocal);
            zLocal = outQueueZ.DeQue<float>();
            AscendC::DataCopy(zGm[i * TILE_LENGTH], zLocal, TILE_LENGTH);
            outQueueZ.FreeTensor(zLocal);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    AscendC::TQue<AscendC::QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
    AscendC::GlobalTensor<float> xGm, yGm, zGm;
    uint32_t blockLength = 0;
};

extern "C" __global__ __aicore__ void scale_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t blockLength)
{
    KernelScaleAdd op;
    op.Init(x, y, z, blockLength);
    op.Process();
}

#define CHECK_ACL(x)                                                                           \
    do {                                                                                       \
        aclError __ret = x;                                                                    \
        if (__ret != ACL_ERROR_NONE) {                                                         \
            std::fprintf(stderr, "%s:%d aclError:%d %s\n", __FILE__, __LINE__, __ret,          \
                         aclGetRecentErrMsg());                                                \
            return 1;                                                                          \
        }                                                                                      \
    } while (0)

int main()
{
    const uint32_t blockDim = 4, blockLength = 4 * TILE_LENGTH, n = blockDim * blockLength;
    const size_t bytes = n * sizeof(float);
    std::vector<float> x(n), y(n), z(n);
    for (uint32_t i = 0; i < n; i++) {
        x[i] = static_cast<float>(i) * 0.5f;
        y[i] = 3.0f - static_cast<float>(i % 11);
    }
    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));
    void *xd, *yd, *zd;
    CHECK_ACL(aclrtMalloc(&xd, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&yd, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&zd, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpy(xd, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(yd, bytes, y.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(ACLRT_LAUNCH_KERNEL(scale_add)(blockDim, stream, xd, yd, zd, blockLength));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK_ACL(aclrtMemcpy(z.data(), bytes, zd, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    uint32_t mismatches = 0;
    for (uint32_t i = 0; i < n; i++) mismatches += z[i] != 2.0f * x[i] + y[i];
    std::printf("consumer: scale_add over %u floats on %u blocks: %u mismatches\n", n, blockDim,
                mismatches);
    CHECK_ACL(aclrtFree(xd));
    CHECK_ACL(aclrtFree(yd));
    CHECK_ACL(aclrtFree(zd));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
    return mismatches == 0 ? 0 : 1;
}
