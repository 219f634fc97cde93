// The shadow's size follows the distinct ordering facts of the bytes, not the number of accesses:
// a kernel that works on its tiles in small strips (many calls per sync epoch) keeps a handful of
// segments per buffer, so the sanitizer's full check costs the same per call however long the
// block is (issue #22's long blocks).
#include "aicore/sanitizer/shadow.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace {

using ascsim::aicore::AccessRef;
using ascsim::aicore::Shadow;
using ascsim::aicore::ShadowState;

AccessRef Ref(uint32_t call, uint32_t epoch, uint8_t pipe) {
  AccessRef r;
  r.call = call;
  r.epoch = epoch;
  r.pipe = pipe;
  return r;
}

void Write(Shadow& s, uint64_t b, uint64_t e, const AccessRef& ref) {
  s.Apply(b, e, [&](ShadowState& st) {
    st.has_write = true;
    st.write = ref;
    st.read_mask = 0;
    st.init = true;
  });
}

void Read(Shadow& s, uint64_t b, uint64_t e, const AccessRef& ref) {
  s.Apply(b, e, [&](ShadowState& st) {
    st.reads[ref.pipe] = ref;
    st.read_mask = static_cast<uint8_t>(st.read_mask | (1u << ref.pipe));
  });
}

constexpr uint8_t kV = 1;
constexpr uint64_t kTile = 32768, kStrip = 2048;

// Tile after tile (one V epoch each), strip after strip: reads then writes of every strip, calls
// numbered as they come. The shadow never holds more than the old and the new epoch's pieces.
TEST(SanitizerShadow, StripsOfOneEpochStayAFewSegments) {
  Shadow s;
  uint32_t call = 0;
  size_t most = 0;
  for (uint32_t tile = 1; tile <= 64; ++tile) {
    for (uint64_t o = 0; o < kTile; o += kStrip) {
      Read(s, o, o + kStrip, Ref(++call, tile, kV));
      Write(s, o, o + kStrip, Ref(++call, tile, kV));
      Read(s, o, o + kStrip, Ref(++call, tile, kV));
      most = std::max(most, s.segments());
    }
    EXPECT_EQ(s.segments(), 1u) << "tile " << tile;
  }
  EXPECT_LE(most, 3u);
}

// Strips in a reverse and an interleaved order split and merge the same way.
TEST(SanitizerShadow, StripsInAnyOrderMergeBack) {
  Shadow s;
  Write(s, 0, kTile, Ref(1, 1, kV));
  uint32_t call = 1;
  for (uint64_t o = kTile; o > 0; o -= kStrip) Write(s, o - kStrip, o, Ref(++call, 2, kV));
  EXPECT_EQ(s.segments(), 1u);
  for (uint64_t o = 0; o < kTile; o += 2 * kStrip) Write(s, o, o + kStrip, Ref(++call, 3, kV));
  EXPECT_EQ(s.segments(), kTile / kStrip);  // alternating epochs 3 and 2: nothing to merge
  for (uint64_t o = kStrip; o < kTile; o += 2 * kStrip) Write(s, o, o + kStrip, Ref(++call, 3, kV));
  EXPECT_EQ(s.segments(), 1u);
}

// GM streamed tile by tile: one segment per distinct epoch, however many calls each tile takes.
TEST(SanitizerShadow, StreamedTilesTakeOneSegmentPerEpoch) {
  Shadow s(/*untouched_init=*/true);
  uint32_t call = 0;
  constexpr uint8_t kMte2 = 4;
  for (uint32_t tile = 0; tile < 256; ++tile) {
    for (uint64_t o = 0; o < kTile; o += kStrip) {
      Read(s, tile * kTile + o, tile * kTile + o + kStrip, Ref(++call, tile + 1, kMte2));
    }
  }
  EXPECT_EQ(s.segments(), 256u);
}

}  // namespace
