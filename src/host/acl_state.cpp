// host::AclState (acl_state.h): the ACL subsystem's one state object, its fork handling, and the
// error conversion every entry point shares (RecordError, Guard).
#include "host/acl_state.h"

#include <memory>
#include <mutex>
#include <new>
#include <string>

#include "ascsim/profile.h"
#include "runtime/fork_safety.h"
#include "runtime/process.h"

namespace ascsim::host {

AclState& AclState::Get() {
  static AclState* state = new AclState;  // never destroyed: threads may outlive statics
  return *state;
}

AclState::ThreadState& AclState::ThisThread() {
  thread_local ThreadState state;
  return state;
}

void AclState::KeepDeviceTimeline() {
  Events& events = Get().events;
  // Held while adding, so that no caller returns before the observer is in place.
  std::lock_guard<std::mutex> lock(events.mu);
  if (events.timeline_observer) return;
  events.timeline_observer = true;
  AddLaunchObserver([](const LaunchRecord& record) {
    if (record.traces == nullptr) return;
    const LaunchEstimate estimate = EstimateLaunch(record);
    ThisThread().device_us += estimate.estimated_us + estimate.launch_overhead_us;
  });
}

double AclState::SynchronizeTimed(const std::shared_ptr<Stream>& stream) {
  if (stream == nullptr) {
    // Default-stream launches ran on this thread, to completion, when they were issued.
    RethrowDefaultStreamError();
    return ThisThread().TakeUnsynchronizedUs();
  }
  // Read on the stream's thread once the work queued before it has run (failed or not).
  auto waited = std::make_shared<double>(0.0);
  stream->Enqueue([waited] { *waited = ThisThread().TakeUnsynchronizedUs(); });
  stream->Synchronize();
  return *waited;
}

AclState::AclState() {
  // The runtime's Process registers fork handlers of its own when it is first made. Made later, by
  // an entry point that holds one of these locks (aclrtCreateEvent installing its launch observer),
  // that thread would wait for the fork registry while a fork() on another thread holds the
  // registry and waits for this lock in LockAll. Made first, it never is.
  runtime::Process::Get();
  runtime::AddForkHandlers([this] { LockAll(); }, [this] { UnlockAll(); },
                           [this] {
                             UnlockAll();
                             RemakeWaitStateInChild();
                           });
}

// One order everywhere: no entry point holds two of these locks at once, so any order is free of
// deadlock with them; the fork handler takes them all.
void AclState::LockAll() {
  streams.mu.lock();
  host_blocks.mu.lock();
  default_stream_error.mu.lock();
  events.mu.lock();
  contexts.mu.lock();
  reports.mu.lock();
  binaries.mu.lock();
  soc.mu.lock();
}

void AclState::UnlockAll() {
  soc.mu.unlock();
  binaries.mu.unlock();
  reports.mu.unlock();
  contexts.mu.unlock();
  events.mu.unlock();
  default_stream_error.mu.unlock();
  host_blocks.mu.unlock();
  streams.mu.unlock();
}

// In the child only the forking thread exists: a condition variable may still count waiters that
// are gone, and an event's lock may have been held by a stream thread (an event's lock is not
// taken by the fork handler: a blocked aclrtSynchronizeEvent waits on it).
void AclState::RemakeWaitStateInChild() {
  new (&reports.cv) std::condition_variable;
  for (auto& entry : events.live) {
    AclEvent& e = *entry.second;
    new (&e.mu) std::mutex;
    new (&e.done_cv) std::condition_variable;
  }
}

std::shared_ptr<Stream> AclState::FindStream(aclrtStream stream) {
  if (stream == nullptr) return nullptr;
  std::lock_guard<std::mutex> lock(streams.mu);
  auto it = streams.live.find(static_cast<Stream*>(stream));
  if (it == streams.live.end()) {
    throw InvalidArgument("not a stream from aclrtCreateStream (destroyed?)");
  }
  return it->second;
}

void AclState::KeepDefaultStreamError(std::exception_ptr error) {
  std::lock_guard<std::mutex> lock(default_stream_error.mu);
  if (!default_stream_error.error) default_stream_error.error = error;
}

void AclState::RethrowDefaultStreamError() {
  std::exception_ptr error;
  {
    std::lock_guard<std::mutex> lock(default_stream_error.mu);
    std::swap(error, default_stream_error.error);
  }
  if (error) std::rethrow_exception(error);
}

AclContext* AclState::CurrentContext() {
  AclContext* c = ThisThread().current_context;
  if (c == nullptr) return nullptr;
  std::lock_guard<std::mutex> lock(contexts.mu);
  return contexts.live.count(c) != 0 ? c : nullptr;
}

void AclState::SetDeviceOnThisThread() {
  AclContext* made = nullptr;
  {
    std::lock_guard<std::mutex> lock(contexts.mu);
    if (contexts.default_context == nullptr) {
      contexts.default_context = new AclContext{0, true};
      contexts.live.insert(contexts.default_context);
    }
    made = contexts.default_context;
  }
  if (CurrentContext() == nullptr) ThisThread().current_context = made;
}

void AclState::ResetDeviceOnThisThread() {
  AclContext*& current = ThisThread().current_context;
  if (current != nullptr && current->is_default) current = nullptr;
}

}  // namespace ascsim::host

namespace ascsim::acl {
namespace {

aclError CodeFor(const Error& e) {
  ErrorKind kind = e.kind();
  if (const auto* k = dynamic_cast<const KernelError*>(&e)) kind = k->fault_kind();
  switch (kind) {
    case ErrorKind::kInvalidArgument:
      return e.kind() == ErrorKind::kKernel ? ACL_ERROR_RT_AICORE_EXCEPTION
                                            : ACL_ERROR_INVALID_PARAM;
    case ErrorKind::kOutOfDeviceMemory:
      return ACL_ERROR_RT_MEMORY_ALLOCATION;
    case ErrorKind::kOutOfBounds:
      return ACL_ERROR_RT_AICORE_TRAP_EXCEPTION;
    case ErrorKind::kQueueMisuse:
    case ErrorKind::kSyncMisuse:
    case ErrorKind::kTimeout:
      return ACL_ERROR_RT_AICORE_TIMEOUT;
    default:
      return ACL_ERROR_RT_AICORE_EXCEPTION;
  }
}

}  // namespace

aclError RecordError(const std::string& message, aclError code) {
  host::AclState::ThisThread().recent_error = message;
  return code;
}

const std::string& RecentError() { return host::AclState::ThisThread().recent_error; }

aclError Guard(const char* api, const std::function<void()>& fn) {
  try {
    fn();
    return ACL_SUCCESS;
  } catch (const Error& e) {
    return RecordError(e.what(), CodeFor(e));
  } catch (const std::exception& e) {
    return RecordError(std::string(api) + ": " + e.what(), ACL_ERROR_RT_INTERNAL_ERROR);
  }
}

std::shared_ptr<Stream> ToStream(aclrtStream stream) {
  return host::AclState::Get().FindStream(stream);
}

}  // namespace ascsim::acl
