// gert::ExpandDimsType (CANN metadef inc/external/exe_graph/runtime/expand_dims_type.h): where a
// shape of fewer dims gets dims of 1 ("1100": a 2-D shape [a, b] becomes [1, 1, a, b]).
#ifndef ASCSIM_EXE_GRAPH_RUNTIME_EXPAND_DIMS_TYPE_H_
#define ASCSIM_EXE_GRAPH_RUNTIME_EXPAND_DIMS_TYPE_H_

#include <cstdint>
#include <cstring>

#include "exe_graph/runtime/shape.h"
#include "graph/error_codes.h"
#include "graph/types.h"

namespace gert {

class ExpandDimsType {
 public:
  using AxisIndex = uint64_t;
  static constexpr size_t kMaxExpandSize = 56;

  ExpandDimsType() : size_(0U), mask_(0U) { std::memset(reserved_, 0, sizeof(reserved_)); }
  // A rule written with '0' (keep a dim) and '1' (insert a 1); longer than 56 is ignored.
  explicit ExpandDimsType(const ge::char_t* const expand_dims_type) : ExpandDimsType() {
    if (expand_dims_type == nullptr) return;
    const size_t size = std::strlen(expand_dims_type);
    if (size > kMaxExpandSize) return;
    size_ = size;
    for (AxisIndex i = 0; i < size; ++i) {
      if (expand_dims_type[i] == '1') SetExpandIndex(i);
    }
  }
  // High 8 bits: the rule's length; low 56 bits: the rule, lowest bit first.
  explicit ExpandDimsType(const int64_t reshape_type_mask) : ExpandDimsType() {
    if (reshape_type_mask == 0) return;
    const uint64_t size = static_cast<uint64_t>(reshape_type_mask) >> kMaxExpandSize;
    if (size > kMaxExpandSize) return;
    size_ = size;
    mask_ = static_cast<uint64_t>(reshape_type_mask) & ((1ULL << kMaxExpandSize) - 1);
  }
  bool operator==(const ExpandDimsType& other) const {
    return size_ == other.size_ && mask_ == other.mask_;
  }
  AxisIndex GetFullSize() const { return size_; }
  void SetExpandIndex(const AxisIndex index) { mask_ |= (1ULL << index); }
  bool IsExpandIndex(const AxisIndex index) const { return ((1ULL << index) & mask_) != 0; }

  ge::graphStatus Expand(const Shape& shape, Shape& out_shape) const {
    if (shape.GetDimNum() == size_) {
      out_shape = shape;
      return ge::GRAPH_SUCCESS;
    }
    size_t shape_pos = 0;
    out_shape.SetDimNum(0);
    for (size_t pos = 0; pos < size_; ++pos) {
      if (IsExpandIndex(pos)) {
        out_shape.AppendDim(1);
      } else {
        if (shape_pos >= shape.GetDimNum()) return ge::GRAPH_FAILED;
        out_shape.AppendDim(shape.GetDim(shape_pos++));
      }
    }
    for (; shape_pos < shape.GetDimNum(); ++shape_pos) out_shape.AppendDim(shape.GetDim(shape_pos));
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus Expand(Shape& shape) const {
    const Shape in = shape;
    return Expand(in, shape);
  }

 private:
  uint64_t size_ : 8;
  uint64_t mask_ : kMaxExpandSize;
  uint8_t reserved_[40];
};

}  // namespace gert

#endif  // ASCSIM_EXE_GRAPH_RUNTIME_EXPAND_DIMS_TYPE_H_
