// The one error hierarchy of ascsim. Every check throws one of these; none aborts the process.
#pragma once

#include <stdexcept>
#include <string>

namespace ascsim {

// What went wrong, so that bindings can map an error to the matching Python exception.
enum class ErrorKind {
  kInvalidArgument,    // a bad argument from host code or from a kernel
  kOutOfBounds,        // an access outside a tensor, an allocation or device memory
  kOutOfDeviceMemory,  // device memory exhausted
  kUbOverflow,         // Unified Buffer capacity or buffer-count limit exceeded
  kQueueMisuse,        // TQue protocol broken (would hang or corrupt on the device)
  kSyncMisuse,         // SetFlag/WaitFlag/SyncAll misuse
  kStrictWarning,      // a device trap reported as an error because strict mode is on
  kTimeout,            // a launch ran past the configured AI-core timeout
  kRace,               // sanitizer: two pipes or two cores touch the same bytes with no sync
  kUninitializedRead,  // sanitizer: a read of UB bytes nothing wrote since they were handed out
  kKernel,             // a launch failed; wraps the fault of the first failing block
};

const char* ErrorKindName(ErrorKind kind);

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};

#define ASCSIM_DEFINE_ERROR(Name, Kind) \
  class Name : public Error {           \
   public:                              \
    explicit Name(const std::string& message) : Error(ErrorKind::Kind, message) {} \
  }

ASCSIM_DEFINE_ERROR(InvalidArgument, kInvalidArgument);
ASCSIM_DEFINE_ERROR(OutOfBounds, kOutOfBounds);
ASCSIM_DEFINE_ERROR(OutOfDeviceMemory, kOutOfDeviceMemory);
ASCSIM_DEFINE_ERROR(UbOverflow, kUbOverflow);
ASCSIM_DEFINE_ERROR(QueueMisuse, kQueueMisuse);
ASCSIM_DEFINE_ERROR(SyncMisuse, kSyncMisuse);
ASCSIM_DEFINE_ERROR(StrictWarning, kStrictWarning);
ASCSIM_DEFINE_ERROR(Timeout, kTimeout);
ASCSIM_DEFINE_ERROR(Race, kRace);
ASCSIM_DEFINE_ERROR(UninitializedRead, kUninitializedRead);

#undef ASCSIM_DEFINE_ERROR

// A launch that failed. `fault_kind` is the kind of the fault inside the kernel; the message is
// the fault's one line: "<kernel>: block <i>/<n>: <call> <numbers>".
class KernelError : public Error {
 public:
  KernelError(ErrorKind fault_kind, const std::string& message)
      : Error(ErrorKind::kKernel, message), fault_kind_(fault_kind) {}
  ErrorKind fault_kind() const { return fault_kind_; }

 private:
  ErrorKind fault_kind_;
};

}  // namespace ascsim
