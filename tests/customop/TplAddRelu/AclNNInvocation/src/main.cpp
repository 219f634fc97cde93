// Calls aclnnTplAddReluCustom three times, each reaching another template instance: float16 with
// ReLU (two tiles), float32 without ReLU on a large input (four tiles) and float32 with ReLU on a
// small one (one tile). Inputs input/{x,y}_<case>.bin, output output/z_<case>.bin.
#include <cstdio>

#include "aclnn_io.h"
#include "aclnn_tpl_add_relu_custom.h"

static int RunOne(const char *name, aclDataType type, const std::vector<int64_t> &shape, bool relu,
                  aclrtStream stream)
{
    const std::string s(name);
    DeviceTensor x, y, z;
    CHECK_RET(MakeTensor(x, shape, type, "../input/x_" + s + ".bin"), "input x");
    CHECK_RET(MakeTensor(y, shape, type, "../input/y_" + s + ".bin"), "input y");
    CHECK_RET(MakeTensor(z, shape, type, ""), "output z");
    uint64_t workspaceSize = 0;
    aclOpExecutor *executor = nullptr;
    CHECK_RET(aclnnTplAddReluCustomGetWorkspaceSize(x.tensor, y.tensor, relu, z.tensor, &workspaceSize,
                                                    &executor) == ACL_SUCCESS,
              "aclnnTplAddReluCustomGetWorkspaceSize");
    CHECK_RET(RunWithWorkspace(aclnnTplAddReluCustom, workspaceSize, executor, stream) == 0,
              "aclnnTplAddReluCustom");
    CHECK_RET(SaveTensor(z, "z_" + s + ".bin"), "write z");
    std::printf("[INFO] aclnnTplAddReluCustom %s done\n", name);
    FreeTensor(x);
    FreeTensor(y);
    FreeTensor(z);
    return 0;
}

int main()
{
    CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
    CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
    aclrtStream stream = nullptr;
    CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");
    if (RunOne("fp16_relu", ACL_FLOAT16, {8, 1024}, true, stream) != 0 ||
        RunOne("fp32_big", ACL_FLOAT, {8, 4096}, false, stream) != 0 ||
        RunOne("fp32_relu_small", ACL_FLOAT, {3, 16}, true, stream) != 0) {
        return 1;
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
