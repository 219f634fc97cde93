// Events. An event records a point in a stream's order; aclrtEventElapsedTime reports the device
// time between two such points as the cost model estimates it.
//
// Device time: each stream has its own device timeline, the sum of the modelled time (kernel
// estimate plus launch overhead, ascsim/profile.h EstimateLaunch) of the launches it ran. Launches
// on a stream run on that stream's worker thread and default-stream launches on the calling
// thread, and launch observers are called on that same thread after each launch, so the timeline
// is a thread-local sum kept by one observer, installed when the first event is created (from
// then on launches record their per-call traces, as when profiling). aclrtStreamWaitEvent moves
// the waiting stream's timeline up to the event's time. Copies and memsets take no modelled time.
//
// Return codes follow CANN (hicann/runtime src/acl/aclrt_impl/event.cpp and the runtime's
// Event::ElapsedTime): null handles are ACL_ERROR_INVALID_PARAM; timing an event that was never
// recorded is ACL_ERROR_RT_INTERNAL_ERROR ("event recorder null"); one still pending is
// ACL_ERROR_RT_EVENT_NOT_COMPLETE.
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "acl/acl.h"
#include "ascsim/profile.h"
#include "ascsim/runtime.h"
#include "host/acl_state.h"

namespace ascsim::acl {
namespace {

constexpr uint32_t kKnownEventFlags = ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS |
                                      ACL_EVENT_TIME_LINE | ACL_EVENT_DEVICE_USE_ONLY |
                                      ACL_EVENT_EXTERNAL | ACL_EVENT_IPC;

using host::AclEvent;
using host::AclState;

std::shared_ptr<AclEvent> Find(aclrtEvent handle) {
  AclState::Events& r = AclState::Get().events;
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.live.find(handle);
  return it == r.live.end() ? nullptr : it->second;
}

aclError Create(const char* api, aclrtEvent* event, uint32_t flag, bool with_flag) {
  if (event == nullptr) return RecordError(std::string(api) + ": event is null");
  if ((flag & ~kKnownEventFlags) != 0) {
    char bits[16];
    std::snprintf(bits, sizeof bits, "0x%x", flag & ~kKnownEventFlags);
    return RecordError(std::string(api) + ": unknown flag bits " + bits +
                       " (the flags are ACL_EVENT_SYNC, ACL_EVENT_TIME_LINE, ... of acl_rt.h)");
  }
  AclState::KeepDeviceTimeline();
  auto e = std::make_shared<AclEvent>(!with_flag || (flag & ACL_EVENT_TIME_LINE) != 0);
  AclState::Events& r = AclState::Get().events;
  std::lock_guard<std::mutex> lock(r.mu);
  r.live[e.get()] = e;
  *event = e.get();
  return ACL_SUCCESS;
}

// Marks record number `record` complete at the current thread's timeline.
void Complete(const std::shared_ptr<AclEvent>& e, uint64_t record) {
  std::lock_guard<std::mutex> lock(e->mu);
  if (record <= e->completed) return;  // a reset or a later record overtook it
  e->completed = record;
  e->recorded = true;
  const AclState::ThreadState& timeline = AclState::ThisThread();
  e->device_us = timeline.device_us;
  e->since_sync_us = timeline.device_us - timeline.synced_us;
  e->done_cv.notify_all();
}

std::string Unknown(const char* api) {
  return std::string(api) + ": not an event from aclrtCreateEvent (destroyed?)";
}

}  // namespace
}  // namespace ascsim::acl

using ascsim::acl::Find;
using ascsim::acl::RecordError;
using ascsim::host::AclEvent;

aclError aclrtCreateEvent(aclrtEvent* event) {
  return ascsim::acl::Create("aclrtCreateEvent", event, 0, false);
}
aclError aclrtCreateEventWithFlag(aclrtEvent* event, uint32_t flag) {
  return ascsim::acl::Create("aclrtCreateEventWithFlag", event, flag, true);
}
aclError aclrtCreateEventExWithFlag(aclrtEvent* event, uint32_t flag) {
  return ascsim::acl::Create("aclrtCreateEventExWithFlag", event, flag, true);
}

aclError aclrtDestroyEvent(aclrtEvent event) {
  if (event == nullptr) return RecordError("aclrtDestroyEvent: event is null");
  auto& r = ascsim::host::AclState::Get().events;
  std::lock_guard<std::mutex> lock(r.mu);
  // A record still queued on a stream keeps its own reference and completes harmlessly.
  if (r.live.erase(event) == 0) return RecordError(ascsim::acl::Unknown("aclrtDestroyEvent"));
  return ACL_SUCCESS;
}

aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  if (event == nullptr) return RecordError("aclrtRecordEvent: event is null");
  std::shared_ptr<AclEvent> e = Find(event);
  if (e == nullptr) return RecordError(ascsim::acl::Unknown("aclrtRecordEvent"));
  return ascsim::acl::Guard("aclrtRecordEvent", [&] {
    const auto s = ascsim::acl::ToStream(stream);  // the reference keeps it alive meanwhile
    uint64_t record;
    {
      std::lock_guard<std::mutex> lock(e->mu);
      record = ++e->records;
    }
    if (s == nullptr) {
      ascsim::acl::Complete(e, record);  // the default stream has run everything issued so far
    } else {
      s->Enqueue([e, record] { ascsim::acl::Complete(e, record); });
    }
  });
}

aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
  if (event == nullptr) return RecordError("aclrtResetEvent: event is null");
  std::shared_ptr<AclEvent> e = Find(event);
  if (e == nullptr) return RecordError(ascsim::acl::Unknown("aclrtResetEvent"));
  return ascsim::acl::Guard("aclrtResetEvent", [&] {
    const auto s = ascsim::acl::ToStream(stream);  // the reference keeps it alive meanwhile
    auto reset = [e] {
      std::lock_guard<std::mutex> lock(e->mu);
      e->completed = e->records;  // a reset stands in for every record issued before it
      e->recorded = false;
      e->done_cv.notify_all();
    };
    if (s == nullptr) {
      reset();
    } else {
      s->Enqueue(reset);
    }
  });
}

aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus* status) {
  if (event == nullptr || status == nullptr) {
    return RecordError("aclrtQueryEvent: event or status is null");
  }
  std::shared_ptr<AclEvent> e = Find(event);
  if (e == nullptr) return RecordError(ascsim::acl::Unknown("aclrtQueryEvent"));
  std::lock_guard<std::mutex> lock(e->mu);
  *status = e->Pending() ? ACL_EVENT_STATUS_NOT_READY : ACL_EVENT_STATUS_COMPLETE;
  return ACL_SUCCESS;
}

aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus* status) {
  if (event == nullptr || status == nullptr) {
    return RecordError("aclrtQueryEventStatus: event or status is null");
  }
  std::shared_ptr<AclEvent> e = Find(event);
  if (e == nullptr) return RecordError(ascsim::acl::Unknown("aclrtQueryEventStatus"));
  std::lock_guard<std::mutex> lock(e->mu);
  *status = e->Pending() ? ACL_EVENT_RECORDED_STATUS_NOT_READY : ACL_EVENT_RECORDED_STATUS_COMPLETE;
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeEvent(aclrtEvent event) {
  if (event == nullptr) return RecordError("aclrtSynchronizeEvent: event is null");
  std::shared_ptr<AclEvent> e = Find(event);
  if (e == nullptr) return RecordError(ascsim::acl::Unknown("aclrtSynchronizeEvent"));
  std::unique_lock<std::mutex> lock(e->mu);
  const uint64_t target = e->records;  // the most recent record at the time of the call
  e->done_cv.wait(lock, [&] { return e->completed >= target; });
  return ACL_SUCCESS;
}

// The timeout in simulated device time, as aclrtSynchronizeStreamWithTimeout (acl.cpp): the event's
// record is waited for, then the device time of its stream's work from the last host
// synchronization up to the record (the cost model's estimate) is compared with `timeout` ms.
// Arguments as hicann/runtime src/acl/aclrt_impl/event.cpp checks them (timeout first: < -1 is
// ACL_ERROR_RT_PARAM_INVALID, as is 0 in the runtime's EventSynchronize; then a null event).
aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout) {
  constexpr const char* kApi = "aclrtSynchronizeEventWithTimeout";
  if (timeout != -1 && timeout <= 0) {
    return RecordError(std::string(kApi) + ": timeout " + std::to_string(timeout) +
                           " ms is invalid (-1 waits without limit; otherwise > 0 ms)",
                       ACL_ERROR_RT_PARAM_INVALID);
  }
  if (event == nullptr) return RecordError(std::string(kApi) + ": event is null");
  std::shared_ptr<AclEvent> e = Find(event);
  if (e == nullptr) return RecordError(ascsim::acl::Unknown(kApi));
  double waited_us = 0;
  {
    std::unique_lock<std::mutex> lock(e->mu);
    const uint64_t target = e->records;
    e->done_cv.wait(lock, [&] { return e->completed >= target; });
    if (e->recorded) waited_us = e->since_sync_us;
  }
  if (timeout > 0 && waited_us > timeout * 1000.0) {
    char line[256];
    std::snprintf(line, sizeof line,
                  "%s: the work before the event's record takes %.3f ms of device time (cost "
                  "model estimate), over the timeout of %d ms",
                  kApi, waited_us / 1000.0, static_cast<int>(timeout));
    return RecordError(line, ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
  }
  return ACL_SUCCESS;
}

aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
  if (event == nullptr) return RecordError("aclrtStreamWaitEvent: event is null");
  std::shared_ptr<AclEvent> e = Find(event);
  if (e == nullptr) return RecordError(ascsim::acl::Unknown("aclrtStreamWaitEvent"));
  return ascsim::acl::Guard("aclrtStreamWaitEvent", [&] {
    const auto s = ascsim::acl::ToStream(stream);  // the reference keeps it alive meanwhile
    uint64_t target;
    {
      std::lock_guard<std::mutex> lock(e->mu);
      target = e->records;
    }
    auto wait = [e, target] {
      std::unique_lock<std::mutex> lock(e->mu);
      e->done_cv.wait(lock, [&] { return e->completed >= target; });
      // Work after the wait starts on the device no earlier than the event's point.
      double& timeline = ascsim::host::AclState::ThisThread().device_us;
      if (e->recorded && e->device_us > timeline) timeline = e->device_us;
    };
    if (s == nullptr) {
      wait();
    } else {
      s->Enqueue(wait);
    }
  });
}

aclError aclrtEventElapsedTime(float* ms, aclrtEvent startEvent, aclrtEvent endEvent) {
  if (ms == nullptr || startEvent == nullptr || endEvent == nullptr) {
    return RecordError("aclrtEventElapsedTime: ms, startEvent or endEvent is null");
  }
  std::shared_ptr<AclEvent> start = Find(startEvent);
  std::shared_ptr<AclEvent> end = Find(endEvent);
  if (start == nullptr || end == nullptr) {
    return RecordError(ascsim::acl::Unknown("aclrtEventElapsedTime"));
  }
  double times[2];
  const std::shared_ptr<AclEvent>* events[2] = {&start, &end};
  for (int i = 0; i < 2; ++i) {
    AclEvent& e = **events[i];
    const char* which = i == 0 ? "startEvent" : "endEvent";
    if (!e.timed) {
      return RecordError(std::string("aclrtEventElapsedTime: ") + which +
                         " was created without ACL_EVENT_TIME_LINE");
    }
    std::lock_guard<std::mutex> lock(e.mu);
    if (e.Pending()) {
      return RecordError(std::string("aclrtEventElapsedTime: ") + which +
                             " has not completed yet (synchronize its stream or the event first)",
                         ACL_ERROR_RT_EVENT_NOT_COMPLETE);
    }
    if (!e.recorded) {
      return RecordError(
          std::string("aclrtEventElapsedTime: ") + which + " was never recorded (aclrtRecordEvent)",
          ACL_ERROR_RT_INTERNAL_ERROR);
    }
    times[i] = e.device_us;
  }
  *ms = static_cast<float>((times[1] - times[0]) / 1000.0);
  return ACL_SUCCESS;
}
