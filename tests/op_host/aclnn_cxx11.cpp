// An operator program in the AclNNInvocation style and the aclnn code op_build generates, compiled
// as the official samples compile them (src/CMakeLists.txt: -std=c++11) and linked against
// libascsim with --no-undefined (ctest aclnn_headers_cxx11): acl/acl.h, acl/acl_op_compiler.h,
// aclnn/acl_meta.h and the runtime the generated code calls are C++11 and link.
#include <cstdint>
#include <vector>

#include "acl/acl.h"
#include "acl/acl_op_compiler.h"
#include "aclnn/acl_meta.h"
#include "aclnn/aclnn_base.h"
#include "ascsim/aclnn_op.h"

// What op_build writes for AddCustom(x, y) -> z.
extern "C" aclnnStatus aclnnAddCustomGetWorkspaceSize(const aclTensor* x, const aclTensor* y,
                                                      const aclTensor* out, uint64_t* workspaceSize,
                                                      aclOpExecutor** executor) {
  static const char locator = 0;
  const AscsimAclnnArg args[3] = {{ASCSIM_ACLNN_TENSOR, "x", x, 0, 0},
                                  {ASCSIM_ACLNN_TENSOR, "y", y, 0, 0},
                                  {ASCSIM_ACLNN_TENSOR, "out", out, 0, 0}};
  return ascsim_aclnn_get_workspace_size("aclnnAddCustomGetWorkspaceSize", "AddCustom", &locator,
                                         args, 3, workspaceSize, executor);
}
extern "C" aclnnStatus aclnnAddCustom(void* workspace, uint64_t workspaceSize,
                                      aclOpExecutor* executor, aclrtStream stream) {
  return ascsim_aclnn_run("aclnnAddCustom", workspace, workspaceSize, executor, stream);
}

// What the sample's op_runner.cpp does around it.
int RunOnce() {
  if (aclInit(nullptr) != ACL_SUCCESS) return 1;
  aclrtSetDevice(0);
  aclopSetCompileFlag(ACL_OP_COMPILE_DEFAULT);
  aclrtStream stream = nullptr;
  aclrtCreateStream(&stream);
  std::vector<int64_t> shape(2, 8);
  void* dev = nullptr;
  aclrtMalloc(&dev, 64 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
  aclTensorDesc* desc = aclCreateTensorDesc(ACL_FLOAT, 2, shape.data(), ACL_FORMAT_ND);
  aclDataBuffer* buffer = aclCreateDataBuffer(dev, aclGetTensorDescSize(desc));
  aclTensor* x = aclCreateTensor(shape.data(), shape.size(), aclGetTensorDescType(desc), nullptr, 0,
                                 aclGetTensorDescFormat(desc), shape.data(), shape.size(),
                                 aclGetDataBufferAddr(buffer));
  uint64_t workspaceSize = 0;
  aclOpExecutor* handle = nullptr;
  aclnnStatus ret = aclnnAddCustomGetWorkspaceSize(x, x, x, &workspaceSize, &handle);
  if (ret == ACL_SUCCESS) ret = aclnnAddCustom(nullptr, workspaceSize, handle, stream);
  aclrtSynchronizeStreamWithTimeout(stream, 5000);
  const char* message = aclGetRecentErrMsg();
  aclDestroyTensor(x);
  aclDestroyDataBuffer(buffer);
  aclDestroyTensorDesc(desc);
  aclrtFree(dev);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return ret == ACL_SUCCESS || message != nullptr ? 0 : 1;
}
