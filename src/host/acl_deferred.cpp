// Launches whose failure the caller cannot be handed at once: the generated aclrtlaunch_<kernel>
// and <<<>>> (ascsim/acl_launch.h). On a stream, a failure to issue is queued on that stream so it
// surfaces at its aclrtSynchronizeStream, like a fault; on the default stream the fault is kept
// (AclState::KeepDefaultStreamError) for the next aclrtSynchronizeStream(nullptr) /
// aclrtSynchronizeDevice and printed once.
#include <cstdio>
#include <string>

#include "acl/acl.h"
#include "host/acl_state.h"

namespace ascsim::acl {

aclError IssueDeferred(const char* kernel, aclrtStream stream, const std::function<void()>& issue) {
  std::exception_ptr failure;
  const aclError code = Guard(kernel, [&] {
    try {
      issue();
    } catch (...) {
      failure = std::current_exception();
      throw;
    }
  });
  if (code == ACL_SUCCESS || !failure) return code;
  std::shared_ptr<Stream> s;
  try {
    s = ToStream(stream);
  } catch (const std::exception&) {
    s = nullptr;  // an invalid handle: nothing to queue on; keep it for the default stream
  }
  if (s != nullptr) {
    s->Enqueue([failure] { std::rethrow_exception(failure); });
    return code;
  }
  host::AclState::Get().KeepDefaultStreamError(failure);
  std::fprintf(stderr, "ascsim: launch of %s failed with aclError %d: %s\n", kernel, code,
               RecentError().c_str());
  std::fflush(stderr);
  return code;
}

}  // namespace ascsim::acl
