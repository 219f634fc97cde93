// Calls aclnnMatmulBiasCustom on a [M, K] x [K, N] float16 product with a float bias.
#include <cstdio>

#include "aclnn_io.h"
#include "aclnn_matmul_bias_custom.h"

int main()
{
    CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
    CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
    aclrtStream stream = nullptr;
    CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");
    const int64_t m = 256, k = 128, n = 192;
    DeviceTensor a, b, bias, c;
    CHECK_RET(MakeTensor(a, std::vector<int64_t>{m, k}, ACL_FLOAT16, "../input/a.bin"), "input a");
    CHECK_RET(MakeTensor(b, std::vector<int64_t>{k, n}, ACL_FLOAT16, "../input/b.bin"), "input b");
    CHECK_RET(MakeTensor(bias, std::vector<int64_t>{n}, ACL_FLOAT, "../input/bias.bin"), "input bias");
    CHECK_RET(MakeTensor(c, std::vector<int64_t>{m, n}, ACL_FLOAT, ""), "output c");
    uint64_t workspaceSize = 0;
    aclOpExecutor *executor = nullptr;
    CHECK_RET(aclnnMatmulBiasCustomGetWorkspaceSize(a.tensor, b.tensor, bias.tensor, c.tensor,
                                                    &workspaceSize, &executor) == ACL_SUCCESS,
              "aclnnMatmulBiasCustomGetWorkspaceSize");
    std::printf("[INFO] workspace %llu bytes\n", static_cast<unsigned long long>(workspaceSize));
    CHECK_RET(workspaceSize > 0, "a workspace for the Matmul API");
    CHECK_RET(RunWithWorkspace(aclnnMatmulBiasCustom, workspaceSize, executor, stream) == 0,
              "aclnnMatmulBiasCustom");
    CHECK_RET(SaveTensor(c, "c.bin"), "write c");
    FreeTensor(a);
    FreeTensor(b);
    FreeTensor(bias);
    FreeTensor(c);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    std::printf("[INFO] aclnnMatmulBiasCustom done\n");
    return 0;
}
