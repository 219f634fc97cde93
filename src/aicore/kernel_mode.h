// The kernel mode of the launch being run on this thread. SetKernelMode applies to the launches
// issued after it (ascsim/aicore/kernel_type.h), so a launch queued on a stream runs with the mode
// of the moment it was issued: the stream takes RequestedKernelMode() when the work is queued and
// runs it inside an IssuedKernelModeScope, under which RequestedKernelMode() answers that value.
#pragma once

namespace ascsim::aicore {

class IssuedKernelModeScope {
 public:
  explicit IssuedKernelModeScope(int mode);
  ~IssuedKernelModeScope();
  IssuedKernelModeScope(const IssuedKernelModeScope&) = delete;
  IssuedKernelModeScope& operator=(const IssuedKernelModeScope&) = delete;

 private:
  int saved_;
};

}  // namespace ascsim::aicore
