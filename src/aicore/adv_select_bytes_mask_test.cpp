// Select with a byte mask / SelectWithBytesMask (ascsim/adv/select_bytes_mask.h): a scalar
// reference, both dtypes, every mask type, masks wider than the rows, both operand orders, the
// smallest temporary buffer (several pieces per row), and every documented error.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"

namespace {

using ascsim_test::CoreFixture;
using ascsim_test::ErrorOf;
using ascsim_test::Fill;
using ascsim_test::RandomVector;
using ::testing::HasSubstr;

template <class T, class U>
void CheckSelect(uint32_t rows, uint32_t k, uint32_t mk, uint32_t tmp_bytes, bool scalar_first,
                 bool old_name) {
  SCOPED_TRACE(std::string(sizeof(T) == 2 ? "half" : "float") + " mask of " +
               std::to_string(sizeof(U)) + " B rows=" + std::to_string(rows) +
               " k=" + std::to_string(k) + " mk=" + std::to_string(mk) +
               " tmp=" + std::to_string(tmp_bytes) + (scalar_first ? " scalar-first" : ""));
  CoreFixture fx(192 * 1024);
  auto src = fx.Take<T>(rows * k), dst = fx.Take<T>(rows * k);
  auto mask = fx.Take<U>(rows * mk);
  auto tmp = fx.Take<uint8_t>(tmp_bytes);
  const auto x = RandomVector<T>(rows * k, -4, 4, rows * k + mk);
  Fill(src, x);
  std::vector<U> mv(rows * mk);
  for (uint32_t i = 0; i < mv.size(); ++i) {
    // zeros, ones and large values (a 0x100-multiple would vanish if the mask were truncated)
    const uint32_t r = (i * 2654435761u) >> 27;
    if constexpr (std::is_same_v<U, bool>) {
      mv[i] = r % 3 == 0;
    } else {
      mv[i] = static_cast<U>(
          r % 3 == 0 ? 0 : (r % 3 == 1 ? 1 : (sizeof(U) > 1 ? 0x100 * r + 0x100 : 0x80)));
    }
  }
  Fill(mask, mv);
  const T scalar = T(-7.5f);
  if (scalar_first) {
    if (old_name) {
      AscendC::SelectWithBytesMask(dst, scalar, src, mask, tmp, [&] {
        AscendC::SelectWithBytesMaskShapeInfo i;
        i.firstAxis = rows;
        i.srcLastAxis = k;
        i.maskLastAxis = mk;
        return i;
      }());
    } else {
      AscendC::SelectWithBytesMaskShapeInfo i;
      i.firstAxis = rows;
      i.srcLastAxis = k;
      i.maskLastAxis = mk;
      AscendC::Select(dst, scalar, src, mask, tmp, i);
    }
  } else {
    AscendC::SelectWithBytesMaskShapeInfo i;
    i.firstAxis = rows;
    i.srcLastAxis = k;
    i.maskLastAxis = mk;
    if (old_name) {
      AscendC::SelectWithBytesMask(dst, src, scalar, mask, tmp, i);
    } else {
      AscendC::Select(dst, src, scalar, mask, tmp, i);
    }
  }
  int wrong = 0;
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < k; ++c) {
      const bool zero = mv[r * mk + c] == U(0);
      const T want = (zero != scalar_first) ? x[r * k + c] : scalar;
      if (float(dst.GetValue(r * k + c)) != float(want) && ++wrong < 5) {
        ADD_FAILURE() << "row " << r << " col " << c << ": got " << float(dst.GetValue(r * k + c))
                      << ", want " << float(want);
      }
    }
  }
  EXPECT_EQ(wrong, 0);
}

TEST(AdvSelectBytesMask, BothDtypesEveryMaskType) {
  CheckSelect<float, bool>(3, 40, 64, 1024, false, false);
  CheckSelect<half, bool>(5, 48, 64, 1024, false, true);
  CheckSelect<float, uint8_t>(2, 32, 32, 2048, true, false);
  CheckSelect<half, int8_t>(3, 32, 32, 1024, true, true);
  CheckSelect<float, int16_t>(3, 24, 32, 1024, false, false);
  CheckSelect<half, uint16_t>(1, 64, 64, 1024, false, true);
  CheckSelect<float, int32_t>(3, 16, 16, 1024, true, false);
  CheckSelect<half, uint32_t>(2, 16, 16, 1024, false, false);
}

TEST(AdvSelectBytesMask, RowsLongerThanOnePiece) {
  // 1024 B of tmp: (1024 - 256) / 2 = 384 halfs per piece, so a 1000-element row takes three.
  CheckSelect<half, uint8_t>(3, 1008, 1024, 1024, false, false);
  CheckSelect<float, int32_t>(2, 520, 528, 1024, true, true);
}

TEST(AdvSelectBytesMask, Errors) {
  CoreFixture fx;
  auto src = fx.Take<float>(64), dst = fx.Take<float>(64);
  auto mask = fx.Take<uint8_t>(64), tmp = fx.Take<uint8_t>(1024), small = fx.Take<uint8_t>(512);
  AscendC::SelectWithBytesMaskShapeInfo info;
  info.firstAxis = 2;
  info.srcLastAxis = 32;
  info.maskLastAxis = 32;
  AscendC::Select(dst, src, 1.0f, mask, tmp, info);  // valid
  EXPECT_THAT(ErrorOf([&] { AscendC::Select(dst, src, 1.0f, mask, small, info); }),
              HasSubstr("Select: sharedTmpBuffer holds 512 B, less than the 1024 B"));
  info.firstAxis = 3;
  EXPECT_THAT(ErrorOf([&] { AscendC::Select(dst, src, 1.0f, mask, tmp, info); }),
              HasSubstr("Select (byte mask): firstAxis * srcLastAxis is 96, not the srcTensor "
                        "size 64 (firstAxis 3, srcLastAxis 32, maskLastAxis 32)"));
  info.firstAxis = 2;
  info.maskLastAxis = 48;
  EXPECT_THAT(ErrorOf([&] { AscendC::SelectWithBytesMask(dst, src, 1.0f, mask, tmp, info); }),
              HasSubstr("firstAxis * maskLastAxis is 96, not the mask size 64"));
  auto wide = fx.Take<uint8_t>(2 * 40);
  info.maskLastAxis = 40;
  EXPECT_THAT(ErrorOf([&] { AscendC::Select(dst, src, 1.0f, wide, tmp, info); }),
              HasSubstr("maskLastAxis must be 32 B aligned and a multiple of 16"));
  auto narrow = fx.Take<uint8_t>(2 * 16);
  info.maskLastAxis = 16;
  EXPECT_THAT(ErrorOf([&] { AscendC::Select(dst, src, 1.0f, narrow, tmp, info); }),
              HasSubstr("maskLastAxis is smaller than srcLastAxis"));
  auto s12 = fx.Take<float>(24), d12 = fx.Take<float>(24);
  auto m16 = fx.Take<uint8_t>(2 * 32);
  info.srcLastAxis = 12;
  info.maskLastAxis = 32;
  EXPECT_THAT(ErrorOf([&] { AscendC::Select(d12, s12, 1.0f, m16, tmp, info); }),
              HasSubstr("srcLastAxis must be 32 B aligned"));
  auto d8 = fx.Take<float>(8);
  info.srcLastAxis = 32;
  EXPECT_THAT(ErrorOf([&] { AscendC::Select(d8, src, 1.0f, mask, tmp, info); }),
              HasSubstr("Select (byte mask): dst holds 8 elements; 64 needed"));
}

}  // namespace
