// The ACL subsystem's state, in one object (host::AclState), as runtime::Process holds the
// runtime's: the handle registries (streams, aclrtMallocHost blocks, events, contexts, callback
// subscriptions, kernel binaries), the kept error of the default stream and the SoC the toolkit
// asked for, plus what ACL keeps per calling thread (the recent error, the current context, the
// device timeline of the stream whose work runs on the thread).
//
// The ACL entry points (acl.cpp, acl_context.cpp, acl_event.cpp, acl_callback.cpp,
// acl_binary.cpp, acl_device.cpp, acl_deferred.cpp, acl_memcpy2d.cpp) depend on this file and on
// nothing of each other; acl_state.cpp is the bottom of the subsystem.
//
// One object, made on first use and never destroyed (stream threads and handles used at exit may
// outlive static destructors). fork(): every registry survives into the child (its memory is a
// copy, as the device memory registry's): the registry locks are held across fork() and released
// on both sides, and the condition variables and per-event locks, which threads that do not exist
// in the child may have been using, are made anew there. A stream made before fork() stays in the
// registry and reports its own error when used (runtime/stream.cpp).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "acl/acl.h"
#include "ascsim/acl_launch.h"
#include "ascsim/runtime.h"

namespace ascsim::host {

// An event (acl_event.cpp): a point in a stream's order and the device time it was reached at.
struct AclEvent {
  explicit AclEvent(bool timed) : timed(timed) {}
  const bool timed;  // aclrtCreateEventWithFlag without ACL_EVENT_TIME_LINE cannot be timed
  std::mutex mu;
  std::condition_variable done_cv;
  uint64_t records = 0;    // aclrtRecordEvent calls so far
  uint64_t completed = 0;  // the record whose point the stream has reached
  bool recorded = false;   // a completed record exists (and no reset since)
  double device_us = 0;    // the stream's timeline at the completed record
  // The device time of that stream's work from its last host synchronization up to the completed
  // record: what aclrtSynchronizeEventWithTimeout waits for (acl_event.cpp).
  double since_sync_us = 0;

  bool Pending() const { return completed != records; }
};

// A context (acl_context.cpp): the simulator has one device, so it only names the device.
struct AclContext {
  int32_t device = 0;
  bool is_default = false;
};

// A host callback handed to its subscribed thread (acl_callback.cpp).
struct AclReport {
  aclrtCallback fn;
  void* user_data;
  std::shared_ptr<bool> done;  // set under Reports::mu once the callback has run (blocking mode)
};

// Kernel binaries (acl_binary.cpp): handles are plain pointers to these records.
struct AclBinary {
  std::string path;
  void* dl = nullptr;
};
struct AclFunction {
  AclBinary* binary = nullptr;
  std::string name;
  acl::FatbinEntry entry = nullptr;
};
struct AclArgList {
  AclFunction* function = nullptr;
  std::vector<std::vector<uint8_t>> values;
  bool finalized = false;
};

class AclState {
 public:
  static AclState& Get();

  // What ACL keeps per calling thread.
  struct ThreadState {
    // aclGetRecentErrMsg's text: CANN keeps it per thread by default ("aclGetRecentErrMsg":
    // thread level unless aclInit's err_msg_mode asks for process level).
    std::string recent_error;
    AclContext* current_context = nullptr;  // may be destroyed since: check Contexts::live
    // The device timeline (us) of the stream whose work runs on this thread (acl_event.cpp).
    double device_us = 0;
    // device_us when the host last synchronized that stream (aclrtSynchronizeStream*, Device*).
    double synced_us = 0;

    // The device time of the work since the last host synchronization; marks it synchronized.
    double TakeUnsynchronizedUs() {
      const double waited = device_us - synced_us;
      synced_us = device_us;
      return waited;
    }
  };
  static ThreadState& ThisThread();

  // Keeps the device timeline from now on: installs (once) the launch observer that adds each
  // launch's modelled time (kernel estimate plus launch overhead, ascsim/profile.h EstimateLaunch)
  // to ThreadState::device_us of the thread it ran on; launches record their per-call traces for
  // it, as when profiling. Called by aclrtSetDevice, aclrtCreateStream and aclrtCreateEvent, so an
  // ACL program's launches are timed: events and the *WithTimeout synchronizations read it.
  static void KeepDeviceTimeline();

  // Waits for `stream` (null: the default stream, whose work ran on this thread) and returns the
  // device time of its work since the host last synchronized it, marking it synchronized. Throws
  // the stream's error as Stream::Synchronize does (the kept default-stream error for null).
  double SynchronizeTimed(const std::shared_ptr<Stream>& stream);

  // Live streams by handle. A caller takes a reference (acl::ToStream) for as long as it uses
  // one, so aclrtDestroyStream on another thread meanwhile only drops the registry's reference.
  struct Streams {
    std::mutex mu;
    std::map<Stream*, std::shared_ptr<Stream>> live;
  };
  // Live aclrtMallocHost blocks, so that aclrtFreeHost refuses anything else.
  struct HostBlocks {
    std::mutex mu;
    std::unordered_set<void*> live;
  };
  // The first failure of a default-stream launch nobody could be handed it at once (<<<>>>, the
  // generated launcher), kept for the next aclrtSynchronizeStream(nullptr) / SynchronizeDevice.
  struct DefaultStreamError {
    std::mutex mu;
    std::exception_ptr error;
  };
  struct Events {
    std::mutex mu;
    std::map<const void*, std::shared_ptr<AclEvent>> live;
    bool timeline_observer = false;  // the launch observer that keeps ThreadState::device_us
  };
  struct Contexts {
    std::mutex mu;
    std::set<const AclContext*> live;
    AclContext* default_context = nullptr;  // made by the first aclrtSetDevice, never freed
  };
  struct Reports {
    std::mutex mu;
    std::condition_variable cv;                        // a report queued or a callback done
    std::map<aclrtStream, uint64_t> subscriber;        // stream -> subscribed thread id
    std::map<uint64_t, std::deque<AclReport>> queues;  // thread id -> callbacks to run
  };
  struct Binaries {
    std::mutex mu;
    std::map<AclBinary*, std::unique_ptr<AclBinary>> binaries;
    std::map<AclFunction*, std::unique_ptr<AclFunction>> functions;
    std::map<AclArgList*, std::unique_ptr<AclArgList>> arg_lists;
  };
  // The SoC the toolkit asked for (toolkit::SelectSoc): aclrtGetSocName reports it. Set once
  // per name and never freed, since callers may keep the pointer aclrtGetSocName returned.
  struct SocRequest {
    std::mutex mu;
    std::atomic<const char*> requested{nullptr};
  };

  Streams streams;
  HostBlocks host_blocks;
  DefaultStreamError default_stream_error;
  Events events;
  Contexts contexts;
  Reports reports;
  Binaries binaries;
  SocRequest soc;

  // The stream behind a handle (null for the default stream); throws InvalidArgument for a
  // handle that is not a live stream.
  std::shared_ptr<Stream> FindStream(aclrtStream stream);
  // Keeps `error` unless one is kept already (the first failure wins, as a stream keeps it).
  void KeepDefaultStreamError(std::exception_ptr error);
  // Rethrows (and forgets) the kept error; does nothing when there is none.
  void RethrowDefaultStreamError();
  // aclrtSetDevice / aclrtResetDevice on the calling thread: the device's default context
  // becomes / stops being the thread's current context (hicann/runtime
  // src/acl/aclrt_impl/context.cpp: a thread without a context gets the default one; docs
  // "aclrtSetDevice": the call implicitly creates the default context). CANN counts
  // aclrtSetDevice calls and releases the default context when aclrtResetDevice brings the count
  // to 0 (docs "aclrtResetDevice"); here the first reset on a thread drops it from that thread.
  void SetDeviceOnThisThread();
  void ResetDeviceOnThisThread();
  // The calling thread's current context, or null (none set, or destroyed since).
  AclContext* CurrentContext();

 private:
  AclState();
  void LockAll();
  void UnlockAll();
  void RemakeWaitStateInChild();
};

}  // namespace ascsim::host

namespace ascsim::acl {

// Records `message` as the calling thread's recent error (aclGetRecentErrMsg) and returns
// `code`. Every ACL, aclnn and Guard failure goes through it.
aclError RecordError(const std::string& message, aclError code = ACL_ERROR_INVALID_PARAM);
// The calling thread's recent error ("" when none).
const std::string& RecentError();

}  // namespace ascsim::acl
