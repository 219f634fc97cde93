// Host-side helpers of the held-out kernel tests: device buffers from AscendC::GmAlloc, a
// deterministic RNG, half <-> double conversion through the kernel API's own `half`, and a
// tolerance check that names the first bad element.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "kernel_operator.h"
#include "tikicpulib.h"

namespace heldout {

// One GM buffer of `bytes`, zero-filled, freed at scope end.
class GmBuf {
 public:
  explicit GmBuf(size_t bytes) : bytes_(bytes), p_(static_cast<uint8_t*>(AscendC::GmAlloc(bytes))) {
    std::memset(p_, 0, bytes);
  }
  ~GmBuf() { AscendC::GmFree(p_); }
  GmBuf(const GmBuf&) = delete;
  GmBuf& operator=(const GmBuf&) = delete;
  uint8_t* get() const { return p_; }
  size_t bytes() const { return bytes_; }
  template <class T>
  T* as() const {
    return reinterpret_cast<T*>(p_);
  }

 private:
  size_t bytes_;
  uint8_t* p_;
};

template <class T>
double ToDouble(T v) {
  return static_cast<double>(static_cast<float>(v));
}
template <class T>
T FromDouble(double v) {
  return static_cast<T>(static_cast<float>(v));
}

// `n` values uniform in [lo, hi), rounded to T, fixed seed per call site.
template <class T>
std::vector<T> Random(size_t n, double lo, double hi, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<T> v(n);
  for (auto& x : v) x = FromDouble<T>(d(gen));
  return v;
}

template <class T>
void Upload(const GmBuf& buf, const std::vector<T>& v) {
  ASSERT_LE(v.size() * sizeof(T), buf.bytes());
  std::memcpy(buf.get(), v.data(), v.size() * sizeof(T));
}

template <class T>
std::vector<T> Download(const GmBuf& buf, size_t n) {
  std::vector<T> v(n);
  std::memcpy(v.data(), buf.get(), n * sizeof(T));
  return v;
}

// Every |got - want| <= atol + rtol * |want|; reports the first failure and the count.
template <class T>
::testing::AssertionResult Near(const std::vector<T>& got, const std::vector<double>& want,
                                double atol, double rtol) {
  if (got.size() != want.size()) {
    return ::testing::AssertionFailure() << "size " << got.size() << " != " << want.size();
  }
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const double g = ToDouble(got[i]);
    if (!(std::fabs(g - want[i]) <= atol + rtol * std::fabs(want[i]))) {
      if (bad++ == 0) first = i;
    }
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << bad << " of " << got.size() << " elements out of tolerance; first at " << first
         << ": got " << ToDouble(got[first]) << ", want " << want[first] << " (atol " << atol
         << ", rtol " << rtol << ")";
}

// Tolerances by dtype for a result computed in T from inputs exact in T: a few ulps of T
// relative, plus an absolute floor for results near 0 (cancellation in the kernel's formula).
// half: 2^-11 = 4.9e-4 per rounding, a handful of roundings; float: 2^-24 = 6e-8 likewise.
template <class T>
struct Tol;
template <>
struct Tol<half> {
  static constexpr double kAbs = 4e-3;
  static constexpr double kRel = 4e-3;
};
template <>
struct Tol<float> {
  static constexpr double kAbs = 1e-5;
  static constexpr double kRel = 1e-5;
};

}  // namespace heldout
