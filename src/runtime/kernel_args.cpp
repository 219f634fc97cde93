// Out-of-line parts of ascsim/kernel_launcher.h: argument conversion errors and the CPU-mode
// snapshots of host-memory arguments.
#include <sys/uio.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <string>

#include "ascsim/error.h"
#include "ascsim/kernel_launcher.h"
#include "runtime/process.h"

namespace ascsim {

void ThrowNullStructArgument(const char* kernel, size_t index) {
  throw InvalidArgument(std::string(kernel != nullptr ? kernel : "kernel") + ": argument " +
                        std::to_string(index) +
                        " is a struct taken by value and was given as a null pointer (a struct "
                        "parameter may be passed by pointer, as to aclrtlaunch_<kernel>, and is "
                        "copied from there)");
}

namespace {

// Bytes readable from `p` up to the end of its mapping (/proc/self/maps), 0 if `p` is not in a
// readable mapping. Called only for host-memory arguments of ICPU_RUN_KF, once per launch.
size_t ReadableBytes(const void* p) {
  const auto at = reinterpret_cast<uintptr_t>(p);
  std::FILE* maps = std::fopen("/proc/self/maps", "r");
  if (maps == nullptr) return 0;
  size_t readable = 0;
  char line[512];
  while (std::fgets(line, sizeof(line), maps) != nullptr) {
    uintptr_t begin = 0, end = 0;
    char perms[5] = {};
    if (std::sscanf(line, "%" SCNxPTR "-%" SCNxPTR " %4s", &begin, &end, perms) != 3) continue;
    if (at >= begin && at < end) {
      if (perms[0] == 'r') readable = end - at;
      break;
    }
  }
  std::fclose(maps);
  return readable;
}

// Copies `bytes` readable bytes from `from`. The argument's own object is usually smaller than the
// snapshot (a host array on the stack), so the copy reads on past it into the rest of the mapping,
// bytes the kernel never uses: through the kernel (process_vm_readv of this process) rather than
// memcpy, so that AddressSanitizer does not report the read past the object and an unmapped page
// ends the copy instead of faulting. Returns the bytes copied.
size_t CopyReadable(void* to, const void* from, size_t bytes) {
  iovec local{to, bytes};
  iovec remote{const_cast<void*>(from), bytes};
  const ssize_t n = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
  if (n >= 0) return static_cast<size_t>(n);
  // process_vm_readv refused (e.g. by a seccomp policy): the caller's own object, at least, is
  // whole within the mapping ReadableBytes found.
  std::memcpy(to, from, bytes);
  return bytes;
}

}  // namespace

void* SnapshotHostArgument(const char* kernel, size_t index, const void* p) {
  const std::string name = kernel != nullptr ? kernel : "kernel";
  char where[32];
  std::snprintf(where, sizeof(where), "%p", p);
  const size_t readable = ReadableBytes(p);
  if (readable == 0) {
    throw InvalidArgument("ICPU_RUN_KF(" + name + "): argument " + std::to_string(index) + " (" +
                          where +
                          ") is neither GmAlloc memory nor readable host memory; allocate kernel "
                          "buffers with AscendC::GmAlloc");
  }
  const size_t bytes = readable < kHostSnapshotBytes ? readable : kHostSnapshotBytes;
  void* copy = DeviceMalloc(bytes);
  const size_t copied = CopyReadable(copy, p, bytes);
  if (copied < bytes) std::memset(static_cast<char*>(copy) + copied, 0, bytes - copied);
  runtime::Process& process = runtime::Process::Get();
  if (process.FirstTime("host-arg:" + name + ":" + std::to_string(index))) {
    const runtime::LaunchSettings settings = process.Snapshot();
    if (*settings.warning_sink)
      (*settings.warning_sink)(
          "ICPU_RUN_KF(" + name + "): argument " + std::to_string(index) + " (" + where +
          ") is host memory, not GmAlloc'd; as in CANN's CPU mode (each block a process of its "
          "own) the kernel reads the host's bytes at the launch (here the first " +
          std::to_string(bytes) + " B) and its writes there do not reach the host");
  }
  return copy;
}

void FreeHostSnapshots(const std::vector<void*>& snapshots) noexcept {
  for (void* p : snapshots) {
    try {
      DeviceFree(p);
    } catch (...) {
      // DeviceMalloc returned it; freeing cannot fail short of a corrupted registry.
    }
  }
}

}  // namespace ascsim
