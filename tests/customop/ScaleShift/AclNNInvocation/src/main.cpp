// Calls aclnnScaleShiftCustom twice: y1 = relu(x * 0.5 + bias) (tiling key 12) and y2 = x * 2
// without the optional bias and with relu left at its default (key 1).
#include <cstdio>

#include "aclnn_io.h"
#include "aclnn_scale_shift_custom.h"

int main()
{
    CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
    CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
    aclrtStream stream = nullptr;
    CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");
    const std::vector<int64_t> shape = {16, 256};
    DeviceTensor x, bias, y1, y2;
    CHECK_RET(MakeTensor(x, shape, ACL_FLOAT, "../input/x.bin"), "input x");
    CHECK_RET(MakeTensor(bias, shape, ACL_FLOAT, "../input/bias.bin"), "input bias");
    CHECK_RET(MakeTensor(y1, shape, ACL_FLOAT, ""), "output y1");
    CHECK_RET(MakeTensor(y2, shape, ACL_FLOAT, ""), "output y2");

    uint64_t workspaceSize = 0;
    aclOpExecutor *executor = nullptr;
    CHECK_RET(aclnnScaleShiftCustomGetWorkspaceSize(x.tensor, bias.tensor, 0.5, true, y1.tensor,
                                                    &workspaceSize, &executor) == ACL_SUCCESS,
              "aclnnScaleShiftCustomGetWorkspaceSize (bias, relu)");
    CHECK_RET(RunWithWorkspace(aclnnScaleShiftCustom, workspaceSize, executor, stream) == 0,
              "aclnnScaleShiftCustom (bias, relu)");
    CHECK_RET(aclnnScaleShiftCustomGetWorkspaceSize(x.tensor, nullptr, 2.0, false, y2.tensor,
                                                    &workspaceSize, &executor) == ACL_SUCCESS,
              "aclnnScaleShiftCustomGetWorkspaceSize (no bias)");
    CHECK_RET(RunWithWorkspace(aclnnScaleShiftCustom, workspaceSize, executor, stream) == 0,
              "aclnnScaleShiftCustom (no bias)");
    // A shape the TilingFunc refuses: the failure is reported, not run.
    DeviceTensor odd;
    CHECK_RET(MakeTensor(odd, std::vector<int64_t>{3, 5}, ACL_FLOAT, ""), "odd tensor");
    const aclnnStatus refused = aclnnScaleShiftCustomGetWorkspaceSize(
        odd.tensor, nullptr, 1.0, false, odd.tensor, &workspaceSize, &executor);
    std::printf("[INFO] a 3x5 tensor: status %d, %s\n", refused, aclGetRecentErrMsg());
    CHECK_RET(refused == 561002, "the refusal of a 3x5 tensor");

    CHECK_RET(SaveTensor(y1, "y1.bin") && SaveTensor(y2, "y2.bin"), "write outputs");
    FreeTensor(x);
    FreeTensor(bias);
    FreeTensor(y1);
    FreeTensor(y2);
    FreeTensor(odd);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    std::printf("[INFO] aclnnScaleShiftCustom done\n");
    return 0;
}
