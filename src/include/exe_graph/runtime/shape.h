// gert::Shape (CANN metadef inc/external/exe_graph/runtime/shape.h): up to 25 dims inline, a POD.
// A shape without dims is a scalar (GetShapeSize() == 1).
#ifndef ASCSIM_EXE_GRAPH_RUNTIME_SHAPE_H_
#define ASCSIM_EXE_GRAPH_RUNTIME_SHAPE_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <type_traits>

namespace gert {

struct Shape {
 public:
  static constexpr size_t kMaxDimNum = 25;
  static constexpr int64_t kInvalidDimValue = std::numeric_limits<int64_t>::min();

 public:
  Shape() : dim_num_(0), dims_{0} { std::memset(reserved_, 0, sizeof(reserved_)); }
  Shape(const std::initializer_list<int64_t>& args) : Shape() {
    if (args.size() > kMaxDimNum) return;
    dim_num_ = args.size();
    size_t i = 0;
    for (const int64_t arg : args) dims_[i++] = arg;
  }
  Shape(const Shape& other) : Shape() { *this = other; }
  Shape& operator=(const Shape& other) {
    if (&other != this) {
      dim_num_ = other.dim_num_;
      std::memcpy(dims_, other.dims_, dim_num_ * sizeof(int64_t));
    }
    return *this;
  }
  bool operator==(const Shape& rht) const {
    if (dim_num_ != rht.dim_num_) return false;
    for (size_t i = 0; i < dim_num_; ++i) {
      if (dims_[i] != rht.dims_[i]) return false;
    }
    return true;
  }
  bool operator!=(const Shape& rht) const { return !(*this == rht); }

  // The product of the dims (1 for a scalar); kInvalidDimValue when it overflows int64_t.
  int64_t GetShapeSize() const {
    int64_t size = 1;
    for (size_t i = 0; i < dim_num_; ++i) {
      if (__builtin_mul_overflow(size, dims_[i], &size)) return kInvalidDimValue;
    }
    return size;
  }
  bool IsScalar() const { return dim_num_ == 0; }
  void SetScalar() { dim_num_ = 0; }
  size_t GetDimNum() const { return dim_num_; }
  void SetDimNum(const size_t dim_num) { dim_num_ = dim_num; }
  int64_t GetDim(const size_t idx) const {
    if (idx >= kMaxDimNum) return kInvalidDimValue;
    return dims_[idx];
  }
  const int64_t& operator[](const size_t idx) const { return dims_[idx]; }
  int64_t& operator[](const size_t idx) { return dims_[idx]; }
  void SetDim(size_t idx, const int64_t dim_value) {
    if (idx >= kMaxDimNum) return;
    dims_[idx] = dim_value;
  }
  Shape& AppendDim(const int64_t value) {
    if (dim_num_ >= kMaxDimNum) return *this;
    dims_[dim_num_++] = value;
    return *this;
  }

 private:
  size_t dim_num_;
  int64_t dims_[kMaxDimNum];
  uint8_t reserved_[40];
};
static_assert(std::is_standard_layout<Shape>::value, "The class Shape must be a POD");

}  // namespace gert

#endif  // ASCSIM_EXE_GRAPH_RUNTIME_SHAPE_H_
