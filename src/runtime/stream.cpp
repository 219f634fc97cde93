// Stream: an in-order queue of tasks on its own thread. The first error since the last
// Synchronize is kept and rethrown there; later tasks still run (each launch stands alone).
// Every task runs with the SetKernelMode of the moment it was queued (aicore/kernel_mode.h): the
// other settings a launch uses are copied by Launch itself (runtime::Process::Snapshot).
#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

#include "aicore/kernel_mode.h"
#include "ascsim/aicore/kernel_type.h"
#include "ascsim/runtime.h"
#include "runtime/fork_safety.h"

namespace ascsim {

struct Stream::Impl {
  struct Task {
    std::function<void()> run;
    int kernel_mode;  // aicore::RequestedKernelMode() when it was queued
  };
  std::mutex mu;
  std::condition_variable work_cv, idle_cv;
  std::deque<Task> tasks;
  bool busy = false;
  bool stopping = false;
  std::exception_ptr error;
  std::thread worker;
  const int pid = runtime::CurrentPid();  // the process whose thread `worker` is

  // A stream made before fork() has no worker thread in the child: using it there would hang.
  void CheckSameProcess(const char* what) const {
    if (runtime::CurrentPid() != pid) {
      throw InvalidArgument(std::string("Stream::") + what +
                            ": the stream was created before fork() in process " +
                            std::to_string(pid) +
                            " and has no worker thread in this child process; create a new "
                            "stream after fork");
    }
  }

  void Loop() {
    std::unique_lock<std::mutex> lock(mu);
    for (;;) {
      work_cv.wait(lock, [&] { return stopping || !tasks.empty(); });
      if (tasks.empty()) return;  // stopping and drained
      Task task = std::move(tasks.front());
      tasks.pop_front();
      busy = true;
      lock.unlock();
      std::exception_ptr failure;
      try {
        aicore::IssuedKernelModeScope mode(task.kernel_mode);
        task.run();
      } catch (...) {
        failure = std::current_exception();
      }
      task.run = nullptr;  // drop captured state before reporting idle
      lock.lock();
      busy = false;
      if (failure && !error) error = failure;
      if (tasks.empty()) idle_cv.notify_all();
    }
  }
};

Stream::Stream() : impl_(std::make_unique<Impl>()) {
  impl_->worker = std::thread([this] { impl_->Loop(); });
}

Stream::~Stream() {
  if (runtime::CurrentPid() != impl_->pid) {
    // In a fork child: no thread to join, and the parent's worker may have left the mutex
    // locked. Leak the state instead of touching it.
    new std::thread(std::move(impl_->worker));
    impl_.release();
    return;
  }
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    impl_->stopping = true;
  }
  impl_->work_cv.notify_all();
  impl_->worker.join();
}

void Stream::Enqueue(std::function<void()> task) {
  impl_->CheckSameProcess("Enqueue");
  const int kernel_mode = aicore::RequestedKernelMode();
  {
    std::lock_guard<std::mutex> lock(impl_->mu);
    impl_->tasks.push_back({std::move(task), kernel_mode});
  }
  impl_->work_cv.notify_one();
}

std::exception_ptr Stream::Wait() {
  impl_->CheckSameProcess("Wait");
  std::unique_lock<std::mutex> lock(impl_->mu);
  impl_->idle_cv.wait(lock, [&] { return impl_->tasks.empty() && !impl_->busy; });
  std::exception_ptr error = impl_->error;
  impl_->error = nullptr;
  return error;
}

void Stream::Synchronize() {
  if (std::exception_ptr error = Wait()) std::rethrow_exception(error);
}

bool Stream::Idle() const {
  impl_->CheckSameProcess("Idle");
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->tasks.empty() && !impl_->busy;
}

}  // namespace ascsim
