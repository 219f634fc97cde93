// Launches whose failure the caller cannot be handed at once: the generated aclrtlaunch_<kernel>
// and <<<>>> (ascsim/acl_launch.h). On a stream, a failure to issue is queued on that stream so it
// surfaces at its aclrtSynchronizeStream, like a fault; on the default stream the fault is kept
// for the next aclrtSynchronizeStream(nullptr) / aclrtSynchronizeDevice and printed once.
#include <cstdio>
#include <mutex>
#include <string>

#include "acl/acl.h"
#include "host/acl_internal.h"

namespace ascsim::acl {
namespace {

struct DefaultStreamError {
  std::mutex mu;
  std::exception_ptr error;
};
DefaultStreamError& Kept() {
  static DefaultStreamError* kept = new DefaultStreamError;  // never destroyed
  return *kept;
}

}  // namespace

aclError RecordError(const std::string& message, aclError code) {
  g_recent_error = message;
  return code;
}

void KeepDefaultStreamError(std::exception_ptr error) {
  DefaultStreamError& kept = Kept();
  std::lock_guard<std::mutex> lock(kept.mu);
  if (!kept.error) kept.error = error;  // the first failure wins, as a stream keeps it
}

void RethrowDefaultStreamError() {
  std::exception_ptr error;
  {
    DefaultStreamError& kept = Kept();
    std::lock_guard<std::mutex> lock(kept.mu);
    std::swap(error, kept.error);
  }
  if (error) std::rethrow_exception(error);
}

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
  decltype(ToStream(stream)) s{};
  try {
    s = ToStream(stream);
  } catch (const std::exception&) {
    s = nullptr;  // an invalid handle: nothing to queue on; keep it for the default stream
  }
  if (s != nullptr) {
    s->Enqueue([failure] { std::rethrow_exception(failure); });
    return code;
  }
  KeepDefaultStreamError(failure);
  std::fprintf(stderr, "ascsim: launch of %s failed with aclError %d: %s\n", kernel, code,
               g_recent_error.c_str());
  std::fflush(stderr);
  return code;
}

}  // namespace ascsim::acl
