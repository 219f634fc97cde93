// AscendC::Std: the kernel-side subset of the C++ standard library CANN provides (kernels cannot use
// libstdc++ on the device): type traits, min / max, and the integer and scalar math helpers.
//
// Source (asc-devkit): include/utils/std/{type_traits,algorithm,cmath,utility}.h and their
// impl/utils/std/** files. The traits are AscendC::Std's own types (integral_constant, true_type,
// ...) as there, not aliases of std's, so that code specialising them or overloading on Std::Int
// behaves the same. is_floating_point counts `half` (not bfloat16_t), as asc-devkit's does.
// Std::tuple / make_tuple / get / tuple_size / tuple_element are std's (see below).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <tuple>

#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/types.h"

namespace AscendC {
namespace Std {

template <typename Tp, Tp v>
struct integral_constant {
  static constexpr const Tp value = v;
  using value_type = Tp;
  using type = integral_constant;
  constexpr operator value_type() const noexcept { return value; }
  constexpr value_type operator()() const noexcept { return value; }
};
using true_type = integral_constant<bool, true>;
using false_type = integral_constant<bool, false>;
template <bool b>
using bool_constant = integral_constant<bool, b>;
template <size_t v>
using Int = integral_constant<size_t, v>;

// Compile-time arithmetic on Int<>: Int<2>{} * Int<3>{} is Int<6>.
#define ASCSIM_STD_INT_BINARY_OP(OP)                                  \
  template <auto t, auto u>                                           \
  constexpr Int<(t OP u)> operator OP(Int<t>, Int<u>) { return {}; }
ASCSIM_STD_INT_BINARY_OP(+)
ASCSIM_STD_INT_BINARY_OP(-)
ASCSIM_STD_INT_BINARY_OP(*)
ASCSIM_STD_INT_BINARY_OP(/)
ASCSIM_STD_INT_BINARY_OP(%)
#undef ASCSIM_STD_INT_BINARY_OP

template <typename TP, typename Up>
struct is_same : public false_type {};
template <typename TP>
struct is_same<TP, TP> : public true_type {};
template <typename TP, typename Up>
constexpr bool is_same_v = false;
template <typename TP>
constexpr bool is_same_v<TP, TP> = true;
template <typename Tp, typename Up>
using IsSame = bool_constant<is_same_v<Tp, Up>>;
template <typename Tp, typename Up>
using IsNotSame = bool_constant<!is_same_v<Tp, Up>>;

template <bool Bp, typename If, typename Then>
struct conditional {
  using type = If;
};
template <typename If, typename Then>
struct conditional<false, If, Then> {
  using type = Then;
};
template <bool Bp, typename If, typename Then>
using conditional_t = typename conditional<Bp, If, Then>::type;

template <bool, typename Tp = void>
struct enable_if {};
template <typename Tp>
struct enable_if<true, Tp> {
  using type = Tp;
};
template <bool Bp, typename Tp = void>
using enable_if_t = typename enable_if<Bp, Tp>::type;

template <typename T> struct remove_const { using type = T; };
template <typename T> struct remove_const<const T> { using type = T; };
template <typename T> using remove_const_t = typename remove_const<T>::type;
template <typename T> struct remove_volatile { using type = T; };
template <typename T> struct remove_volatile<volatile T> { using type = T; };
template <typename T> using remove_volatile_t = typename remove_volatile<T>::type;
template <typename T> struct remove_cv { using type = remove_const_t<remove_volatile_t<T>>; };
template <typename T> using remove_cv_t = typename remove_cv<T>::type;
template <typename T> struct remove_reference { using type = T; };
template <typename T> struct remove_reference<T&> { using type = T; };
template <typename T> struct remove_reference<T&&> { using type = T; };
template <typename T> using remove_reference_t = typename remove_reference<T>::type;
template <typename T> struct remove_cvref { using type = remove_cv_t<remove_reference_t<T>>; };
template <typename T> using remove_cvref_t = typename remove_cvref<T>::type;

template <typename T, typename... Tps>
constexpr bool kUnqualifiedAnyOf = (... || is_same_v<remove_cv_t<T>, Tps>);

template <typename T>
struct is_integral
    : bool_constant<kUnqualifiedAnyOf<T, bool, unsigned long long, long long, unsigned long, long,
                                      unsigned int, int, unsigned short, short, unsigned char,
                                      signed char, char>> {};
template <typename T, T v>
struct is_integral<integral_constant<T, v>> : true_type {};
template <typename T>
constexpr bool is_integral_v = is_integral<T>::value;

template <typename T>
struct is_floating_point : bool_constant<kUnqualifiedAnyOf<T, float, double, long double, half>> {};
template <typename T>
constexpr bool is_floating_point_v = is_floating_point<T>::value;

template <typename T, typename... Args>
struct is_one_of : public false_type {};
template <typename T, typename Head, typename... Tail>
struct is_one_of<T, Head, Tail...>
    : conditional_t<is_same_v<T, Head>, true_type, is_one_of<T, Tail...>> {};
template <typename T, typename... Args>
inline constexpr bool is_one_of_v = is_one_of<T, Args...>::value;

template <typename T, T... Value>
struct is_one_of_value : public false_type {};
template <typename T, T Value, T Head, T... Tail>
struct is_one_of_value<T, Value, Head, Tail...>
    : conditional_t<Value == Head, true_type, is_one_of_value<T, Value, Tail...>> {};
template <typename T, T... Value>
inline constexpr bool is_one_of_value_v = is_one_of_value<T, Value...>::value;

template <typename T, typename U>
__aicore__ inline constexpr auto min(const T& src0, const U& src1) {
  return (src0 < src1) ? src0 : src1;
}
template <typename T, typename U>
__aicore__ inline constexpr auto max(const T& src0, const U& src1) {
  return (src0 > src1) ? src0 : src1;
}

// (num1 + num2 - 1) / num2 in the operands' common type (no check for num2 == 0, as in CANN).
template <typename T, typename U>
__aicore__ inline constexpr auto ceil_division(const T& num1, const U& num2) {
  return (num1 + num2 - 1) / num2;
}
template <typename T, typename U>
__aicore__ inline constexpr auto ceil_align(const T& num1, const U& num2) {
  return ceil_division(num1, num2) * num2;
}
template <typename T, typename U>
__aicore__ inline constexpr auto divide(const T& num1, const U& num2) {
  return num1 / num2;
}

// Scalar abs / sqrt for the types the scalar unit supports (asc-devkit impl/utils/std/cmath).
template <typename T>
__aicore__ inline T abs(const T src) {
  static_assert(is_one_of<T, int8_t, int16_t, int32_t, float, int64_t>(),
                "current data type is not supported on current device!");
  return src < T(0) ? static_cast<T>(-src) : src;
}
template <typename T>
__aicore__ inline T sqrt(const T src) {
  static_assert(is_one_of<T, float, int64_t>(), "current data type is not supported on current device!");
  return static_cast<T>(std::sqrt(static_cast<double>(src)));
}

// Std::tuple, make_tuple, get<N>, tuple_size, tuple_element: asc-devkit include/utils/std/tuple.h
// and docs Utils-API/CPP标准库/容器函数/{tuple,make_tuple,get1}.md (a heterogeneous aggregate,
// get<N> by const index returning a reference, tuple_size<...>::value; the page's example carries
// LocalTensors and GlobalTensors in one). CANN builds its own recursive class because the device
// has no libstdc++; on the CPU std's has the same interface, so it is used as is. Not enforced:
// the documented limit of 64 elements.
template <typename... Tps>
using tuple = std::tuple<Tps...>;
using std::get;
using std::make_tuple;
using std::tuple_element;
using std::tuple_size;

}  // namespace Std
}  // namespace AscendC
