// Shared helpers for the kernel-API tests: one simulated core with a UB scratch area, device
// memory that SingleCore can see, bit-exact comparison of 16-bit floats and a deterministic RNG.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "ascsim/aicore/core_context.h"
#include "ascsim/runtime.h"
#include "kernel_operator.h"
#include "runtime/device_memory_internal.h"

namespace ascsim_test {

// The raw bits of an element, so half/float results compare exactly (NaN payloads included).
template <class T>
uint64_t Bits(T v) {
  uint64_t b = 0;
  std::memcpy(&b, &v, sizeof(T));
  return b;
}

// Writes `v` into the first v.size() elements of `t`, element by element.
template <class T>
void Fill(const AscendC::LocalTensor<T>& t, const std::vector<T>& v) {
  for (uint32_t i = 0; i < v.size(); ++i) t.SetValue(i, v[i]);
}

// One core (block 0 of 1, kernel "test") whose launch resolves GM against the device registry,
// with a TPipe and one VECCALC TBuf covering `ub_bytes` of UB. Tensors handed out by Take() are
// carved from that TBuf in 32 B aligned pieces.
class CoreFixture {
 public:
  explicit CoreFixture(uint32_t ub_bytes = 128 * 1024, const char* soc = "Ascend910B1",
                       bool strict = false)
      : core_(ascsim::FindSocProfile(soc), 1, strict) {
    core_.launch().find_gm = ascsim::runtime::FindDeviceMemory;
    pipe_ = std::make_unique<AscendC::TPipe>();
    pipe_->InitBuffer(buf_, ub_bytes);
    ub_bytes_ = ub_bytes;
  }
  // `count` elements of T at the next 32 B aligned offset of the scratch TBuf.
  template <class T>
  AscendC::LocalTensor<T> Take(uint32_t count) {
    const uint32_t bytes = (count * sizeof(T) + 31) / 32 * 32;
    AscendC::LocalTensor<T> t = buf_.GetWithOffset<T>(count, offset_);
    offset_ += bytes;
    return t;
  }
  ascsim::aicore::SingleCore& core() { return core_; }
  AscendC::TPipe& pipe() { return *pipe_; }

 private:
  ascsim::aicore::SingleCore core_;
  std::unique_ptr<AscendC::TPipe> pipe_;
  AscendC::TBuf<AscendC::TPosition::VECCALC> buf_;
  uint32_t ub_bytes_ = 0;
  uint32_t offset_ = 0;
};

// Captures warning lines for the lifetime of the object.
class WarningCapture {
 public:
  WarningCapture()
      : previous_(ascsim::SetWarningSink([this](const std::string& l) {
          std::lock_guard<std::mutex> lock(mu_);  // blocks warn from their worker threads
          lines.push_back(l);
        })) {}
  ~WarningCapture() { ascsim::SetWarningSink(previous_); }
  // Every line so far, each ending in a newline.
  std::string All() {
    std::lock_guard<std::mutex> lock(mu_);
    std::string all;
    for (const std::string& line : lines) all += line + "\n";
    return all;
  }
  std::vector<std::string> lines;  // read it once the launches are over

 private:
  std::mutex mu_;
  ascsim::WarningSink previous_;
};

// Runs `body` as a launch of `blocks` blocks; the launch's fault message, "" when it succeeds.
inline std::string FaultOf(const char* kernel, uint32_t blocks, ascsim::KernelBody body) {
  try {
    ascsim::Launch(kernel, blocks, std::move(body));
  } catch (const ascsim::KernelError& e) {
    return e.what();
  }
  return "";
}
inline std::string FaultOf(const char* kernel, ascsim::KernelBody body) {
  return FaultOf(kernel, 1, std::move(body));
}

// What a launch under the sanitizer ended with: its fault message ("" when none), the fault's
// kind and the warnings it gave.
struct SanitizedRun {
  std::string message;
  ascsim::ErrorKind kind = ascsim::ErrorKind::kKernel;  // when message is not empty
  std::vector<std::string> warnings;
};

// Launches `body` on `blocks` blocks with the sanitizer checks `flags` (and strict / serial mode
// if asked; `kernel_id` gives the launch the identity a kernel function's launch has); every
// setting is restored afterwards.
inline SanitizedRun LaunchSanitized(const char* kernel, uint32_t blocks, uint32_t flags,
                                    std::function<void()> body, bool strict = false,
                                    bool serial = false, const void* kernel_id = nullptr) {
  ascsim::ScopedSettings saved;
  ascsim::SetSanitize(flags);
  ascsim::SetStrict(strict);
  ascsim::SetSerial(serial);
  SanitizedRun out;
  {
    WarningCapture warnings;
    try {
      ascsim::Launch(kernel, blocks, std::move(body), nullptr, 0, kernel_id);
    } catch (const ascsim::KernelError& e) {
      out.message = e.what();
      out.kind = e.fault_kind();
    }
    out.warnings = warnings.lines;
  }
  return out;
}

// The launch warnings of `fx`'s core so far, one per line.
inline std::string Warnings(CoreFixture& fx) {
  std::string all;
  for (const std::string& line : fx.core().launch().warnings.Lines()) all += line + "\n";
  return all;
}

// Device memory owned by a test.
class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t bytes) : ptr_(ascsim::DeviceMalloc(bytes)), bytes_(bytes) {}
  ~DeviceBuffer() { ascsim::DeviceFree(ptr_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  template <class T>
  T* as() const {
    return static_cast<T*>(ptr_);
  }
  uint8_t* gm() const { return static_cast<uint8_t*>(ptr_); }
  size_t bytes() const { return bytes_; }

 private:
  void* ptr_;
  size_t bytes_;
};

// Uniform values in [lo, hi), as T (16-bit floats are rounded from float).
template <class T>
std::vector<T> RandomVector(size_t n, float lo, float hi, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<T> v(n);
  if constexpr (std::is_integral_v<T>) {
    std::uniform_int_distribution<int64_t> dist(static_cast<int64_t>(lo), static_cast<int64_t>(hi));
    for (auto& x : v) x = static_cast<T>(dist(rng));
  } else {
    std::uniform_real_distribution<float> dist(lo, hi);
    for (auto& x : v) x = T(dist(rng));
  }
  return v;
}

// Runs `fn` and returns the ascsim::Error it throws; fails the test when it throws nothing.
template <class F>
std::string ErrorOf(F&& fn, ascsim::ErrorKind* kind = nullptr) {
  try {
    fn();
  } catch (const ascsim::KernelError& e) {
    if (kind) *kind = e.fault_kind();
    return e.what();
  } catch (const ascsim::Error& e) {
    if (kind) *kind = e.kind();
    return e.what();
  }
  ADD_FAILURE() << "expected an ascsim::Error";
  return "";
}

// Seconds since `start` on the steady clock (how long a timed-out or cancelled launch took).
inline double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Sets the launch timeout for one test; every setting is restored at the end of the scope.
class TimeoutScope : ascsim::ScopedSettings {
 public:
  explicit TimeoutScope(double seconds) { ascsim::SetLaunchTimeout(seconds); }
};

}  // namespace ascsim_test
