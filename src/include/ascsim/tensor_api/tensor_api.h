// AscendC::Te, the tensor API of asc-devkit (include/tensor_api/*.h, impl/tensor_api/**): the
// subset the cube examples use. Names, template shapes and semantics follow asc-devkit at
// 82b89a1 (the files are named at each part); the code is ascsim's.
//
//   layouts   Shape / Stride / Coord / Tile (Std::tuple), Layout<Shape, Stride, Info> with
//             Crd2Idx, MakeShape / MakeStride / MakeCoord / MakeTile / MakeLayout, the frame
//             layouts of MakeFrameLayout<Pattern[, Trait | C0]>(rows, cols) for NDLayoutPtn,
//             DNLayoutPtn, NDExtLayoutPtn, DNExtLayoutPtn, NZLayoutPtn, ZNLayoutPtn, ZZLayoutPtn
//             (tensor/layout_pattern.h, layout_frame.h, layout_definition.h);
//   tensors   MakeMemPtr (from a pointer, a `__cbuf__`-style array, or Location + address),
//             MakeTensor(ptr, layout), Tensor::Slice(coord, shape), operator()(coord),
//             operator[](coord) (tensor/tensor_impl.h, layout_impl.h MakeSliceLayout);
//   atoms     MakeCopy(CopyGM2L1 / CopyL12L0A / CopyL12L0B / CopyL0C2GM {}, <Op>TraitDefault{}),
//             Copy(atom, dst, src); MakeMmad(MmadOperation{}, MmadTraitDefault{}),
//             atom.with(MmadParams{m, n, k, unitFlag, cmatrixInitVal}), Mmad(atom, c, a, b)
//             (algorithm/copy.h, mmad.h, atom/*, arch/cube/*/routing.h).
//
// Departures, each for a reason (docs/architecture.md, "The tensor API"): shape and stride
// entries are run-time integers (the device keeps Std::Int<16> and friends in the type; the
// values are the same); a tensor's Location comes from its pointer's tag as on the device, but
// g++ has no address-space qualifiers, so a plain `T*` is GM and `__cbuf__` / `__ca__` / `__cb__`
// / `__cc__` arrays are LocalArrays (ascsim-launch-transform rewrites their declarations);
// unsupported pattern or dtype combinations fail to compile with asc-devkit's messages.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/std_utils.h"
#include "ascsim/half.h"
#include "ascsim/tensor_api/runtime.h"

namespace AscendC {

template <typename T>
class GlobalTensor;
template <typename T>
class LocalTensor;
template <typename EngineType, typename LayoutType>
struct TensorAttribute {};

namespace Te {

// ---- constants and locations (utils/constant_impl.h) ----

namespace Location {
struct INVALID {};
struct GM {};
struct UB {};
struct L1 {};
struct L0A {};
struct L0B {};
struct L0ScaleA {};
struct L0ScaleB {};
struct L0C {};
struct BIAS {};
struct FIXBUF {};
struct SSBUF {};
}  // namespace Location

constexpr uint32_t FRACTAL_FIXED = 16;
template <typename T>
constexpr uint32_t C0_ELEMENT = 32 / sizeof(T);

enum class CacheMode : uint8_t {
  CACHE_MODE_NORMAL = 0,
  CACHE_MODE_DISABLE = 4,
  CACHE_MODE_LAST,
  CACHE_MODE_PERSISTENT
};

// ---- utils/utils.h ----

enum class MmadType : uint8_t { NORMAL = 0, MX = 1 };
struct MmadTrait {
  constexpr MmadTrait() {}
  constexpr MmadTrait(int32_t fmOffsetIn, bool kDirectionAlignIn, bool cmatrixSourceIn,
                      bool disableGemvIn, MmadType mmadTypeIn)
      : fmOffset(fmOffsetIn),
        kDirectionAlign(kDirectionAlignIn),
        cmatrixSource(cmatrixSourceIn),
        disableGemv(disableGemvIn),
        mmadType(mmadTypeIn) {}
  int32_t fmOffset = 0;
  bool kDirectionAlign = false;
  bool cmatrixSource = false;
  bool disableGemv = true;
  MmadType mmadType = MmadType::NORMAL;
};
struct MmadParams {
  constexpr MmadParams() {}
  constexpr MmadParams(uint16_t mIn, uint16_t nIn, uint16_t kIn, uint8_t unitFlagIn,
                       bool cmatrixInitValIn)
      : m(mIn), n(nIn), k(kIn), unitFlag(unitFlagIn), cmatrixInitVal(cmatrixInitValIn) {}
  uint16_t m = 0;
  uint16_t n = 0;
  uint16_t k = 0;
  uint8_t unitFlag = 0;
  bool cmatrixInitVal = false;
};
enum class RoundMode : uint8_t { DEFAULT = 0, HYBRID };
struct FixpipeParams {
  constexpr FixpipeParams() {}
  constexpr FixpipeParams(uint8_t unitFlagIn, bool subBlockIdIn = false)
      : unitFlag(unitFlagIn), subBlockId(subBlockIdIn) {}
  uint8_t unitFlag = 0;
  bool subBlockId = false;
};

// ---- shapes, strides, coordinates (tensor/layout_definition.h) ----

template <typename... Shapes>
using Shape = Std::tuple<Shapes...>;
template <typename... Strides>
using Stride = Std::tuple<Strides...>;
template <typename... Layouts>
using Tile = Std::tuple<Layouts...>;
template <typename... Coords>
using Coord = Std::tuple<Coords...>;

template <typename... Ts>
constexpr Shape<Ts...> MakeShape(const Ts&... t) {
  return Shape<Ts...>(t...);
}
template <typename... Ts>
constexpr Stride<Ts...> MakeStride(const Ts&... t) {
  return Stride<Ts...>(t...);
}
template <typename... Ts>
constexpr Tile<Ts...> MakeTile(const Ts&... t) {
  return Tile<Ts...>(t...);
}
template <typename... Ts>
constexpr Coord<Ts...> MakeCoord(const Ts&... t) {
  return Coord<Ts...>(t...);
}

namespace detail {
template <typename T>
struct IsTuple : std::false_type {};
template <typename... Ts>
struct IsTuple<std::tuple<Ts...>> : std::true_type {};
template <typename T>
constexpr bool kIsTuple = IsTuple<std::remove_cv_t<std::remove_reference_t<T>>>::value;

template <typename T>
constexpr int NestingDepth();
template <typename T, size_t... I>
constexpr int TupleDepth(std::index_sequence<I...>) {
  int d = 0;
  ((d = std::max(d, NestingDepth<std::tuple_element_t<I, T>>())), ...);
  return d + 1;
}
template <typename T>
constexpr int NestingDepth() {
  if constexpr (kIsTuple<T>) {
    return TupleDepth<T>(std::make_index_sequence<std::tuple_size_v<T>>{});
  } else {
    return 0;
  }
}

template <typename S>
constexpr uint64_t ModeSize(const S& s);
template <typename S, size_t... I>
constexpr uint64_t TupleSize(const S& s, std::index_sequence<I...>) {
  return (uint64_t{1} * ... * ModeSize(std::get<I>(s)));
}
template <typename S>
constexpr uint64_t ModeSize(const S& s) {
  if constexpr (kIsTuple<S>) {
    return TupleSize(s, std::make_index_sequence<std::tuple_size_v<S>>{});
  } else {
    return static_cast<uint64_t>(s);
  }
}

// The largest index of a mode (non-negative strides).
template <typename S, typename D>
constexpr int64_t ModeCosizeMinus1(const S& s, const D& d);
template <typename S, typename D, size_t... I>
constexpr int64_t TupleCosizeMinus1(const S& s, const D& d, std::index_sequence<I...>) {
  return (int64_t{0} + ... + ModeCosizeMinus1(std::get<I>(s), std::get<I>(d)));
}
template <typename S, typename D>
constexpr int64_t ModeCosizeMinus1(const S& s, const D& d) {
  if constexpr (kIsTuple<S>) {
    return TupleCosizeMinus1(s, d, std::make_index_sequence<std::tuple_size_v<S>>{});
  } else {
    const uint64_t n = static_cast<uint64_t>(s);
    return n == 0 ? 0 : static_cast<int64_t>(n - 1) * static_cast<int64_t>(d);
  }
}

// CuTe's crd2idx: a tuple coordinate maps mode by mode; an integer coordinate on a tuple mode is
// split colexicographically (the first sub-mode varies fastest, the last takes the rest).
template <typename C, typename S, typename D>
constexpr int64_t Crd2Idx(const C& c, const S& s, const D& d);
template <typename C, typename S, typename D, size_t... I>
constexpr int64_t TupleCrd2Idx(const C& c, const S& s, const D& d, std::index_sequence<I...>) {
  return (int64_t{0} + ... + Crd2Idx(std::get<I>(c), std::get<I>(s), std::get<I>(d)));
}
template <size_t I, size_t N, typename S, typename D>
constexpr int64_t SplitCrd2Idx(uint64_t rest, const S& s, const D& d) {
  if constexpr (I + 1 == N) {
    return Crd2Idx(rest, std::get<I>(s), std::get<I>(d));
  } else {
    const uint64_t n = ModeSize(std::get<I>(s));
    const uint64_t ci = n == 0 ? 0 : rest % n;
    const uint64_t next = n == 0 ? 0 : rest / n;
    return Crd2Idx(ci, std::get<I>(s), std::get<I>(d)) + SplitCrd2Idx<I + 1, N>(next, s, d);
  }
}
template <typename C, typename S, typename D>
constexpr int64_t Crd2Idx(const C& c, const S& s, const D& d) {
  if constexpr (kIsTuple<S>) {
    constexpr size_t kN = std::tuple_size_v<S>;
    if constexpr (kIsTuple<C>) {
      return TupleCrd2Idx(c, s, d, std::make_index_sequence<kN>{});
    } else {
      return SplitCrd2Idx<0, kN>(static_cast<uint64_t>(c), s, d);
    }
  } else {
    static_assert(!kIsTuple<C>, "Crd2Idx: a tuple coordinate for an integer mode");
    return static_cast<int64_t>(c) * static_cast<int64_t>(d);
  }
}
}  // namespace detail

template <typename T, typename Shape, typename Stride>
constexpr auto Crd2Idx(const T& coord, const Shape& shape, const Stride& stride) {
  return detail::Crd2Idx(coord, shape, stride);
}

// No pattern / trait (Std::ignore_t in asc-devkit).
struct IgnoreT {};

template <typename T, typename U, typename Info = IgnoreT>
struct Layout {
  using ShapeType = T;
  using StrideType = U;
  using InfoType = Info;
  static constexpr int depth = detail::NestingDepth<T>();
  static constexpr size_t rank = std::tuple_size_v<T>;
  constexpr Layout(const T& shape = {}, const U& stride = {}) : shape_(shape), stride_(stride) {
    static_assert(detail::kIsTuple<T> && detail::kIsTuple<U>, "Shape or Stride is not tuple!");
  }
  constexpr const T& Shape() const { return shape_; }
  constexpr const U& Stride() const { return stride_; }
  constexpr uint64_t Size() const { return detail::ModeSize(shape_); }
  // The elements from the first to one past the last the layout reaches.
  constexpr uint64_t Capacity() const {
    return Size() == 0 ? 0 : static_cast<uint64_t>(detail::ModeCosizeMinus1(shape_, stride_)) + 1;
  }
  template <typename S>
  constexpr int64_t operator()(const S& coord) const {
    return detail::Crd2Idx(coord, shape_, stride_);
  }

 private:
  T shape_;
  U stride_;
};

template <typename T>
struct IsLayout : std::false_type {};
template <typename T, typename U, typename S>
struct IsLayout<Layout<T, U, S>> : std::true_type {};
template <typename T>
constexpr bool IsLayoutV = IsLayout<std::remove_cv_t<std::remove_reference_t<T>>>::value;

template <typename T>
struct GetLayoutInfo {
  using type = std::tuple<IgnoreT, IgnoreT>;
};
template <typename T, typename U, typename LayoutPattern, typename TraitType>
struct GetLayoutInfo<Layout<T, U, std::tuple<LayoutPattern, TraitType>>> {
  using type = std::tuple<LayoutPattern, TraitType>;
};
template <typename T>
using GetLayoutPattern = std::tuple_element_t<0, typename GetLayoutInfo<std::remove_cv_t<T>>::type>;
template <typename T>
using GetLayoutTrait = std::tuple_element_t<1, typename GetLayoutInfo<std::remove_cv_t<T>>::type>;

template <typename T, typename U>
constexpr auto MakeLayout(const T& shape, const U& stride) {
  return Layout<T, U>(shape, stride);
}

// ---- layout patterns and frame layouts (tensor/layout_pattern.h, layout_frame.h) ----

struct ZNLayoutPtn {};
struct ZZLayoutPtn {};
struct NNLayoutPtn {};
struct NZLayoutPtn {};
struct NDLayoutPtn {};
struct DNLayoutPtn {};
struct NDExtLayoutPtn {};
struct DNExtLayoutPtn {};

template <typename T, typename C0>
struct LayoutTrait {
  static constexpr auto C0_ELEMENT = C0{};
};
template <typename T = uint16_t, typename C0 = Std::Int<C0_ELEMENT<T>>>
struct LayoutTraitDefault : LayoutTrait<T, C0> {};

template <typename LayoutPattern, typename TraitType, typename ShapeType, typename StrideType>
constexpr auto MakePatternLayout(const ShapeType& shape, const StrideType& stride) {
  return Layout<ShapeType, StrideType, std::tuple<LayoutPattern, TraitType>>(shape, stride);
}

namespace detail {
using U64 = uint64_t;
using Mode = std::tuple<U64, U64>;
using FrameShape = std::tuple<Mode, Mode>;
using FlatShape = std::tuple<U64, U64>;
constexpr U64 CeilDiv(U64 a, U64 b) { return (a + b - 1) / b; }
constexpr U64 CeilAlign(U64 a, U64 b) { return CeilDiv(a, b) * b; }

template <typename Ptn>
struct FrameMaker;
template <>
struct FrameMaker<NZLayoutPtn> {
  template <typename Trait>
  static auto Make(U64 row, U64 col) {
    constexpr U64 c0 = Trait::C0_ELEMENT;
    FrameShape shape{{FRACTAL_FIXED, CeilDiv(row, FRACTAL_FIXED)}, {c0, CeilDiv(col, c0)}};
    FrameShape stride{{c0, c0 * FRACTAL_FIXED}, {1, c0 * CeilAlign(row, FRACTAL_FIXED)}};
    return MakePatternLayout<NZLayoutPtn, Trait>(shape, stride);
  }
};
template <>
struct FrameMaker<ZNLayoutPtn> {
  template <typename Trait>
  static auto Make(U64 row, U64 col) {
    constexpr U64 c0 = Trait::C0_ELEMENT;
    FrameShape shape{{c0, CeilDiv(row, c0)}, {FRACTAL_FIXED, CeilDiv(col, FRACTAL_FIXED)}};
    FrameShape stride{{1, c0 * CeilAlign(col, FRACTAL_FIXED)}, {c0, c0 * FRACTAL_FIXED}};
    return MakePatternLayout<ZNLayoutPtn, Trait>(shape, stride);
  }
};
template <>
struct FrameMaker<ZZLayoutPtn> {
  template <typename Trait>
  static auto Make(U64 row, U64 col) {
    constexpr U64 c0 = Trait::C0_ELEMENT;
    FrameShape shape{{FRACTAL_FIXED, CeilDiv(row, FRACTAL_FIXED)}, {c0, CeilDiv(col, c0)}};
    FrameShape stride{{c0, FRACTAL_FIXED * CeilAlign(col, c0)}, {1, c0 * FRACTAL_FIXED}};
    return MakePatternLayout<ZZLayoutPtn, Trait>(shape, stride);
  }
};
template <>
struct FrameMaker<NDExtLayoutPtn> {
  template <typename Trait>
  static auto Make(U64 row, U64 col) {
    return MakePatternLayout<NDExtLayoutPtn, Trait>(FrameShape{{1, row}, {1, col}},
                                                    FrameShape{{0, col}, {0, 1}});
  }
};
template <>
struct FrameMaker<DNExtLayoutPtn> {
  template <typename Trait>
  static auto Make(U64 row, U64 col) {
    return MakePatternLayout<DNExtLayoutPtn, Trait>(FrameShape{{1, row}, {1, col}},
                                                    FrameShape{{0, 1}, {0, row}});
  }
};
template <>
struct FrameMaker<NDLayoutPtn> {
  template <typename Trait>
  static auto Make(U64 row, U64 col) {
    return MakePatternLayout<NDLayoutPtn, Trait>(FlatShape{row, col}, FlatShape{col, 1});
  }
};
template <>
struct FrameMaker<DNLayoutPtn> {
  template <typename Trait>
  static auto Make(U64 row, U64 col) {
    return MakePatternLayout<DNLayoutPtn, Trait>(FlatShape{row, col}, FlatShape{1, row});
  }
};

template <typename T>
struct IsIntegralConstant : std::false_type {};
template <typename T, T v>
struct IsIntegralConstant<Std::integral_constant<T, v>> : std::true_type {};
template <typename T, typename = void>
struct IsFrameTrait : std::false_type {};
template <typename T>
struct IsFrameTrait<T, std::void_t<decltype(T::C0_ELEMENT)>> : std::true_type {};

// TraitConversion (layout_frame.h): none -> the pattern's default (fractal patterns: the C0 of
// uint16_t, 16; flat ones: 1), an integral constant -> that C0, a frame trait -> itself, a data
// type -> the C0 of 32 bytes of it.
template <typename Ptn, typename Trait>
struct TraitConversion {
  static constexpr bool kFractal = std::is_same_v<Ptn, NZLayoutPtn> ||
                                   std::is_same_v<Ptn, ZNLayoutPtn> ||
                                   std::is_same_v<Ptn, ZZLayoutPtn>;
  using type = std::conditional_t<
      std::is_same_v<Trait, IgnoreT>,
      std::conditional_t<kFractal, LayoutTraitDefault<>, LayoutTrait<IgnoreT, Std::Int<1>>>,
      std::conditional_t<IsIntegralConstant<Trait>::value, LayoutTrait<IgnoreT, Trait>,
                         std::conditional_t<IsFrameTrait<Trait>::value, Trait,
                                            LayoutTraitDefault<Trait>>>>;
};
}  // namespace detail

template <typename LayoutPattern, typename TraitType = IgnoreT, typename... Args,
          typename = std::enable_if_t<sizeof...(Args) == 2>>
constexpr decltype(auto) MakeFrameLayout(const Args&... args) {
  using Trait = typename detail::TraitConversion<LayoutPattern, TraitType>::type;
  return detail::FrameMaker<LayoutPattern>::template Make<Trait>(static_cast<uint64_t>(args)...);
}
template <typename LayoutPattern, size_t C0Element, typename... Args,
          typename = std::enable_if_t<sizeof...(Args) == 2>>
constexpr decltype(auto) MakeFrameLayout(const Args&... args) {
  return MakeFrameLayout<LayoutPattern, Std::Int<C0Element>>(args...);
}

// ---- pointers (tensor/pointer.h, pointer_pattern.h) ----

template <typename T>
struct LocationOf;
template <>
struct LocationOf<Location::GM> {
  static constexpr ascsim::tensor_api::Loc value = ascsim::tensor_api::Loc::kGm;
};
template <>
struct LocationOf<Location::UB> {
  static constexpr ascsim::tensor_api::Loc value = ascsim::tensor_api::Loc::kUb;
};
template <>
struct LocationOf<Location::L1> {
  static constexpr ascsim::tensor_api::Loc value = ascsim::tensor_api::Loc::kL1;
};
template <>
struct LocationOf<Location::L0A> {
  static constexpr ascsim::tensor_api::Loc value = ascsim::tensor_api::Loc::kL0A;
};
template <>
struct LocationOf<Location::L0B> {
  static constexpr ascsim::tensor_api::Loc value = ascsim::tensor_api::Loc::kL0B;
};
template <>
struct LocationOf<Location::L0C> {
  static constexpr ascsim::tensor_api::Loc value = ascsim::tensor_api::Loc::kL0C;
};

// A pointer tagged with the memory it points into (the device's address-space qualifier).
template <typename LocationType, typename T>
struct MemPtr {
  using location = LocationType;
  using elementType = T;
  T* ptr = nullptr;
  constexpr MemPtr operator+(int64_t n) const { return MemPtr{ptr + n}; }
  T& operator[](int64_t n) const { return ptr[n]; }
  T* Get() const { return ptr; }
};
template <typename T>
struct IsMemPtr : std::false_type {};
template <typename L, typename T>
struct IsMemPtr<MemPtr<L, T>> : std::true_type {};

template <typename Iterator>
struct ViewEngine {
  using iterator = Iterator;
  using valueType = typename Iterator::elementType;
  using elementType = valueType;
  using reference = valueType&;
  using location = typename Iterator::location;
  Iterator it{};
  CacheMode cacheMode = CacheMode::CACHE_MODE_NORMAL;
  constexpr Iterator Begin() const { return it; }
  constexpr ViewEngine operator+(int64_t n) const { return ViewEngine{it + n, cacheMode}; }
  uint8_t GetCacheMode() const { return static_cast<uint8_t>(cacheMode); }
  void SetCacheMode(CacheMode mode) { cacheMode = mode; }
};

}  // namespace Te
}  // namespace AscendC

namespace AscendC {
namespace Te {

// MakeMemPtr(ptr): the location of the pointer's type (a plain pointer is GM, a LocalArray its
// memory's); MakeMemPtr<Location>(ptr): that location; MakeMemPtr<Location, T>(addr): the byte
// address `addr` of that memory (static-tensor programming).
template <typename Iterator, typename = std::enable_if_t<std::is_pointer_v<Iterator>>>
constexpr auto MakeMemPtr(Iterator iterator) {
  return MemPtr<Location::GM, std::remove_pointer_t<Iterator>>{iterator};
}
namespace detail {
template <ascsim::tensor_api::Loc L>
struct LocationType;
template <>
struct LocationType<ascsim::tensor_api::Loc::kUb> {
  using type = Location::UB;
};
template <>
struct LocationType<ascsim::tensor_api::Loc::kL1> {
  using type = Location::L1;
};
template <>
struct LocationType<ascsim::tensor_api::Loc::kL0A> {
  using type = Location::L0A;
};
template <>
struct LocationType<ascsim::tensor_api::Loc::kL0B> {
  using type = Location::L0B;
};
template <>
struct LocationType<ascsim::tensor_api::Loc::kL0C> {
  using type = Location::L0C;
};
}  // namespace detail
template <typename T, ascsim::tensor_api::Loc L, size_t N>
auto MakeMemPtr(const ascsim::tensor_api::LocalArray<T, L, N>& array) {
  return MemPtr<typename detail::LocationType<L>::type, T>{array.data()};
}
template <typename L, typename L2, typename T>
constexpr auto MakeMemPtr(MemPtr<L2, T> iterator) {
  return MemPtr<L, T>{iterator.ptr};
}
template <typename PtrPattern, typename Iterator,
          typename = std::enable_if_t<std::is_pointer_v<Iterator>>>
constexpr auto MakeMemPtr(Iterator iterator) {
  return MemPtr<PtrPattern, std::remove_pointer_t<Iterator>>{iterator};
}
template <typename PtrPattern, typename DataType, typename Addr,
          typename = std::enable_if_t<std::is_integral_v<Addr>>>
auto MakeMemPtr(Addr addr) {
  static_assert(!std::is_same_v<PtrPattern, Location::GM>,
                "MakeMemPtr<Location, T>(addr) names an address of a local memory");
  return MemPtr<PtrPattern, DataType>{reinterpret_cast<DataType*>(ascsim::tensor_api::LocalBase(
      LocationOf<PtrPattern>::value, static_cast<uint64_t>(addr), sizeof(DataType),
      "MakeMemPtr"))};
}

// ---- tensors (tensor/tensor_impl.h) ----

template <typename LocationType, typename EngineType, typename LayoutType>
struct MakeTensorResult {
  using type = std::conditional_t<std::is_same_v<LocationType, Location::GM>,
                                  AscendC::GlobalTensor<TensorAttribute<EngineType, LayoutType>>,
                                  AscendC::LocalTensor<TensorAttribute<EngineType, LayoutType>>>;
};

namespace detail {
// MakeFourDimSliceLayout / MakeSameShapeSliceLayout (layout_impl.h): the slice keeps the
// strides; a fractal layout's shape is rebuilt from the logical rows and columns left from the
// coordinate, capped by the requested shape.
template <typename LayoutType, typename C, typename I>
auto SliceLayout(const LayoutType& layout, const C& coord, const I& info) {
  using Ptn = GetLayoutPattern<LayoutType>;
  using Trait = GetLayoutTrait<LayoutType>;
  static_assert(std::tuple_size_v<C> == 2 && std::tuple_size_v<I> == 2,
                "SliceShape must be a logical Two Dim Shape");
  const uint64_t r = static_cast<uint64_t>(std::get<0>(coord));
  const uint64_t c = static_cast<uint64_t>(std::get<1>(coord));
  const uint64_t want_r = static_cast<uint64_t>(std::get<0>(info));
  const uint64_t want_c = static_cast<uint64_t>(std::get<1>(info));
  if constexpr (LayoutType::depth == 2) {
    const auto& s = layout.Shape();
    const uint64_t inner_r = std::get<0>(std::get<0>(s)), outer_r = std::get<1>(std::get<0>(s));
    const uint64_t inner_c = std::get<0>(std::get<1>(s)), outer_c = std::get<1>(std::get<1>(s));
    const uint64_t rows = inner_r * outer_r, cols = inner_c * outer_c;
    if (r > rows || c > cols) ascsim::tensor_api::FaultSlice(r, c, rows, cols);
    const uint64_t real_r = std::min(rows - r, want_r), real_c = std::min(cols - c, want_c);
    FrameShape shape{{inner_r, CeilDiv(real_r, inner_r)}, {inner_c, CeilDiv(real_c, inner_c)}};
    return MakePatternLayout<Ptn, Trait>(shape, layout.Stride());
  } else {
    static_assert(LayoutType::depth == 1, "Slice: layouts of depth 1 or 2");
    const auto& s = layout.Shape();
    const uint64_t rows = std::get<0>(s), cols = std::get<1>(s);
    if (r > rows || c > cols) ascsim::tensor_api::FaultSlice(r, c, rows, cols);
    FlatShape shape{std::min(rows - r, want_r), std::min(cols - c, want_c)};
    return MakePatternLayout<Ptn, Trait>(shape, layout.Stride());
  }
}
}  // namespace detail

template <typename EngineType, typename LayoutType>
struct BaseTensor {
  using iterator = typename EngineType::iterator;
  using valueType = typename EngineType::valueType;
  using elementType = typename EngineType::elementType;
  using reference = typename EngineType::reference;
  using engineType = EngineType;
  using layoutType = LayoutType;
  using location = typename EngineType::location;
  static constexpr int rank = LayoutType::rank;

  BaseTensor() = default;
  BaseTensor(const EngineType& engine, const LayoutType& layout)
      : engine_(engine), layout_(layout) {}

  constexpr const EngineType& Engine() const { return engine_; }
  EngineType& Engine() { return engine_; }
  constexpr const LayoutType& Layout() const { return layout_; }
  constexpr iterator Data() const { return engine_.Begin(); }
  constexpr decltype(auto) Shape() const { return layout_.Shape(); }
  constexpr decltype(auto) Stride() const { return layout_.Stride(); }
  constexpr uint64_t Size() const { return layout_.Size(); }
  constexpr uint64_t Capacity() const { return layout_.Capacity(); }

  // The element at `coord` (a scalar access; no check, as on the device).
  template <typename C>
  reference operator[](const C& coord) const {
    return Data()[layout_(coord)];
  }
  template <typename C, typename I>
  auto Slice(const C& coord, const I& info) const {
    auto layout = detail::SliceLayout(layout_, coord, info);
    auto engine = engine_ + layout_(coord);
    using Result =
        typename MakeTensorResult<location, decltype(engine), decltype(layout)>::type;
    return Result{engine, layout};
  }

 private:
  EngineType engine_{};
  LayoutType layout_{};
};

template <typename Iterator, typename LayoutType,
          typename = std::enable_if_t<IsMemPtr<Iterator>::value && IsLayoutV<LayoutType>>>
auto MakeTensor(const Iterator& iter, const LayoutType& layout) {
  using Engine = ViewEngine<Iterator>;
  using Result = typename MakeTensorResult<typename Iterator::location, Engine, LayoutType>::type;
  return Result{Engine{iter}, layout};
}
template <typename Iterator, typename ShapeType, typename StrideType,
          typename = std::enable_if_t<IsMemPtr<Iterator>::value && detail::kIsTuple<ShapeType>>>
auto MakeTensor(const Iterator& iter, const ShapeType& shape, const StrideType& stride) {
  return MakeTensor(iter, MakeLayout(shape, stride));
}

template <typename T>
struct IsAttrTensor : std::false_type {};
template <template <typename> class TensorType, typename Engine, typename LayoutT>
struct IsAttrTensor<TensorType<TensorAttribute<Engine, LayoutT>>> : std::true_type {};
template <typename T>
constexpr bool IsAttrTensorV = IsAttrTensor<std::remove_cv_t<std::remove_reference_t<T>>>::value;

}  // namespace Te

template <typename EngineType, typename LayoutType>
class GlobalTensor<TensorAttribute<EngineType, LayoutType>>
    : public Te::BaseTensor<EngineType, LayoutType> {
 public:
  using Te::BaseTensor<EngineType, LayoutType>::BaseTensor;
  GlobalTensor() = default;
  void SetL2CacheHint(Te::CacheMode mode) { this->Engine().SetCacheMode(mode); }
};

template <typename EngineType, typename LayoutType>
class LocalTensor<TensorAttribute<EngineType, LayoutType>>
    : public Te::BaseTensor<EngineType, LayoutType> {
 public:
  using Te::BaseTensor<EngineType, LayoutType>::BaseTensor;
  LocalTensor() = default;
};

namespace Te {

// ---- the View the out-of-line code works on ----

namespace detail {
template <typename P>
constexpr ascsim::tensor_api::Ptn PtnOf() {
  using ascsim::tensor_api::Ptn;
  if constexpr (std::is_same_v<P, NDLayoutPtn>) return Ptn::kND;
  else if constexpr (std::is_same_v<P, DNLayoutPtn>) return Ptn::kDN;
  else if constexpr (std::is_same_v<P, NDExtLayoutPtn>) return Ptn::kNDExt;
  else if constexpr (std::is_same_v<P, DNExtLayoutPtn>) return Ptn::kDNExt;
  else if constexpr (std::is_same_v<P, NZLayoutPtn>) return Ptn::kNZ;
  else if constexpr (std::is_same_v<P, ZNLayoutPtn>) return Ptn::kZN;
  else if constexpr (std::is_same_v<P, ZZLayoutPtn>) return Ptn::kZZ;
  else return Ptn::kOther;
}

template <typename TensorT>
ascsim::tensor_api::View ToView(const TensorT& t) {
  using T = typename TensorT::elementType;
  using LayoutType = typename TensorT::layoutType;
  ascsim::tensor_api::View v;
  v.data = reinterpret_cast<uint8_t*>(t.Data().ptr);
  v.loc = LocationOf<typename TensorT::location>::value;
  v.ptn = PtnOf<GetLayoutPattern<LayoutType>>();
  v.dtype = ascsim::simd::DTypeOf<T>();
  v.elem = sizeof(T);
  using Trait = GetLayoutTrait<LayoutType>;
  if constexpr (IsFrameTrait<Trait>::value) v.c0 = static_cast<uint32_t>(Trait::C0_ELEMENT);
  const auto& s = t.Layout().Shape();
  const auto& d = t.Layout().Stride();
  if constexpr (LayoutType::depth == 2) {
    v.rs[0] = std::get<0>(std::get<0>(s));
    v.rs[1] = std::get<1>(std::get<0>(s));
    v.cs[0] = std::get<0>(std::get<1>(s));
    v.cs[1] = std::get<1>(std::get<1>(s));
    v.rd[0] = static_cast<int64_t>(std::get<0>(std::get<0>(d)));
    v.rd[1] = static_cast<int64_t>(std::get<1>(std::get<0>(d)));
    v.cd[0] = static_cast<int64_t>(std::get<0>(std::get<1>(d)));
    v.cd[1] = static_cast<int64_t>(std::get<1>(std::get<1>(d)));
  } else {
    static_assert(LayoutType::depth == 1 && LayoutType::rank == 2,
                  "the copies and Mmad take rank-2 layouts of depth 1 or 2");
    v.rs[1] = std::get<0>(s);
    v.cs[1] = std::get<1>(s);
    v.rd[1] = static_cast<int64_t>(std::get<0>(d));
    v.cd[1] = static_cast<int64_t>(std::get<1>(d));
  }
  return v;
}

template <typename A, typename B>
constexpr bool kSamePtn = std::is_same_v<A, B>;
template <typename P>
constexpr bool kNdLike = kSamePtn<P, NDLayoutPtn> || kSamePtn<P, NDExtLayoutPtn>;
}  // namespace detail

// ---- copy operations, traits and atoms (arch/cube/copy_op.h, atom/*) ----

struct CopyGM2L1 {};
struct CopyL12L0A {};
struct CopyL12L0B {};
struct CopyL0C2GM {};
struct CopyL0C2GMWith {};
// Declared for source compatibility; a copy through them fails to compile (not simulated).
struct CopyL12UB {};
struct CopyL12L0ScaleA {};
struct CopyL12L0ScaleB {};
struct CopyL12FB {};
struct CopyL12BT {};
struct CopyL0C2UB {};
struct CopyL0C2L1 {};

struct CopyGM2L1Trait {};
struct CopyL12L0ATrait {};
struct CopyL12L0BTrait {};
struct CopyL0C2GMTrait {
  constexpr CopyL0C2GMTrait() {}
  constexpr CopyL0C2GMTrait(RoundMode roundModeIn, bool enableReluIn, bool enableChannelSplitIn)
      : roundMode(roundModeIn),
        enableRelu(enableReluIn),
        enableChannelSplit(enableChannelSplitIn) {}
  RoundMode roundMode = RoundMode::DEFAULT;
  bool enableRelu = false;
  bool enableChannelSplit = false;
};
struct CopyGM2L1TraitDefault {
  using TraitType = CopyGM2L1Trait;
  static constexpr TraitType value{};
};
struct CopyL12L0ATraitDefault {
  using TraitType = CopyL12L0ATrait;
  static constexpr TraitType value{};
};
struct CopyL12L0BTraitDefault {
  using TraitType = CopyL12L0BTrait;
  static constexpr TraitType value{};
};
struct CopyL0C2GMTraitDefault {
  using TraitType = CopyL0C2GMTrait;
  static constexpr TraitType value{};
};

namespace detail {
template <typename Op>
struct DefaultCopyTrait;
template <>
struct DefaultCopyTrait<CopyGM2L1> {
  using type = CopyGM2L1TraitDefault;
};
template <>
struct DefaultCopyTrait<CopyL12L0A> {
  using type = CopyL12L0ATraitDefault;
};
template <>
struct DefaultCopyTrait<CopyL12L0B> {
  using type = CopyL12L0BTraitDefault;
};
template <>
struct DefaultCopyTrait<CopyL0C2GM> {
  using type = CopyL0C2GMTraitDefault;
};

template <typename Op, typename Trait, typename D, typename S>
void RunCopy(const D& dst, const S& src) {
  static_assert(IsAttrTensorV<D> && IsAttrTensorV<S>, "Copy takes tensors made by MakeTensor");
  using DL = typename D::location;
  using SL = typename S::location;
  using DP = GetLayoutPattern<typename D::layoutType>;
  using SP = GetLayoutPattern<typename S::layoutType>;
  using DT = typename D::elementType;
  using ST = typename S::elementType;
  if constexpr (std::is_same_v<Op, CopyGM2L1>) {
    static_assert(std::is_same_v<DL, Location::L1> && std::is_same_v<SL, Location::GM>,
                  "CopyGM2L1: dst must be an L1 tensor and src a GM tensor");
    static_assert((kSamePtn<DP, NZLayoutPtn> || kSamePtn<DP, ZNLayoutPtn> || kNdLike<DP>) &&
                      kNdLike<SP> && (!kNdLike<DP> || kNdLike<SP>),
                  "CopyGM2L1: unsupported layout pattern combination.");
    static_assert(std::is_same_v<DT, ST>, "CopyGM2L1: dst and src must have the same data type");
    ascsim::tensor_api::CopyGm2L1(ToView(dst), ToView(src));
  } else if constexpr (std::is_same_v<Op, CopyL12L0A>) {
    static_assert(std::is_same_v<DL, Location::L0A> && std::is_same_v<SL, Location::L1>,
                  "CopyL12L0A: dst must be an L0A tensor and src an L1 tensor");
    static_assert(kSamePtn<DP, NZLayoutPtn> && kSamePtn<SP, NZLayoutPtn>,
                  "CopyL12L0AIgnore should not be called (NZ -> NZ is the simulated pattern)");
    static_assert(std::is_same_v<DT, ST>, "CopyL12L0A: dst and src must have the same data type");
    ascsim::tensor_api::CopyL12L0A(ToView(dst), ToView(src));
  } else if constexpr (std::is_same_v<Op, CopyL12L0B>) {
    static_assert(std::is_same_v<DL, Location::L0B> && std::is_same_v<SL, Location::L1>,
                  "CopyL12L0B: dst must be an L0B tensor and src an L1 tensor");
    static_assert(kSamePtn<DP, ZNLayoutPtn> &&
                      (kSamePtn<SP, NZLayoutPtn> || kSamePtn<SP, ZNLayoutPtn>),
                  "CopyL12L0B: unsupported layout pattern combination (NZ or ZN -> ZN).");
    static_assert(std::is_same_v<DT, ST>, "CopyL12L0B: dst and src must have the same data type");
    ascsim::tensor_api::CopyL12L0B(ToView(dst), ToView(src));
  } else if constexpr (std::is_same_v<Op, CopyL0C2GM>) {
    static_assert(std::is_same_v<DL, Location::GM> && std::is_same_v<SL, Location::L0C>,
                  "CopyL0C2GM: dst must be a GM tensor and src an L0C tensor");
    static_assert(kNdLike<DP> && kSamePtn<SP, NZLayoutPtn>,
                  "CopyL0C2GM: unsupported layout pattern combination (NZ -> ND).");
    static_assert((std::is_same_v<ST, float> &&
                   (std::is_same_v<DT, float> || std::is_same_v<DT, half> ||
                    std::is_same_v<DT, bfloat16_t>)) ||
                      (std::is_same_v<ST, int32_t> &&
                       (std::is_same_v<DT, int32_t> || std::is_same_v<DT, half>)),
                  "CopyL0C2GM: L0C float goes out as float, half or bfloat16_t; int32_t as "
                  "int32_t or half");
    ascsim::tensor_api::CopyL0C2Gm(ToView(dst), ToView(src), Trait::value.enableRelu);
  } else {
    static_assert(!std::is_same_v<Op, Op>, "this copy operation is not simulated by ascsim");
  }
}
}  // namespace detail

template <typename CopyOperation, typename... CopyOpArgs>
struct CopyTraits;
template <typename CopyOperation, typename Trait>
struct CopyTraits<CopyOperation, Trait> {
  using TraitType = typename Trait::TraitType;
  static constexpr TraitType defaultTrait = Trait::value;
  template <typename D, typename S>
  void CopyUnpack(const D& dst, const S& src) const {
    detail::RunCopy<CopyOperation, Trait>(dst, src);
  }
};
template <typename... Args>
struct CopyAtom;
template <typename... Args>
struct CopyAtom<CopyTraits<Args...>> : CopyTraits<Args...> {
  template <typename... Params>
  void Call(const Params&... params) const {
    this->CopyUnpack(params...);
  }
};

template <typename CopyOperationType>
constexpr auto MakeCopy(const CopyOperationType&) {
  return CopyAtom<CopyTraits<CopyOperationType,
                             typename detail::DefaultCopyTrait<CopyOperationType>::type>>{};
}
template <typename CopyOperationType, typename CopyTraitType>
constexpr auto MakeCopy(const CopyOperationType&, const CopyTraitType&) {
  return CopyAtom<CopyTraits<CopyOperationType, CopyTraitType>>{};
}
template <typename... AtomArgs, typename DstTensor, typename SrcTensor>
void Copy(const CopyAtom<AtomArgs...>& atomCopy, const DstTensor& dst, const SrcTensor& src) {
  atomCopy.Call(dst, src);
}

// ---- Mmad (arch/cube/mmad_op.h, atom/cube/mmad.h, algorithm/mmad.h) ----

constexpr MmadTrait DEFAULT_MMAD_TRAIT;
struct MmadTraitDefault {
  using TraitType = MmadTrait;
  static constexpr TraitType value = DEFAULT_MMAD_TRAIT;
};
struct MmadOperation {};
struct MmadOpWith : public MmadOperation {};

namespace detail {
template <const MmadTrait& trait, typename C, typename A, typename B>
void RunMmad(const C& c, const A& a, const B& b, const MmadParams& params) {
  static_assert(IsAttrTensorV<C> && IsAttrTensorV<A> && IsAttrTensorV<B>,
                "Mmad takes tensors made by MakeTensor");
  static_assert(std::is_same_v<typename C::location, Location::L0C>,
                "When Mmad, dst tensor must be from L0C.");
  static_assert(std::is_same_v<typename A::location, Location::L0A>,
                "When Mmad, fm tensor must be from L0A.");
  static_assert(std::is_same_v<typename B::location, Location::L0B>,
                "When Mmad, filter tensor must be from L0B.");
  static_assert(kSamePtn<GetLayoutPattern<typename C::layoutType>, NZLayoutPtn> &&
                    kSamePtn<GetLayoutPattern<typename A::layoutType>, NZLayoutPtn> &&
                    kSamePtn<GetLayoutPattern<typename B::layoutType>, ZNLayoutPtn>,
                "Mmad: dst and fm must have NZ layouts and filter a ZN layout");
  using CT = typename C::elementType;
  using AT = typename A::elementType;
  using BT = typename B::elementType;
  static_assert(std::is_same_v<AT, BT>, "Mmad: fm and filter must have the same data type");
  static_assert(((std::is_same_v<AT, half> || std::is_same_v<AT, bfloat16_t> ||
                  std::is_same_v<AT, float>) &&
                 std::is_same_v<CT, float>) ||
                    (std::is_same_v<AT, int8_t> && std::is_same_v<CT, int32_t>),
                "Mmad: half, bfloat16_t or float inputs accumulate in float, int8_t in int32_t");
  static_assert(trait.mmadType == MmadType::NORMAL, "Mmad: the MX form is not simulated");
  ascsim::tensor_api::MmadArgs args;
  args.m = params.m;
  args.n = params.n;
  args.k = params.k;
  args.unit_flag = params.unitFlag;
  args.cmatrix_init_val = params.cmatrixInitVal;
  args.cmatrix_source = trait.cmatrixSource;
  args.disable_gemv = trait.disableGemv;
  ascsim::tensor_api::Mmad(ToView(c), ToView(a), ToView(b), args);
}
}  // namespace detail

template <typename MmadOperationT, typename... MmadOpArgs>
struct MmadTraits {};
template <typename MmadTraitsType>
struct MmadTraits<MmadOpWith, MmadTraitsType> {
  using TraitType = typename MmadTraitsType::TraitType;
  static constexpr TraitType defaultTrait = MmadTraitsType::value;
  template <typename C, typename A, typename B>
  void MmadUnpack(const C& c, const A& a, const B& b) const {
    detail::RunMmad<MmadTraitsType::value>(c, a, b, params);
  }
  MmadParams params;
};
template <typename MmadTraitsType>
struct MmadTraits<MmadOperation, MmadTraitsType> {
  using TraitType = typename MmadTraitsType::TraitType;
  static constexpr TraitType defaultTrait = MmadTraitsType::value;
  constexpr MmadTraits<MmadOpWith, MmadTraitsType> with(const MmadParams& params) const {
    return {params};
  }
  template <typename... Args>
  void MmadUnpack(const Args&...) const {
    static_assert(sizeof...(Args) != sizeof...(Args),
                  "Mmad needs its MmadParams: Mmad(atom.with(MmadParams{m, n, k, unitFlag, "
                  "cmatrixInitVal}), dst, fm, filter)");
  }
};

template <typename... Args>
struct MmadAtom;
template <typename MmadOperationT, typename... Args>
struct MmadAtom<MmadTraits<MmadOperationT, Args...>> : MmadTraits<MmadOperationT, Args...> {
  using MmadTraitType = MmadTraits<MmadOperationT, Args...>;
  template <typename... Params>
  void Call(const Params&... params) const {
    this->MmadUnpack(params...);
  }
  template <typename... TraitsArgs>
  auto with(TraitsArgs&&... args) const {
    auto traits = MmadTraitType::with(static_cast<TraitsArgs&&>(args)...);
    return MmadAtom<decltype(traits)>{traits};
  }
};

template <typename MmadOperationType>
constexpr auto MakeMmad(const MmadOperationType&) {
  return MmadAtom<MmadTraits<MmadOperationType, MmadTraitDefault>>{};
}
template <typename MmadOperationType, typename MmadTraitType>
constexpr auto MakeMmad(const MmadOperationType&, const MmadTraitType&) {
  return MmadAtom<MmadTraits<MmadOperationType, MmadTraitType>>{};
}
template <typename... AtomArgs, typename DstTensor, typename FmTensor, typename FilterTensor>
void Mmad(const MmadAtom<AtomArgs...>& atomMmad, const DstTensor& dst, const FmTensor& fm,
          const FilterTensor& filter) {
  atomMmad.Call(dst, fm, filter);
}

}  // namespace Te
}  // namespace AscendC
