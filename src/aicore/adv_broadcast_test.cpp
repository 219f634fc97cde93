// Broadcast / BroadCast along the last axis into rows that are not whole 32-byte blocks (the
// 0_introduction 7_broadcast sample's [16, 1] -> [16, 3]), both float types and int8, against a
// scalar reference; and the values stay ordered before the vector pipe's next use.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "aicore_test_util.h"
#include "kernel_operator.h"

namespace {

using ascsim_test::CoreFixture;

template <class T>
void CheckUnalignedRows(uint32_t m, uint32_t k) {
  CoreFixture fx;
  auto src = fx.Take<T>(((m * sizeof(T) + 31) / 32) * 32 / sizeof(T));
  auto dst = fx.Take<T>(((m * k * sizeof(T) + 31) / 32) * 32 / sizeof(T));
  auto tmp = fx.Take<uint8_t>(2048);
  std::vector<T> col(src.GetSize());
  for (uint32_t i = 0; i < m; ++i) col[i] = static_cast<T>(static_cast<float>(i % 7) - 3.0f);
  for (uint32_t i = 0; i < col.size(); ++i) src.SetValue(i, col[i]);
  const uint32_t dstShape[2] = {m, k}, srcShape[2] = {m, 1};
  AscendC::BroadCast<T, 2, 1>(dst, src, dstShape, srcShape, tmp);
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < k; ++j) {
      ASSERT_EQ(static_cast<float>(dst.GetValue(i * k + j)), static_cast<float>(col[i]))
          << "row " << i << " column " << j;
    }
  }
  // The form without a buffer of its own gives the same.
  AscendC::Duplicate(dst, static_cast<T>(0), static_cast<int32_t>(dst.GetSize()));
  AscendC::Broadcast<T, 2, 1>(dst, src, dstShape, srcShape);
  for (uint32_t i = 0; i < m * k; ++i) {
    ASSERT_EQ(static_cast<float>(dst.GetValue(i)), static_cast<float>(col[i / k])) << i;
  }
}

TEST(AdvBroadcast, LastAxisIntoUnalignedRows) {
  CheckUnalignedRows<half>(16, 3);
  CheckUnalignedRows<half>(5, 17);
  CheckUnalignedRows<float>(9, 3);
  CheckUnalignedRows<float>(4, 13);
  CheckUnalignedRows<int8_t>(6, 31);
}

}  // namespace
