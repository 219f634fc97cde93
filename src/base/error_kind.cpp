#include "ascsim/error.h"

namespace ascsim {

const char* ErrorKindName(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kInvalidArgument:
      return "invalid argument";
    case ErrorKind::kOutOfBounds:
      return "out of bounds";
    case ErrorKind::kOutOfDeviceMemory:
      return "out of device memory";
    case ErrorKind::kUbOverflow:
      return "UB overflow";
    case ErrorKind::kQueueMisuse:
      return "queue misuse";
    case ErrorKind::kSyncMisuse:
      return "sync misuse";
    case ErrorKind::kStrictWarning:
      return "strict-mode warning";
    case ErrorKind::kTimeout:
      return "timeout";
    case ErrorKind::kRace:
      return "race";
    case ErrorKind::kUninitializedRead:
      return "uninitialized read";
    case ErrorKind::kKernel:
      return "kernel error";
  }
  return "error";
}

}  // namespace ascsim
