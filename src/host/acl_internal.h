// What the ACL entry points in src/host share: the recent-error slot, the deferred errors of the
// default stream, and the device hooks the contexts follow. acl.cpp holds the memory and stream
// calls; acl_context.cpp, acl_event.cpp, acl_callback.cpp, acl_memcpy2d.cpp, acl_device.cpp and
// acl_deferred.cpp the rest (one file per group, so they can change independently).
#pragma once

#include <exception>
#include <string>

#include "acl/acl.h"

namespace ascsim::acl {

// aclGetRecentErrMsg's text (per thread, as ACL keeps it); defined in acl.cpp.
extern thread_local std::string g_recent_error;

// Records `message` for aclGetRecentErrMsg and returns `code`.
aclError RecordError(const std::string& message, aclError code = ACL_ERROR_INVALID_PARAM);

// The default stream (nullptr) runs launches at once, so a fault of a launch that has no value
// to return it in (<<<>>>, or the generated launcher whose caller ignores the value) is kept here
// until the next aclrtSynchronizeStream(nullptr) or aclrtSynchronizeDevice (acl_deferred.cpp).
void KeepDefaultStreamError(std::exception_ptr error);
// Rethrows (and forgets) the kept error; does nothing when there is none.
void RethrowDefaultStreamError();

// aclrtSetDevice / aclrtResetDevice on the calling thread (acl_context.cpp): the device's default
// context becomes / stops being the thread's current context.
void OnSetDevice();
void OnResetDevice();

}  // namespace ascsim::acl
