#include "interrupt.h"

#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <mutex>
#include <thread>

namespace ascsim_py {
namespace {

// Sections run one at a time: only the main thread opens them, and the GIL is held when it does.
std::atomic<uint64_t> g_generation{0};       // the open section's number, 0 when none
std::atomic<uint64_t> g_next_generation{0};  // the last number handed out
std::atomic<uint64_t> g_interrupted_gen{0};  // the section SIGINT arrived in
struct sigaction g_previous;                 // Python's SIGINT action, forwarded to

std::mutex g_mu;                         // guards g_token against the watcher
ascsim::CancelToken* g_token = nullptr;  // the open section's token
uint64_t g_token_generation = 0;

int g_pipe[2] = {-1, -1};
bool g_watcher_started = false;
uint64_t g_watcher_generation = 0;

std::atomic<uint64_t> g_fork_generation{0};
void CountFork() { g_fork_generation.fetch_add(1, std::memory_order_relaxed); }

void OnSigint(int sig, siginfo_t* info, void* context) {
  const int saved_errno = errno;
  const uint64_t gen = g_generation.load(std::memory_order_relaxed);
  g_interrupted_gen.store(gen, std::memory_order_relaxed);
  if (g_pipe[1] >= 0) {
    ssize_t ignored = write(g_pipe[1], &gen, sizeof gen);  // async-signal-safe
    (void)ignored;
  }
  if (g_previous.sa_flags & SA_SIGINFO) {
    if (g_previous.sa_sigaction != nullptr) g_previous.sa_sigaction(sig, info, context);
  } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN &&
             g_previous.sa_handler != nullptr) {
    g_previous.sa_handler(sig);
  }
  errno = saved_errno;
}

void WatcherLoop(int fd) {
  uint64_t gen = 0;
  for (;;) {
    const ssize_t n = read(fd, &gen, sizeof gen);
    if (n < 0 && errno == EINTR) continue;
    if (n != static_cast<ssize_t>(sizeof gen)) return;
    std::lock_guard<std::mutex> lock(g_mu);
    if (g_token != nullptr && g_token_generation == gen) {
      g_token->Cancel("interrupted (KeyboardInterrupt)");
    }
  }
}

// The pipe and its watcher, made once per process (again in a fork child, where the parent's
// watcher thread does not exist). Leaked on purpose: the idle watcher ends with the process.
bool EnsureWatcher() {
  const uint64_t generation = ForkGeneration();
  if (g_watcher_started && g_watcher_generation == generation) return true;
  int fds[2];
  if (pipe(fds) != 0) return false;
  g_pipe[0] = fds[0];
  g_pipe[1] = fds[1];
  std::thread(WatcherLoop, fds[0]).detach();
  g_watcher_started = true;
  g_watcher_generation = generation;
  return true;
}

}  // namespace

uint64_t ForkGeneration() {
  // Registered before the first value is handed out, so every cached value predates any fork
  // that could invalidate it.
  static const bool registered = pthread_atfork(nullptr, nullptr, CountFork) == 0;
  (void)registered;
  return g_fork_generation.load(std::memory_order_relaxed);
}

InterruptibleSection::InterruptibleSection(ascsim::CancelToken& token) {
  // Our handler stays installed between sections (one query per launch instead of install and
  // restore: each sigaction is a system call, ~0.4 us here). Outside a section it only forwards
  // (g_generation 0 matches no token). Whoever installs another SIGINT action afterwards
  // (signal.signal, Python's exit path) replaces it, and the next section finds that out here.
  struct sigaction current;
  if (sigaction(SIGINT, nullptr, &current) != 0) return;
  const bool ours = (current.sa_flags & SA_SIGINFO) && current.sa_sigaction == OnSigint;
  if (!ours) {
    const bool python_handles_it = (current.sa_flags & SA_SIGINFO) ||
                                   (current.sa_handler != SIG_DFL && current.sa_handler != SIG_IGN);
    if (!python_handles_it) return;
  }
  if (!EnsureWatcher()) return;
  generation_ = g_next_generation.fetch_add(1) + 1;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    g_token = &token;
    g_token_generation = generation_;
  }
  g_generation.store(generation_);
  if (!ours) {
    g_previous = current;
    // The previous action's flags and mask (Python's handler has no SA_RESTART: a blocking
    // read must fail with EINTR so that Ctrl-C reaches Python while no section is open).
    struct sigaction mine = current;
    mine.sa_sigaction = OnSigint;
    mine.sa_flags = (current.sa_flags | SA_SIGINFO) & ~SA_RESETHAND;
    sigaction(SIGINT, &mine, nullptr);
  }
}

InterruptibleSection::~InterruptibleSection() {
  if (generation_ == 0) return;
  g_generation.store(0);
  std::lock_guard<std::mutex> lock(g_mu);
  g_token = nullptr;
}

bool InterruptibleSection::interrupted() const {
  return generation_ != 0 && g_interrupted_gen.load() == generation_;
}

}  // namespace ascsim_py
