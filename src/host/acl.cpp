// ACL over the ascsim runtime. Every entry point converts exceptions into aclError codes and
// keeps the message for aclGetRecentErrMsg (per thread, as ACL does).
#include "acl/acl.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ascsim/aicore/checks.h"
#include "ascsim/profile.h"
#include "ascsim/runtime.h"
#include "host/acl_state.h"
#include "runtime/device_memory_internal.h"

using ascsim::acl::Guard;
using ascsim::host::AclState;

namespace {
using ascsim::acl::RecordError;

// Validates a copy against device allocations: the device side must lie inside one.
void CheckDeviceRange(const char* api, const char* role, const void* p, size_t count) {
  if (count == 0) return;
  const auto* begin = static_cast<const uint8_t*>(p);
  // Both ends in device memory is not enough: they must lie in the same allocation, or a copy
  // could run from one allocation across the host heap into the next.
  ascsim::GmRange range;
  if (!ascsim::runtime::FindDeviceMemory(begin, &range) || begin == range.end ||
      count > static_cast<size_t>(range.end - begin)) {
    throw ascsim::OutOfBounds(std::string(api) + ": " + role + " range of " +
                              std::to_string(count) + " B is not inside device memory");
  }
}
// The kinds aclrtMemcpy takes (hicann/runtime src/acl/aclrt_impl/memory.cpp,
// MemcpyKindTranslate): anything else is ACL_ERROR_INVALID_PARAM, and nothing is copied.
// A C caller can pass any int as the kind; reading an out-of-range value through the enum type
// is undefined behaviour in C++ (UBSan's -fsanitize=enum), so the kind is read as its bytes.
int MemcpyKindValue(const aclrtMemcpyKind& kind) {
  int value = 0;
  static_assert(sizeof(kind) == sizeof(value), "aclrtMemcpyKind is an int-sized C enum");
  std::memcpy(&value, &kind, sizeof(value));
  return value;
}
void CheckMemcpyKind(const char* api, int kind) {
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST:
    case ACL_MEMCPY_HOST_TO_DEVICE:
    case ACL_MEMCPY_DEVICE_TO_HOST:
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
    case ACL_MEMCPY_DEFAULT:
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE:
      return;
    default:
      throw ascsim::InvalidArgument(
          std::string(api) + ": kind " + std::to_string(kind) +
          " is not ACL_MEMCPY_HOST_TO_HOST, HOST_TO_DEVICE, DEVICE_TO_HOST, DEVICE_TO_DEVICE, "
          "DEFAULT or HOST_TO_BUF_TO_DEVICE");
  }
}
}  // namespace

// ASCSIM_TRACE / ASCSIM_PROFILE_DIR in the environment (msprof sets them) take effect for an ACL
// program at its first aclInit or aclrtSetDevice, before any launch.
aclError aclInit(const char*) {
  ascsim::InstallTraceFromEnvironment();
  return ACL_SUCCESS;
}
aclError aclFinalize() { return ACL_SUCCESS; }
aclError aclrtSetDevice(int32_t deviceId) {
  if (deviceId != 0)
    return RecordError("aclrtSetDevice: device " + std::to_string(deviceId) +
                           " does not exist (the simulator has device 0)",
                       ACL_ERROR_RT_INVALID_DEVICEID);
  ascsim::InstallTraceFromEnvironment();
  AclState::KeepDeviceTimeline();
  AclState::Get().SetDeviceOnThisThread();  // the default context
  return ACL_SUCCESS;
}
aclError aclrtResetDevice(int32_t) {
  AclState::Get().ResetDeviceOnThisThread();
  return ACL_SUCCESS;
}
aclError aclrtGetDeviceCount(uint32_t* count) {
  if (count == nullptr) return RecordError("aclrtGetDeviceCount: count is null");
  *count = 1;
  return ACL_SUCCESS;
}

aclError aclrtCreateStream(aclrtStream* stream) {
  return Guard("aclrtCreateStream", [&] {
    if (stream == nullptr) throw ascsim::InvalidArgument("aclrtCreateStream: stream is null");
    AclState::KeepDeviceTimeline();
    auto s = std::make_shared<ascsim::Stream>();
    AclState::Streams& streams = AclState::Get().streams;
    std::lock_guard<std::mutex> lock(streams.mu);
    streams.live.emplace(s.get(), s);
    *stream = s.get();
  });
}

aclError aclrtDestroyStream(aclrtStream stream) {
  return Guard("aclrtDestroyStream", [&] {
    std::shared_ptr<ascsim::Stream> s = ascsim::acl::ToStream(stream);
    if (s == nullptr) throw ascsim::InvalidArgument("aclrtDestroyStream: stream is null");
    {
      AclState::Streams& streams = AclState::Get().streams;
      std::lock_guard<std::mutex> lock(streams.mu);
      streams.live.erase(s.get());
    }
    // Destroying waits for the queued work (its unreported error is dropped); a thread still
    // synchronizing the stream holds its own reference and releases it last.
    s->Wait();
  });
}

// Synchronizations mark the work they waited for as synchronized (AclState::SynchronizeTimed), so
// that a later *WithTimeout call measures only the work issued after them.
namespace {
// A kernel queued on a created stream that faulted surfaces here as an aclError; programs
// typically print only the code (`aclError:507016`), so the fault's one-line message goes to
// stderr too, as a default-stream launch's does when it fails (acl_deferred.cpp).
aclError ReportStreamFault(const char* api, aclrtStream stream, aclError rc) {
  if (rc == ACL_SUCCESS || stream == nullptr) return rc;
  if (rc != ACL_ERROR_RT_AICORE_EXCEPTION && rc != ACL_ERROR_RT_AICORE_TRAP_EXCEPTION &&
      rc != ACL_ERROR_RT_AICORE_TIMEOUT) {
    return rc;
  }
  std::fprintf(stderr, "ascsim: %s failed with aclError %d: %s\n", api, rc,
               ascsim::acl::RecentError().c_str());
  std::fflush(stderr);
  return rc;
}
}  // namespace

aclError aclrtSynchronizeStream(aclrtStream stream) {
  return ReportStreamFault("aclrtSynchronizeStream", stream, Guard("aclrtSynchronizeStream", [&] {
                             AclState::Get().SynchronizeTimed(ascsim::acl::ToStream(stream));
                           }));
}

namespace {

// Every live stream and the default stream; returns the longest device time one of them waited
// for (streams run side by side on the device).
double SynchronizeAllTimed() {
  // References, not pointers: a stream destroyed by another thread meanwhile stays alive until
  // this loop is done with it.
  std::vector<std::shared_ptr<ascsim::Stream>> streams;
  {
    AclState::Streams& registry = AclState::Get().streams;
    std::lock_guard<std::mutex> lock(registry.mu);
    for (const auto& entry : registry.live) streams.push_back(entry.second);
  }
  double longest = 0;
  for (const auto& s : streams) longest = std::max(longest, AclState::Get().SynchronizeTimed(s));
  return std::max(longest, AclState::Get().SynchronizeTimed(nullptr));
}

// The *WithTimeout synchronizations count the timeout in simulated device time: they wait for the
// work to finish (a kernel that would hang on the device is reported by the launch's own hang
// checks), then fail with the timeout code when the cost model's estimate of the device time of
// the work they waited for (since the stream was last synchronized) exceeds `timeout` ms. The
// wall clock would fail correct programs: a simulated kernel runs 10^2-10^4 times slower than the
// device. docs/architecture.md (Departures) has the rule.
//
// Arguments as CANN checks them (hicann/runtime src/acl/aclrt_impl/stream.cpp and device.cpp:
// timeout < -1 is ACL_ERROR_RT_PARAM_INVALID; src/runtime/api/impl/api_error.cc
// StreamSynchronize / DeviceSynchronize: 0 too, "greater than or equal to -1 and not equal to
// 0", RT_ERROR_INVALID_VALUE, which errcode_manage.cc maps to ACL_ERROR_RT_PARAM_INVALID); -1
// waits without limit (docs "aclrtSynchronizeStreamWithTimeout").
aclError CheckTimeout(const char* api, int32_t timeout) {
  if (timeout == -1 || timeout > 0) return ACL_SUCCESS;
  return RecordError(std::string(api) + ": timeout " + std::to_string(timeout) +
                         " ms is invalid (-1 waits without limit; otherwise > 0 ms)",
                     ACL_ERROR_RT_PARAM_INVALID);
}

aclError TimedOut(const char* api, const char* what, double waited_us, int32_t timeout) {
  char line[256];
  std::snprintf(line, sizeof line,
                "%s: %s takes %.3f ms of device time (cost model estimate), over the timeout "
                "of %d ms",
                api, what, waited_us / 1000.0, static_cast<int>(timeout));
  return RecordError(line, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
}

}  // namespace

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
  constexpr const char* kApi = "aclrtSynchronizeStreamWithTimeout";
  if (const aclError rc = CheckTimeout(kApi, timeout); rc != ACL_SUCCESS) return rc;
  double waited_us = 0;
  const aclError rc = ReportStreamFault(
      kApi, stream, Guard(kApi, [&] {
        waited_us = AclState::Get().SynchronizeTimed(ascsim::acl::ToStream(stream));
      }));
  if (rc != ACL_SUCCESS) return rc;
  if (timeout > 0 && waited_us > timeout * 1000.0) {
    return TimedOut(kApi, "the stream's work", waited_us, timeout);
  }
  return ACL_SUCCESS;
}

aclError aclrtSynchronizeDevice() {
  return Guard("aclrtSynchronizeDevice", [&] { SynchronizeAllTimed(); });
}

aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout) {
  constexpr const char* kApi = "aclrtSynchronizeDeviceWithTimeout";
  if (const aclError rc = CheckTimeout(kApi, timeout); rc != ACL_SUCCESS) return rc;
  double waited_us = 0;
  const aclError rc = Guard(kApi, [&] { waited_us = SynchronizeAllTimed(); });
  if (rc != ACL_SUCCESS) return rc;
  if (timeout > 0 && waited_us > timeout * 1000.0) {
    return TimedOut(kApi, "the device's work", waited_us, timeout);
  }
  return ACL_SUCCESS;
}

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy) {
  return Guard("aclrtMalloc", [&] {
    if (devPtr == nullptr) throw ascsim::InvalidArgument("aclrtMalloc: devPtr is null");
    if (size == 0) throw ascsim::InvalidArgument("aclrtMalloc: size is 0");
    // The device's block: the size rounded up to 32 B, plus 32 B (docs "aclrtMalloc" and
    // "aclrtMallocAlign32", which differs only by not adding the 32 B). Kernels may touch it all
    // without a fault, and official ones do (LpNormV2 uses its 2-byte output as 64 B of float
    // scratch), so the checked extent is that block, not `size`.
    constexpr size_t kAlign = 32;
    const auto exhausted = [size] {
      return ascsim::OutOfDeviceMemory("device memory exhausted: cannot allocate " +
                                       std::to_string(size) + " B");
    };
    if (size > SIZE_MAX / 2) throw exhausted();
    try {
      *devPtr = ascsim::DeviceMalloc((size + kAlign - 1) / kAlign * kAlign + kAlign);
    } catch (const ascsim::OutOfDeviceMemory&) {
      throw exhausted();  // named by the size the caller asked for
    }
  });
}

aclError aclrtMallocHost(void** hostPtr, size_t size) {
  return Guard("aclrtMallocHost", [&] {
    if (hostPtr == nullptr) throw ascsim::InvalidArgument("aclrtMallocHost: hostPtr is null");
    if (size == 0) throw ascsim::InvalidArgument("aclrtMallocHost: size is 0");
    void* p = std::malloc(size);
    if (p == nullptr) throw ascsim::OutOfDeviceMemory("aclrtMallocHost: out of host memory");
    AclState::HostBlocks& blocks = AclState::Get().host_blocks;
    std::lock_guard<std::mutex> lock(blocks.mu);
    blocks.live.insert(p);
    *hostPtr = p;
  });
}

aclError aclrtFree(void* devPtr) {
  return Guard("aclrtFree", [&] { ascsim::DeviceFree(devPtr); });
}
aclError aclrtFreeHost(void* hostPtr) {
  return Guard("aclrtFreeHost", [&] {
    // CANN checks for null (hicann/runtime src/acl/aclrt_impl/memory.cpp) and its runtime
    // refuses what rtMallocHost did not return; free() on such a pointer would abort here.
    if (hostPtr == nullptr) throw ascsim::InvalidArgument("aclrtFreeHost: hostPtr is null");
    {
      AclState::HostBlocks& blocks = AclState::Get().host_blocks;
      std::lock_guard<std::mutex> lock(blocks.mu);
      if (blocks.live.erase(hostPtr) == 1) {
        std::free(hostPtr);
        return;
      }
    }
    const std::string where = ascsim::aicore::Hex(reinterpret_cast<uintptr_t>(hostPtr));
    if (ascsim::DeviceAllocationSize(hostPtr) != 0) {
      throw ascsim::InvalidArgument("aclrtFreeHost: " + where +
                                    " is device memory from aclrtMalloc (free it with aclrtFree)");
    }
    throw ascsim::InvalidArgument("aclrtFreeHost: " + where +
                                  " is not memory from aclrtMallocHost (freed twice?)");
  });
}

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count,
                     aclrtMemcpyKind kind_arg) {
  const int kind = MemcpyKindValue(kind_arg);
  return Guard("aclrtMemcpy", [&] {
    if (count > destMax) {
      throw ascsim::InvalidArgument("aclrtMemcpy: count " + std::to_string(count) +
                                    " exceeds destMax " + std::to_string(destMax));
    }
    if (count > 0 && (dst == nullptr || src == nullptr)) {
      throw ascsim::InvalidArgument("aclrtMemcpy: null pointer");
    }
    if (count > 0) CheckMemcpyKind("aclrtMemcpy", kind);  // count 0 succeeds first in CANN
    if (kind == ACL_MEMCPY_HOST_TO_DEVICE || kind == ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE ||
        kind == ACL_MEMCPY_DEVICE_TO_DEVICE) {
      CheckDeviceRange("aclrtMemcpy", "destination", dst, count);
    }
    if (kind == ACL_MEMCPY_DEVICE_TO_HOST || kind == ACL_MEMCPY_DEVICE_TO_DEVICE) {
      CheckDeviceRange("aclrtMemcpy", "source", src, count);
    }
    std::memmove(dst, src, count);
  });
}

aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count,
                          aclrtMemcpyKind kind_arg, aclrtStream stream) {
  const int kind_value = MemcpyKindValue(kind_arg);
  return Guard("aclrtMemcpyAsync", [&] {
    // At the call, not when it runs.
    if (count > 0) CheckMemcpyKind("aclrtMemcpyAsync", kind_value);
    std::shared_ptr<ascsim::Stream> s = ascsim::acl::ToStream(stream);
    if (s == nullptr) {
      if (aclrtMemcpy(dst, destMax, src, count, static_cast<aclrtMemcpyKind>(kind_value)) !=
          ACL_SUCCESS) {
        throw ascsim::InvalidArgument(aclGetRecentErrMsg());
      }
      return;
    }
    s->Enqueue([=] {
      if (aclrtMemcpy(dst, destMax, src, count, static_cast<aclrtMemcpyKind>(kind_value)) !=
          ACL_SUCCESS) {
        throw ascsim::InvalidArgument(aclGetRecentErrMsg());
      }
    });
  });
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
  return Guard("aclrtMemset", [&] {
    if (count > maxCount) {
      throw ascsim::InvalidArgument("aclrtMemset: count " + std::to_string(count) +
                                    " exceeds maxCount " + std::to_string(maxCount));
    }
    CheckDeviceRange("aclrtMemset", "destination", devPtr, count);
    std::memset(devPtr, value, count);
  });
}

aclError aclrtMemsetAsync(void* devPtr, size_t maxCount, int32_t value, size_t count,
                          aclrtStream stream) {
  return Guard("aclrtMemsetAsync", [&] {
    std::shared_ptr<ascsim::Stream> s = ascsim::acl::ToStream(stream);
    auto task = [=] {
      if (aclrtMemset(devPtr, maxCount, value, count) != ACL_SUCCESS) {
        throw ascsim::InvalidArgument(aclGetRecentErrMsg());
      }
    };
    if (s == nullptr)
      task();
    else
      s->Enqueue(task);
  });
}

// CANN's aclGetRecentErrMsg obtains *and clears* the calling thread's message (docs
// "aclGetRecentErrMsg": 获取并清空与本接口在同一个线程中的其它AscendCL接口调用失败时的错误描述信息;
// thread level unless aclInit's err_msg_mode says process). Here the message stays until the
// next failure replaces it (a departure: reading it twice gives the same text).
const char* aclGetRecentErrMsg() { return ascsim::acl::RecentError().c_str(); }
