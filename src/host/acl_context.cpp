// Contexts. The simulator has one device, so a context only says which device a thread works on;
// the calls keep CANN's rules (hicann/runtime src/acl/aclrt_impl/context.cpp and acl_rt.h):
// aclrtCreateContext makes the new context current on the calling thread; aclrtSetDevice makes
// the device's default context current on a thread that has none; the default context cannot be
// destroyed with aclrtDestroyContext; a null handle is ACL_ERROR_INVALID_PARAM.
#include <mutex>
#include <string>

#include "acl/acl.h"
#include "host/acl_state.h"

using ascsim::acl::RecordError;
using ascsim::host::AclContext;
using ascsim::host::AclState;

aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
  if (context == nullptr) return RecordError("aclrtCreateContext: context is null");
  if (deviceId != 0) {
    return RecordError("aclrtCreateContext: device " + std::to_string(deviceId) +
                           " does not exist (the simulator has device 0)",
                       ACL_ERROR_RT_INVALID_DEVICEID);
  }
  auto* c = new AclContext{deviceId, false};
  {
    AclState::Contexts& s = AclState::Get().contexts;
    std::lock_guard<std::mutex> lock(s.mu);
    s.live.insert(c);
  }
  AclState::ThisThread().current_context = c;
  *context = c;
  return ACL_SUCCESS;
}

aclError aclrtDestroyContext(aclrtContext context) {
  if (context == nullptr) return RecordError("aclrtDestroyContext: context is null");
  auto* c = static_cast<AclContext*>(context);
  AclState::Contexts& s = AclState::Get().contexts;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    if (s.live.count(c) == 0) {
      return RecordError(
          "aclrtDestroyContext: not a context from aclrtCreateContext (destroyed already?)");
    }
    if (c->is_default) {
      return RecordError(
          "aclrtDestroyContext: the default context of device 0 belongs to aclrtSetDevice and "
          "is released by aclrtResetDevice, not destroyed");
    }
    s.live.erase(c);
  }
  AclContext*& current = AclState::ThisThread().current_context;
  if (current == c) current = nullptr;
  delete c;
  return ACL_SUCCESS;
}

aclError aclrtSetCurrentContext(aclrtContext context) {
  if (context == nullptr) return RecordError("aclrtSetCurrentContext: context is null");
  auto* c = static_cast<AclContext*>(context);
  bool live;
  {
    AclState::Contexts& s = AclState::Get().contexts;
    std::lock_guard<std::mutex> lock(s.mu);
    live = s.live.count(c) != 0;
  }
  if (!live) {
    return RecordError(
        "aclrtSetCurrentContext: not a context from aclrtCreateContext or aclrtGetCurrentContext "
        "(destroyed?)");
  }
  AclState::ThisThread().current_context = c;
  return ACL_SUCCESS;
}

aclError aclrtGetCurrentContext(aclrtContext* context) {
  if (context == nullptr) return RecordError("aclrtGetCurrentContext: context is null");
  AclContext* c = AclState::Get().CurrentContext();
  if (c == nullptr) {
    return RecordError(
        "aclrtGetCurrentContext: this thread has no context (call aclrtSetDevice, "
        "aclrtCreateContext or aclrtSetCurrentContext first)",
        ACL_ERROR_RT_CONTEXT_NULL);
  }
  *context = c;
  return ACL_SUCCESS;
}

aclError aclrtGetDevice(int32_t* deviceId) {
  if (deviceId == nullptr) return RecordError("aclrtGetDevice: deviceId is null");
  AclContext* c = AclState::Get().CurrentContext();
  if (c == nullptr) {
    return RecordError(
        "aclrtGetDevice: this thread has no device (call aclrtSetDevice or aclrtSetCurrentContext "
        "first)",
        ACL_ERROR_RT_CONTEXT_NULL);
  }
  *deviceId = c->device;
  return ACL_SUCCESS;
}
