// ge::Shape, the shape type of the host-side tiling functions (CANN's graph/tensor.h), as far as
// tiling code uses it: dims, their number, one dim, the element count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace ge {

class Shape {
 public:
  Shape() = default;
  explicit Shape(const std::vector<int64_t>& dims) : dims_(dims) {}
  Shape(std::initializer_list<int64_t> dims) : dims_(dims) {}
  std::vector<int64_t> GetDims() const { return dims_; }
  size_t GetDimNum() const { return dims_.size(); }
  int64_t GetDim(size_t idx) const { return idx < dims_.size() ? dims_[idx] : 0; }
  // The product of the dims (0 for a shape without dims, as CANN).
  int64_t GetShapeSize() const {
    if (dims_.empty()) return 0;
    int64_t n = 1;
    for (int64_t d : dims_) n *= d;
    return n;
  }

 private:
  std::vector<int64_t> dims_;
};

}  // namespace ge
