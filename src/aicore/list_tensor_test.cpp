// ListTensorDesc / TensorDesc (list_tensor.h): shapes and pointers decoded, and the error paths.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "aicore_test_util.h"
#include "ascsim/half.h"
#include "kernel_operator.h"

namespace {

using ascsim_test::CoreFixture;
using ascsim_test::DeviceBuffer;
using ascsim_test::ErrorOf;

TEST(ListTensor, DecodesShapesAndPointers) {
  CoreFixture fx;
  DeviceBuffer t0(6 * 4), t1(20 * 4), t2(2 * 4);
  const uint64_t shapes[3][2] = {{2, 3}, {4, 5}, {1, 2}};
  DeviceBuffer desc(13 * 8);
  uint64_t* w = desc.as<uint64_t>();
  w[0] = 8 * (1 + 3 * 3);  // the pointer array follows three (dim, shape, shape) records
  for (uint64_t i = 0; i < 3; ++i) {
    w[1 + 3 * i] = 2 | ((i == 0 ? 3 : i) << 32);
    w[2 + 3 * i] = shapes[i][0];
    w[3 + 3 * i] = shapes[i][1];
  }
  w[10] = reinterpret_cast<uint64_t>(t0.gm());
  w[11] = reinterpret_cast<uint64_t>(t1.gm());
  w[12] = reinterpret_cast<uint64_t>(t2.gm());
  AscendC::ListTensorDesc list(reinterpret_cast<__gm__ void*>(desc.gm()));
  EXPECT_EQ(list.GetSize(), 3u);
  EXPECT_EQ(list.GetDataPtr<float>(1), t1.as<float>());
  uint64_t shape[8];
  AscendC::TensorDesc<float> td;
  td.SetShapeAddr(shape);
  list.GetDesc(td, 1);
  EXPECT_EQ(td.GetDim(), 2u);
  EXPECT_EQ(td.GetIndex(), 1u);
  EXPECT_EQ(td.GetShape(0), 4u);
  EXPECT_EQ(td.GetShape(1), 5u);
  AscendC::GlobalTensor<float> g = td.GetDataObj();
  g.SetValue(19, 1.5f);
  EXPECT_EQ(t1.as<float>()[19], 1.5f);
  // Checked against the descriptor's own size and count.
  AscendC::ListTensorDesc checked;
  checked.Init(reinterpret_cast<__gm__ void*>(desc.gm()), 13 * 8, 3);
  EXPECT_NE(ErrorOf([&] {
              checked.Init(reinterpret_cast<__gm__ void*>(desc.gm()), 13 * 8, 4);
            }).find("do not match the descriptor (3 tensors, 104 B)"),
            std::string::npos);
  EXPECT_EQ(ErrorOf([&] { list.GetDataPtr<float>(3); }),
            "test: block 0/1: ListTensorDesc::GetDataPtr(3): the list holds 3 tensors");
  EXPECT_EQ(ErrorOf([&] { td.GetShape(2); }),
            "test: block 0/1: TensorDesc::GetShape(2): the tensor has 2 dims");
  std::vector<uint64_t> host(13);
  EXPECT_NE(ErrorOf([&] { AscendC::ListTensorDesc bad(host.data()); }).find("is not device memory"),
            std::string::npos);
}

}  // namespace
