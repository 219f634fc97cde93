// BEGIN_TILING_DATA_DEF on the host: the SaveToBuffer layout (fields aligned to their size by
// placeholders, nested structs to 8, the whole padded to 8), the accessors, the registries, and
// the kernel class KernelTilingHeader generates from it, checked field by field against a C++
// struct with the same members.
#include "register/tilingdata_base.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ascsim/error.h"
#include "op/tools/kernel_tiling_header.h"
#include "op/framework.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(TdbInner)
TILING_DATA_FIELD_DEF(int32_t, a);
TILING_DATA_FIELD_DEF(int16_t, b);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(TdbInnerOp, TdbInner)

BEGIN_TILING_DATA_DEF(TdbTiling)
TILING_DATA_FIELD_DEF(uint8_t, flag);
TILING_DATA_FIELD_DEF(int64_t, total);
TILING_DATA_FIELD_DEF(float, scale);
TILING_DATA_FIELD_DEF_ARR(uint16_t, 3, tiles);
TILING_DATA_FIELD_DEF_STRUCT(TdbInner, inner);
TILING_DATA_FIELD_DEF(uint8_t, last);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(TdbOp, TdbTiling)

BEGIN_TILING_DATA_DEF(TdbKeyed)
TILING_DATA_FIELD_DEF(uint32_t, only);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(TdbOp_7, TdbKeyed)
}  // namespace optiling

namespace {

using ::testing::HasSubstr;

// The same members as TdbTiling with natural C++ alignment: CANN's rule (align each field to its
// size, structs to 8, the whole to 8) gives these offsets.
struct alignas(8) InnerRef {
  int32_t a;
  int16_t b;
};
struct alignas(8) TilingRef {
  uint8_t flag;
  int64_t total;
  float scale;
  uint16_t tiles[3];
  InnerRef inner;
  uint8_t last;
};

std::vector<uint8_t> Saved(optiling::TilingDef& t) {
  std::vector<uint8_t> bytes(t.GetDataSize());
  t.SaveToBuffer(bytes.data(), bytes.size());
  return bytes;
}

template <class T>
T Read(const std::vector<uint8_t>& bytes, size_t offset) {
  T v;
  std::memcpy(&v, bytes.data() + offset, sizeof(T));
  return v;
}

TEST(TilingDataBase, LayoutIsCannsAndMatchesTheCppStruct) {
  optiling::TdbTiling t;
  EXPECT_EQ(t.GetDataSize(), sizeof(TilingRef));
  EXPECT_EQ(t.GetDataSize() % 8, 0u);
  t.set_flag(7);
  t.set_total(-(int64_t{1} << 40) + 5);
  t.set_scale(1.5f);
  uint16_t tiles[3] = {11, 22, 33};
  t.set_tiles(tiles);
  t.inner.set_a(-9);
  t.inner.set_b(300);
  t.set_last(200);
  const std::vector<uint8_t> b = Saved(t);
  EXPECT_EQ(Read<uint8_t>(b, offsetof(TilingRef, flag)), 7);
  EXPECT_EQ(Read<int64_t>(b, offsetof(TilingRef, total)), -(int64_t{1} << 40) + 5);
  EXPECT_EQ(Read<float>(b, offsetof(TilingRef, scale)), 1.5f);
  EXPECT_EQ(Read<uint16_t>(b, offsetof(TilingRef, tiles) + 4), 33);
  EXPECT_EQ(Read<int32_t>(b, offsetof(TilingRef, inner)), -9);
  EXPECT_EQ(Read<int16_t>(b, offsetof(TilingRef, inner) + 4), 300);
  EXPECT_EQ(Read<uint8_t>(b, offsetof(TilingRef, last)), 200);
  EXPECT_EQ(t.get_total(), -(int64_t{1} << 40) + 5);
  EXPECT_EQ(t.get_tiles()[1], 22);
  EXPECT_EQ(std::string(t.GetTilingClassName()), "TdbTiling");
}

TEST(TilingDataBase, FieldInfoHasTheGeneratedPlaceholders) {
  optiling::TdbTiling t;
  std::vector<std::string> names;
  for (const optiling::FieldInfo& f : t.GetFieldInfo()) {
    names.push_back(std::string(f.name_) + ":" + f.classType_ + ":" + f.dtype_);
  }
  EXPECT_THAT(names,
              ::testing::ElementsAre("flag:0:uint8_t", "totalPH:1:uint8_t", "total:0:int64_t",
                                     "scale:0:float", "tiles:1:uint16_t", "innerPH:1:uint8_t",
                                     "inner:2:struct", "last:0:uint8_t", "TdbTilingPH:1:uint8_t"));
}

TEST(TilingDataBase, SaveToBufferRefusesASmallBufferAndSaysSo) {
  optiling::TdbTiling t;
  ascsim::op::OpFramework::Get().TakeErrors();
  std::vector<uint8_t> small(8, 0xAB);
  t.SaveToBuffer(small.data(), small.size());
  EXPECT_EQ(small[0], 0xAB);  // nothing copied
  const std::vector<std::string> errors = ascsim::op::OpFramework::Get().TakeErrors();
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0], "TilingDef::SaveToBuffer: tiling struct TdbTiling needs " +
                           std::to_string(sizeof(TilingRef)) +
                           " B but the tiling buffer holds 8 B (nothing was copied)");
  uint16_t* null_tiles = nullptr;
  t.set_tiles(null_tiles);
  EXPECT_THAT(ascsim::op::OpFramework::Get().TakeErrors(),
              ::testing::ElementsAre(HasSubstr("TILING_DATA_FIELD_DEF_ARR memcpy is failed")));
}

TEST(TilingDataBase, FactoryCreatesByOpTypeAndKnowsStructSizes) {
  auto inst = optiling::CTilingDataClassFactory::GetInstance().CreateTilingDataInstance("TdbOp");
  ASSERT_NE(inst, nullptr);
  EXPECT_EQ(std::string(inst->GetTilingClassName()), "TdbTiling");
  EXPECT_EQ(optiling::CTilingDataClassFactory::GetInstance().CreateTilingDataInstance("NoOp"),
            nullptr);
  EXPECT_EQ(optiling::StructSizeInfoBase::GetInstance().GetStructSize("TdbInner"), 8u);
  EXPECT_THROW(optiling::StructSizeInfoBase::GetInstance().GetStructSize("Unknown"),
               ascsim::InvalidArgument);
}

TEST(KernelTilingHeader, ClassesInDependencyOrderWithTheDefaultAlias) {
  const std::string h = ascsim::op::KernelTilingHeader("TdbOp");
  const size_t inner = h.find("class TdbInner {");
  const size_t outer = h.find("class TdbTiling {");
  ASSERT_NE(inner, std::string::npos) << h;
  ASSERT_NE(outer, std::string::npos) << h;
  EXPECT_LT(inner, outer);
  EXPECT_THAT(h, HasSubstr("class TdbTiling {\n public:\n  uint8_t flag;\n  uint8_t totalPH[7];\n"
                           "  int64_t total;\n  float scale;\n  uint16_t tiles[3];\n"
                           "  uint8_t innerPH[6];\n  TdbInner inner;\n  uint8_t last;\n"
                           "  uint8_t TdbTilingPH[7];\n} __attribute__((__may_alias__));\n"));
  EXPECT_THAT(h, HasSubstr("class TdbInner {\n public:\n  int32_t a;\n  int16_t b;\n"
                           "  uint8_t TdbInnerPH[2];\n};\n"));
  EXPECT_THAT(h, HasSubstr("class TdbKeyed {"));  // the struct of key 7
  EXPECT_THAT(h, HasSubstr("using AscendCDefaultTilingStruct = TdbTiling;\n"));
  EXPECT_EQ(ascsim::op::KernelTilingHeader("NoSuchOp"), "");
}

}  // namespace
