// Host callbacks in stream order (aclrtSubscribeReport / aclrtLaunchCallback / aclrtProcessReport
// / aclrtUnSubscribeReport), as CANN runs them: a thread subscribes to a stream; a callback
// launched on the stream is handed, when the stream reaches it, to the subscribed thread, which
// runs it inside aclrtProcessReport. With ACL_CALLBACK_BLOCK the stream waits until the callback
// has run. Codes: launching on a stream nobody subscribed to is ACL_ERROR_RT_STREAM_NO_CB_REG;
// aclrtProcessReport with nothing to run within `timeout` ms is ACL_ERROR_RT_REPORT_TIMEOUT
// (names from rt_error_codes.h); a second subscription of the same stream is
// ACL_ERROR_RT_STREAM_SUBSCRIBE.
#include <pthread.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <memory>
#include <mutex>
#include <string>

#include "acl/acl.h"
#include "ascsim/runtime.h"
#include "host/acl_state.h"

namespace ascsim::acl {
namespace {

using Reports = host::AclState::Reports;
Reports& State() { return host::AclState::Get().reports; }

uint64_t ThisThread() { return static_cast<uint64_t>(pthread_self()); }

}  // namespace
}  // namespace ascsim::acl

using ascsim::acl::RecordError;

aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream) {
  return ascsim::acl::Guard("aclrtSubscribeReport", [&] {
    ascsim::acl::ToStream(stream);  // validates the handle
    auto& r = ascsim::acl::State();
    std::lock_guard<std::mutex> lock(r.mu);
    auto it = r.subscriber.find(stream);
    if (it != r.subscriber.end()) {
      throw ascsim::InvalidArgument(
          "aclrtSubscribeReport: the stream already has a subscribed "
          "thread (aclrtUnSubscribeReport it first)");
    }
    r.subscriber[stream] = threadId;
  });
}

aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream) {
  auto& r = ascsim::acl::State();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = r.subscriber.find(stream);
  if (it == r.subscriber.end() || it->second != threadId) {
    return RecordError("aclrtUnSubscribeReport: thread " + std::to_string(threadId) +
                           " is not subscribed to this stream",
                       ACL_ERROR_RT_THREAD_SUBSCRIBE);
  }
  r.subscriber.erase(it);
  return ACL_SUCCESS;
}

aclError aclrtLaunchCallback(aclrtCallback fn, void* userData, aclrtCallbackBlockType blockType,
                             aclrtStream stream) {
  if (fn == nullptr) return RecordError("aclrtLaunchCallback: fn is null");
  if (blockType != ACL_CALLBACK_BLOCK && blockType != ACL_CALLBACK_NO_BLOCK) {
    return RecordError("aclrtLaunchCallback: blockType " + std::to_string(blockType) +
                       " is not ACL_CALLBACK_BLOCK or ACL_CALLBACK_NO_BLOCK");
  }
  uint64_t thread = 0;
  {
    auto& r = ascsim::acl::State();
    std::lock_guard<std::mutex> lock(r.mu);
    auto it = r.subscriber.find(stream);
    if (it == r.subscriber.end()) {
      return RecordError(
          "aclrtLaunchCallback: no thread is subscribed to this stream's callbacks "
          "(aclrtSubscribeReport, then aclrtProcessReport on that thread)",
          ACL_ERROR_RT_STREAM_NO_CB_REG);
    }
    thread = it->second;
  }
  const bool block = blockType == ACL_CALLBACK_BLOCK;
  return ascsim::acl::Guard("aclrtLaunchCallback", [&] {
    const auto s = ascsim::acl::ToStream(stream);  // the reference keeps it alive meanwhile
    auto hand_over = [fn, userData, thread, block, stream] {
      auto& r = ascsim::acl::State();
      auto done = std::make_shared<bool>(false);
      std::unique_lock<std::mutex> lock(r.mu);
      auto it = r.subscriber.find(stream);
      if (it == r.subscriber.end() || it->second != thread) {
        // Nobody would ever run it: on the device the stream would wait forever.
        throw ascsim::InvalidArgument(
            "aclrtLaunchCallback: thread " + std::to_string(thread) +
            " unsubscribed from the stream before the stream reached the callback");
      }
      r.queues[thread].push_back({fn, userData, block ? done : nullptr});
      r.cv.notify_all();
      if (!block) return;
      // A blocking callback holds the stream until its thread runs it in aclrtProcessReport; a
      // thread that never does would hang the stream, so the wait has the launch timeout.
      const double timeout = ascsim::GetLaunchTimeout();
      auto ran = [&] { return *done; };
      if (timeout <= 0) {
        r.cv.wait(lock, ran);
      } else if (!r.cv.wait_for(lock, std::chrono::duration<double>(timeout), ran)) {
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%g", timeout);
        throw ascsim::Timeout("aclrtLaunchCallback: the blocking callback was not run within " +
                              std::string(seconds) + " s (ASCSIM_TIMEOUT): thread " +
                              std::to_string(thread) + " must call aclrtProcessReport");
      }
    };
    if (s == nullptr && block && thread == ascsim::acl::ThisThread()) {
      fn(userData);  // the subscriber is this thread: waiting for its aclrtProcessReport would hang
    } else if (s == nullptr) {
      hand_over();
    } else {
      s->Enqueue(hand_over);
    }
  });
}

aclError aclrtProcessReport(int32_t timeout) {
  if (timeout < -1) {
    return RecordError("aclrtProcessReport: timeout " + std::to_string(timeout) +
                       " ms (use -1 to wait without limit)");
  }
  auto& r = ascsim::acl::State();
  const uint64_t self = ascsim::acl::ThisThread();
  std::unique_lock<std::mutex> lock(r.mu);
  auto ready = [&] { return !r.queues[self].empty(); };
  if (timeout == -1) {
    r.cv.wait(lock, ready);
  } else if (!r.cv.wait_for(lock, std::chrono::milliseconds(timeout), ready)) {
    return RecordError(
        "aclrtProcessReport: no callback arrived within " + std::to_string(timeout) + " ms",
        ACL_ERROR_RT_REPORT_TIMEOUT);
  }
  std::deque<ascsim::host::AclReport> batch;
  batch.swap(r.queues[self]);
  lock.unlock();
  for (ascsim::host::AclReport& report : batch) {
    report.fn(report.user_data);
    if (report.done) {
      std::lock_guard<std::mutex> done_lock(r.mu);
      *report.done = true;
      r.cv.notify_all();
    }
  }
  return ACL_SUCCESS;
}
