// Contexts. The simulator has one device, so a context only says which device a thread works on;
// the calls keep CANN's rules (hicann/runtime src/acl/aclrt_impl/context.cpp and acl_rt.h):
// aclrtCreateContext makes the new context current on the calling thread; aclrtSetDevice makes
// the device's default context current on a thread that has none; the default context cannot be
// destroyed with aclrtDestroyContext; a null handle is ACL_ERROR_INVALID_PARAM.
#include <mutex>
#include <set>
#include <string>

#include "acl/acl.h"
#include "host/acl_internal.h"

namespace ascsim::acl {
namespace {

struct Context {
  int32_t device = 0;
  bool is_default = false;
};

struct Contexts {
  std::mutex mu;
  std::set<const Context*> live;
  Context* default_context = nullptr;  // made by the first aclrtSetDevice, never freed
};
Contexts& State() {
  static Contexts* state = new Contexts;  // never destroyed: threads may outlive statics
  return *state;
}

thread_local Context* t_current = nullptr;

bool IsLive(const Context* c) {
  Contexts& s = State();
  std::lock_guard<std::mutex> lock(s.mu);
  return s.live.count(c) != 0;
}

// The calling thread's current context, or null (none set, or destroyed since).
Context* Current() { return t_current != nullptr && IsLive(t_current) ? t_current : nullptr; }

}  // namespace

void OnSetDevice() {
  Contexts& s = State();
  {
    std::lock_guard<std::mutex> lock(s.mu);
    if (s.default_context == nullptr) {
      s.default_context = new Context{0, true};
      s.live.insert(s.default_context);
    }
  }
  if (Current() == nullptr) t_current = s.default_context;
}

void OnResetDevice() {
  if (t_current != nullptr && t_current->is_default) t_current = nullptr;
}

}  // namespace ascsim::acl

using ascsim::acl::Context;
using ascsim::acl::RecordError;

aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
  if (context == nullptr) return RecordError("aclrtCreateContext: context is null");
  if (deviceId != 0) {
    return RecordError("aclrtCreateContext: device " + std::to_string(deviceId) +
                           " does not exist (the simulator has device 0)",
                       ACL_ERROR_RT_INVALID_DEVICEID);
  }
  auto* c = new Context{deviceId, false};
  {
    auto& s = ascsim::acl::State();
    std::lock_guard<std::mutex> lock(s.mu);
    s.live.insert(c);
  }
  ascsim::acl::t_current = c;
  *context = c;
  return ACL_SUCCESS;
}

aclError aclrtDestroyContext(aclrtContext context) {
  if (context == nullptr) return RecordError("aclrtDestroyContext: context is null");
  auto* c = static_cast<Context*>(context);
  auto& s = ascsim::acl::State();
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
  if (ascsim::acl::t_current == c) ascsim::acl::t_current = nullptr;
  delete c;
  return ACL_SUCCESS;
}

aclError aclrtSetCurrentContext(aclrtContext context) {
  if (context == nullptr) return RecordError("aclrtSetCurrentContext: context is null");
  auto* c = static_cast<Context*>(context);
  if (!ascsim::acl::IsLive(c)) {
    return RecordError(
        "aclrtSetCurrentContext: not a context from aclrtCreateContext or aclrtGetCurrentContext "
        "(destroyed?)");
  }
  ascsim::acl::t_current = c;
  return ACL_SUCCESS;
}

aclError aclrtGetCurrentContext(aclrtContext* context) {
  if (context == nullptr) return RecordError("aclrtGetCurrentContext: context is null");
  Context* c = ascsim::acl::Current();
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
  Context* c = ascsim::acl::Current();
  if (c == nullptr) {
    return RecordError(
        "aclrtGetDevice: this thread has no device (call aclrtSetDevice or aclrtSetCurrentContext "
        "first)",
        ACL_ERROR_RT_CONTEXT_NULL);
  }
  *deviceId = c->device;
  return ACL_SUCCESS;
}
