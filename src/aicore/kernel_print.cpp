#include "ascsim/aicore/kernel_print.h"

#include "ascsim/aicore/dump_tensor.h"
#include "ascsim/aicore/kernel_assert.h"
#include "ascsim/aicore/kernel_log.h"
#include "ascsim/aicore/kernel_type.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <mutex>

#include <unistd.h>

namespace ascsim::aicore {
namespace {

std::mutex& PrintMutex() {
  static std::mutex mu;
  return mu;
}

// The unfinished line of the block running on this thread (a thread runs one block at a time).
struct PendingLine {
  const CoreContext* core = nullptr;
  std::string text;
};
thread_local PendingLine g_pending;

void WriteLines(uint32_t block, const std::string& lines) {
  std::string out;
  size_t start = 0;
  while (start < lines.size()) {
    size_t end = lines.find('\n', start);
    if (end == std::string::npos) end = lines.size();
    out += Str("[block ", block, "] ");
    out.append(lines, start, end - start);
    out += '\n';
    start = end + 1;
  }
  std::lock_guard<std::mutex> lock(PrintMutex());
  std::fwrite(out.data(), 1, out.size(), stdout);
  std::fflush(stdout);
}

}  // namespace

void KernelPrint(std::string_view text) {
  CoreContext& core = CurrentCore();
  if (g_pending.core != &core) {
    g_pending.core = &core;
    g_pending.text.clear();
  }
  g_pending.text += text;
  const size_t last_newline = g_pending.text.rfind('\n');
  if (last_newline == std::string::npos) return;
  WriteLines(core.block_idx, g_pending.text.substr(0, last_newline + 1));
  g_pending.text.erase(0, last_newline + 1);
}

void FlushKernelPrint(CoreContext& core) {
  if (g_pending.core != &core) return;
  if (!g_pending.text.empty()) WriteLines(core.block_idx, g_pending.text);
  g_pending.text.clear();
  g_pending.core = nullptr;
}

const char* DumpTypeName(const char* type_name) {
  if (std::strcmp(type_name, "half") == 0) return "float16";
  if (std::strcmp(type_name, "float") == 0) return "float32";
  if (std::strcmp(type_name, "bfloat16_t") == 0) return "bfloat16";
  return type_name;
}

}  // namespace ascsim::aicore

namespace ascsim::aicore {

void HostAssertFailed(const char* expr, const char* file, unsigned line, const char* function) {
  std::fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, function, expr);
  std::abort();
}

void KernelAssertFailed(const char* expr, const char* file, unsigned line, const char* function,
                        const char* message) {
  const std::string text = Str("[ASSERT] ", file, ":", line, ": ", function, ": Assertion `", expr,
                               "' failed. ", message);
  KernelPrint(text.empty() || text.back() != '\n' ? text + "\n" : text);
  std::string one_line = text;
  while (!one_line.empty() && (one_line.back() == '\n' || one_line.back() == ' ')) {
    one_line.pop_back();
  }
  Fault(ErrorKind::kInvalidArgument, one_line);
}

namespace {
// KERNEL_LOG's level names as CANN's KERNEL_LOG_<level> macros print them.
const char* LogLevelText(const char* level_name) {
  if (std::strcmp(level_name, "KERNEL_DEBUG") == 0) return "DEBUG";
  if (std::strcmp(level_name, "KERNEL_INFO") == 0) return "INFO";
  if (std::strcmp(level_name, "KERNEL_WARN") == 0) return "WARN";
  if (std::strcmp(level_name, "KERNEL_ERROR") == 0) return "ERROR";
  return level_name;
}
}  // namespace

void KernelLogLine(const char* level_name, const char* file, unsigned line, const char* function,
                   const std::string& message) {
  const CoreContext* core = TryCurrentCore();
  const unsigned pid = static_cast<unsigned>(getpid());
  if (core == nullptr) {
    std::lock_guard<std::mutex> lock(PrintMutex());
    std::printf("[%s][%s:%u][%s][%u] %s\n", LogLevelText(level_name), file, line, function, pid,
                message.c_str());
    std::fflush(stdout);
    return;
  }
  // g_coreType as the kernel sees it: AIC, AIV, or MIX for a core that runs both.
  const char* type = g_coreType == AscendC::AIC   ? "AIC_"
                     : g_coreType == AscendC::AIV ? "AIV_"
                                                  : "MIX_";
  KernelPrint(Str("[", LogLevelText(level_name), "][Block_", core->block_idx, "][", type,
                  core->sub_block_idx, "][", file, ":", line, "][", function, "][", pid, "] ",
                  message, "\n"));
}

void AscendcAssertFailed(const char* cond, const char* file, unsigned line, const char* function) {
  if (TryCurrentCore() == nullptr) {
    std::fprintf(stderr, "%s:%u: %s: ASCENDC_ASSERT(%s) failed.\n", file, line, function, cond);
    std::abort();
  }
  Fault(ErrorKind::kInvalidArgument,
        Str("ASCENDC_ASSERT(", cond, ") failed at ", file, ":", line, " in ", function));
}

}  // namespace ascsim::aicore
