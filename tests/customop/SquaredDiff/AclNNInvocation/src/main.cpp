// Calls aclnnSquaredDiffCustom for float16 and float32 inputs (input/x_<t>.bin, input/y_<t>.bin)
// and writes output/z_<t>.bin.
#include <cstdio>

#include "aclnn_io.h"
#include "aclnn_squared_diff_custom.h"

static int RunOne(const char *suffix, aclDataType type, aclrtStream stream)
{
    const std::vector<int64_t> shape = {8, 2048};
    const std::string s(suffix);
    DeviceTensor x, y, z;
    CHECK_RET(MakeTensor(x, shape, type, "../input/x_" + s + ".bin"), "input x");
    CHECK_RET(MakeTensor(y, shape, type, "../input/y_" + s + ".bin"), "input y");
    CHECK_RET(MakeTensor(z, shape, type, ""), "output z");
    uint64_t workspaceSize = 0;
    aclOpExecutor *executor = nullptr;
    CHECK_RET(aclnnSquaredDiffCustomGetWorkspaceSize(x.tensor, y.tensor, z.tensor, &workspaceSize,
                                                     &executor) == ACL_SUCCESS,
              "aclnnSquaredDiffCustomGetWorkspaceSize");
    CHECK_RET(RunWithWorkspace(aclnnSquaredDiffCustom, workspaceSize, executor, stream) == 0,
              "aclnnSquaredDiffCustom");
    CHECK_RET(SaveTensor(z, "z_" + s + ".bin"), "write z");
    std::printf("[INFO] aclnnSquaredDiffCustom %s done\n", suffix);
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
    if (RunOne("fp16", ACL_FLOAT16, stream) != 0 || RunOne("fp32", ACL_FLOAT, stream) != 0) {
        return 1;
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
