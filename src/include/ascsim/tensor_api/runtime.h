// The out-of-line half of the tensor API (src/tensor_api): the copies and Mmad of
// AscendC::Te run on a layout flattened to a View, with every check. The templates in
// ascsim/tensor_api/tensor_api.h build the Views; nothing here is kernel-facing.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/simd/vector_math.h"
#include "ascsim/tensor_api/local_array.h"

namespace ascsim::tensor_api {

const char* LocName(Loc loc);

// The layout patterns the copies and Mmad accept (asc-devkit impl/tensor_api/tensor/
// layout_pattern.h); kOther for any other.
enum class Ptn : uint8_t { kOther, kND, kDN, kNDExt, kDNExt, kNZ, kZN, kZZ };
const char* PtnName(Ptn ptn);

// A tensor of rank 2 whose row and column modes have two levels each (a flat ND/DN layout is
// ((1, rows), (1, cols)) here): element (r, c) is at
//   (r % rs[0]) * rd[0] + (r / rs[0]) * rd[1] + (c % cs[0]) * cd[0] + (c / cs[0]) * cd[1]
// elements from `data`, which is what Crd2Idx gives for a flat coordinate on such a layout.
struct View {
  uint8_t* data = nullptr;
  Loc loc = Loc::kGm;
  Ptn ptn = Ptn::kOther;
  simd::DType dtype = simd::DType::kU8;
  uint32_t elem = 1;  // bytes per element
  uint32_t c0 = 1;    // the layout trait's C0_ELEMENT (1 for ND / DN)
  uint64_t rs[2] = {1, 1}, cs[2] = {1, 1};
  int64_t rd[2] = {0, 0}, cd[2] = {0, 0};
  uint64_t Rows() const { return rs[0] * rs[1]; }
  uint64_t Cols() const { return cs[0] * cs[1]; }
  int64_t Index(uint64_t r, uint64_t c) const {
    return static_cast<int64_t>(r % rs[0]) * rd[0] + static_cast<int64_t>(r / rs[0]) * rd[1] +
           static_cast<int64_t>(c % cs[0]) * cd[0] + static_cast<int64_t>(c / cs[0]) * cd[1];
  }
};

struct MmadArgs {
  uint32_t m = 0, n = 0, k = 0;
  uint8_t unit_flag = 0;
  bool cmatrix_init_val = false;
  bool cmatrix_source = false;
  bool disable_gemv = true;
};

void CopyGm2L1(const View& dst, const View& src);
void CopyL12L0A(const View& dst, const View& src);
void CopyL12L0B(const View& dst, const View& src);
void CopyL0C2Gm(const View& dst, const View& src, bool relu);
void Mmad(const View& c, const View& a, const View& b, const MmadArgs& args);

// The first byte of `loc` on the current core (MakeMemPtr<Location, T>(addr) adds addr); faults
// when this core has no such memory.
uint8_t* LocalBase(Loc loc, uint64_t addr, uint64_t bytes, const char* call);

// Tensor::Slice / operator() with a coordinate outside the tensor.
[[noreturn]] void FaultSlice(uint64_t row, uint64_t col, uint64_t rows, uint64_t cols);

}  // namespace ascsim::tensor_api
