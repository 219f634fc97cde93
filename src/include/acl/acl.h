// The subset of ACL (Ascend Computing Language) host API that kernel launch programs use, mapped
// onto the ascsim runtime. Functions return aclError codes and never throw; on failure
// aclGetRecentErrMsg() says why. g++ has no <<<>>> syntax: launch with ACLRT_LAUNCH_KERNEL.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "ascsim/kernel_launcher.h"

typedef int aclError;
typedef void* aclrtStream;
typedef void* aclrtContext;
typedef void* aclrtEvent;

static const int ACL_SUCCESS = 0;
static const int ACL_ERROR_NONE = 0;
static const int ACL_ERROR_INVALID_PARAM = 100000;
static const int ACL_ERROR_UNINITIALIZE = 100001;
static const int ACL_ERROR_REPEAT_INITIALIZE = 100002;
static const int ACL_ERROR_BAD_ALLOC = 200000;
static const int ACL_ERROR_RT_PARAM_INVALID = 107000;
static const int ACL_ERROR_RT_INVALID_DEVICEID = 107001;
static const int ACL_ERROR_RT_MEMORY_ALLOCATION = 207001;
static const int ACL_ERROR_RT_INTERNAL_ERROR = 507000;
static const int ACL_ERROR_RT_AICORE_TIMEOUT = 507014;
static const int ACL_ERROR_RT_AICORE_EXCEPTION = 507015;
static const int ACL_ERROR_RT_AICORE_TRAP_EXCEPTION = 507016;

typedef enum aclrtMemcpyKind {
  ACL_MEMCPY_HOST_TO_HOST,
  ACL_MEMCPY_HOST_TO_DEVICE,
  ACL_MEMCPY_DEVICE_TO_HOST,
  ACL_MEMCPY_DEVICE_TO_DEVICE,
  ACL_MEMCPY_DEFAULT,
} aclrtMemcpyKind;

typedef enum aclrtMemMallocPolicy {
  ACL_MEM_MALLOC_HUGE_FIRST,
  ACL_MEM_MALLOC_HUGE_ONLY,
  ACL_MEM_MALLOC_NORMAL_ONLY,
  ACL_MEM_MALLOC_HUGE_FIRST_P2P,
  ACL_MEM_MALLOC_HUGE_ONLY_P2P,
  ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
} aclrtMemMallocPolicy;

aclError aclInit(const char* configPath);
aclError aclFinalize();
aclError aclrtSetDevice(int32_t deviceId);
aclError aclrtResetDevice(int32_t deviceId);
aclError aclrtGetDeviceCount(uint32_t* count);
aclError aclrtCreateStream(aclrtStream* stream);
aclError aclrtDestroyStream(aclrtStream stream);
aclError aclrtSynchronizeStream(aclrtStream stream);
aclError aclrtSynchronizeDevice();
aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy);
aclError aclrtMallocHost(void** hostPtr, size_t size);
aclError aclrtFree(void* devPtr);
aclError aclrtFreeHost(void* hostPtr);
aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count,
                     aclrtMemcpyKind kind);
aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count,
                          aclrtMemcpyKind kind, aclrtStream stream);
aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count);
aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count,
                          aclrtStream stream);
const char* aclGetRecentErrMsg();

namespace ascsim::acl {
// Runs `fn` and converts an ascsim error into an aclError (recording its message).
aclError Guard(const char* api, const std::function<void()>& fn);
// The stream behind an aclrtStream (null for the default stream: synchronous). The reference
// keeps it alive while the caller uses it, even if another thread destroys it meanwhile.
std::shared_ptr<Stream> ToStream(aclrtStream stream);
}  // namespace ascsim::acl

namespace ascsim {
template <class... P>
class AclKernelCall {
 public:
  explicit AclKernelCall(KernelLauncher<P...> launcher) : launcher_(launcher) {}
  template <class... A>
  aclError operator()(uint32_t blockDim, aclrtStream stream, A&&... args) const {
    return acl::Guard(launcher_.name(), [&] {
      const std::shared_ptr<Stream> s = acl::ToStream(stream);
      launcher_.Run(blockDim, s.get(), std::forward<A>(args)...);
    });
  }

 private:
  KernelLauncher<P...> launcher_;
};
template <class... P>
AclKernelCall<P...> MakeAclKernelCall(const char* name, void (*fn)(P...)) {
  return AclKernelCall<P...>(KernelLauncher<P...>(name, fn));
}
}  // namespace ascsim

// ACLRT_LAUNCH_KERNEL(add_custom)(blockDim, stream, x, y, z, totalLength) returns an aclError.
// A fault inside the kernel surfaces at aclrtSynchronizeStream (or here, on the default stream).
#define ACLRT_LAUNCH_KERNEL(kernel) ::ascsim::MakeAclKernelCall(#kernel, &kernel)
