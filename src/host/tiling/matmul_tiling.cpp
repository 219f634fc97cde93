// Matmul tiling (tiling/tiling_api.h): splits M x N over the cores, then picks the base block
// (baseM x baseN x baseK, one Mmad) and the L1 factors (CANN's rule, matmul_l1_factors.h) so that
// every buffer the Matmul API (lib/matmul_intf.h) allocates fits the profile:
//   L0A: baseM * baseK * sizeof(A) * dbL0A (2)      <= L0A
//   L0B: baseK * baseN * sizeof(B) * dbL0B (2)      <= L0B
//   L0C: baseM * baseN * 4 * dbL0C (1)              <= L0C
//   BT:  baseN * 4 (bias)                           <= BiasTable
//   L1:  A1 + B1 tiles * depth + bias row           <= L1
// These are the TCubeTiling constraints of the asc-devkit doc "TCubeTiling结构体" (表2), with the
// recommended (128, 256, 64) base for 16-bit inputs. The multi-core split is CANN's
// (matmul_core_split.h); the base block is ascsim's choice, not CANN's byte for byte
// (docs/cube.md explains both).
#include <algorithm>
#include <cstdio>
#include <limits>

#include "ascsim/ceil_align.h"
#include "ascsim/soc.h"
#include "matmul_core_split.h"
#include "matmul_l1_factors.h"
#include "tiling/tiling_api.h"

namespace matmul_tiling {
namespace {

int32_t Align(int32_t v, int32_t a) { return ascsim::AlignUp(v, a); }
int32_t CeilDiv(int32_t a, int32_t b) { return ascsim::CeilDiv(a, b); }

int32_t TypeBytes(DataType t) {
  switch (t) {
    case DataType::DT_FLOAT:
    case DataType::DT_INT32:
    case DataType::DT_UINT32:
      return 4;
    case DataType::DT_INT8:
    case DataType::DT_UINT8:
    case DataType::DT_INT4:
    case DataType::DT_HIFLOAT8:
    case DataType::DT_FLOAT8_E4M3FN:
    case DataType::DT_FLOAT8_E5M2:
      return 1;
    default:
      return 2;  // float16, bf16, int16
  }
}

void Complain(const char* what) { std::fprintf(stderr, "matmul_tiling: %s\n", what); }

// The sizes a PlatformAscendC describes, as the PlatformInfo the other constructor takes.
PlatformInfo PlatformInfoOf(const platform_ascendc::PlatformAscendC& platform) {
  const ascsim::SocProfile& p = platform.Profile();
  PlatformInfo info;
  info.socVersion = platform.GetSocVersion();
  info.l1Size = ascsim::MemoryBytes(p, ascsim::Memory::kL1);
  info.l0CSize = ascsim::MemoryBytes(p, ascsim::Memory::kL0C);
  info.ubSize = ascsim::MemoryBytes(p, ascsim::Memory::kUb);
  info.l0ASize = ascsim::MemoryBytes(p, ascsim::Memory::kL0A);
  info.l0BSize = ascsim::MemoryBytes(p, ascsim::Memory::kL0B);
  return info;
}

}  // namespace

MatmulApiTilingBase::MatmulApiTilingBase()
    : MatmulApiTilingBase(*platform_ascendc::PlatformAscendCManager::GetInstance()) {}

MatmulApiTilingBase::MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& ascendcPlatform)
    : MatmulApiTilingBase(PlatformInfoOf(ascendcPlatform)) {
  platform_ = &ascendcPlatform;
  // PlatformInfo carries no BiasTable size (that constructor takes A2's 1 KiB); the platform
  // knows its own (none on the 310P).
  bufferPool_.btSize =
      static_cast<int32_t>(ascsim::MemoryBytes(ascendcPlatform.Profile(), ascsim::Memory::kBt));
  oriBufferPool_ = bufferPool_;
}

MatmulApiTilingBase::MatmulApiTilingBase(const PlatformInfo& platform) {
  bufferPool_ = BufferPool{static_cast<int32_t>(platform.l1Size),
                           static_cast<int32_t>(platform.l0CSize),
                           static_cast<int32_t>(platform.ubSize),
                           static_cast<int32_t>(platform.l0ASize),
                           static_cast<int32_t>(platform.l0BSize),
                           1024,
                           32,
                           64,
                           512,
                           512,
                           32};
  oriBufferPool_ = bufferPool_;
  adjust_ = {-1, -1, -1, -1, -1, -1};
  socVersion = platform.socVersion;
}

MatmulApiTilingBase::~MatmulApiTilingBase() = default;

int32_t MatmulApiTilingBase::SetAType(TPosition pos, CubeFormat type, DataType dataType,
                                      bool isTrans) {
  aType_.pos = pos;
  aType_.type = type;
  aType_.dataType = dataType;
  aType_.isTrans = isTrans;
  aSet_ = true;
  return 0;
}
int32_t MatmulApiTilingBase::SetBType(TPosition pos, CubeFormat type, DataType dataType,
                                      bool isTrans) {
  bType_.pos = pos;
  bType_.type = type;
  bType_.dataType = dataType;
  bType_.isTrans = isTrans;
  bSet_ = true;
  return 0;
}
int32_t MatmulApiTilingBase::SetScaleAType(TPosition, CubeFormat, bool) { return -1; }
int32_t MatmulApiTilingBase::SetScaleBType(TPosition, CubeFormat, bool) { return -1; }
int32_t MatmulApiTilingBase::SetCType(TPosition pos, CubeFormat type, DataType dataType) {
  cType_.pos = pos;
  cType_.type = type;
  cType_.dataType = dataType;
  cSet_ = true;
  return 0;
}
int32_t MatmulApiTilingBase::SetBiasType(TPosition pos, CubeFormat type, DataType dataType) {
  biasType_.pos = pos;
  biasType_.type = type;
  biasType_.dataType = dataType;
  return 0;
}
int32_t MatmulApiTilingBase::SetShape(int32_t m, int32_t n, int32_t k) {
  if (m <= 0 || n <= 0 || k <= 0) return -1;
  m_ = m;
  n_ = n;
  k_ = k;
  shapeSet_ = true;
  return 0;
}
int32_t MatmulApiTilingBase::SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKIn) {
  return SetOrgShape(orgMIn, orgNIn, orgKIn, orgKIn);
}
int32_t MatmulApiTilingBase::SetOrgShape(int32_t orgMIn, int32_t orgNIn, int32_t orgKaIn,
                                         int32_t orgKbIn) {
  if (orgMIn <= 0 || orgNIn <= 0 || orgKaIn <= 0 || orgKbIn <= 0) return -1;
  orgM = orgMIn;
  orgN = orgNIn;
  orgKa = orgKaIn;
  orgKb = orgKbIn;
  return 0;
}
int32_t MatmulApiTilingBase::SetALayout(int32_t, int32_t, int32_t, int32_t, int32_t) { return -1; }
int32_t MatmulApiTilingBase::SetBLayout(int32_t, int32_t, int32_t, int32_t, int32_t) { return -1; }
int32_t MatmulApiTilingBase::SetCLayout(int32_t, int32_t, int32_t, int32_t, int32_t) { return -1; }
int32_t MatmulApiTilingBase::SetBatchInfoForNormal(int32_t, int32_t, int32_t, int32_t, int32_t) {
  return -1;
}
int32_t MatmulApiTilingBase::SetBatchNum(int32_t) { return -1; }
int32_t MatmulApiTilingBase::EnableBias(bool isBiasIn) {
  isBias = isBiasIn;
  return 0;
}
int32_t MatmulApiTilingBase::SetBias(bool isBiasIn) { return EnableBias(isBiasIn); }
int32_t MatmulApiTilingBase::SetFixSplit(int32_t baseMIn, int32_t baseNIn, int32_t baseKIn) {
  fixBaseM_ = baseMIn;
  fixBaseN_ = baseNIn;
  fixBaseK_ = baseKIn;
  return 0;
}
int32_t MatmulApiTilingBase::SetBufferSpace(int32_t l1Size, int32_t l0CSize, int32_t ubSize,
                                            int32_t btSize) {
  // -1 keeps the profile's size; a size above it is refused.
  auto pick = [](int32_t want, int32_t have) { return want < 0 ? have : std::min(want, have); };
  if (l1Size > oriBufferPool_.l1Size || l0CSize > oriBufferPool_.l0CSize ||
      ubSize > oriBufferPool_.ubSize) {
    Complain("SetBufferSpace: a size exceeds the platform's buffer");
    return -1;
  }
  bufferPool_.l1Size = pick(l1Size, oriBufferPool_.l1Size);
  bufferPool_.l0CSize = pick(l0CSize, oriBufferPool_.l0CSize);
  bufferPool_.ubSize = pick(ubSize, oriBufferPool_.ubSize);
  bufferPool_.btSize = pick(btSize, oriBufferPool_.btSize);
  return 0;
}
int32_t MatmulApiTilingBase::SetTraverse(MatrixTraverse traverse) {
  traverse_ = traverse;
  return 0;
}
int32_t MatmulApiTilingBase::SetMadType(MatrixMadType madType) {
  madType_ = madType;
  return madType == MatrixMadType::NORMAL ? 0 : -1;  // HF32 / MX are not simulated
}
int32_t MatmulApiTilingBase::SetSplitRange(int32_t maxBaseM, int32_t maxBaseN, int32_t maxBaseK,
                                           int32_t minBaseM, int32_t minBaseN, int32_t minBaseK) {
  adjust_ = {maxBaseM, maxBaseN, maxBaseK, minBaseM, minBaseN, minBaseK};
  return 0;
}
int32_t MatmulApiTilingBase::SetDoubleBuffer(bool, bool, bool, bool, bool, bool) { return 0; }
void MatmulApiTilingBase::SetMatmulConfigParams(int32_t mmConfigTypeIn, bool, ScheduleType s,
                                                MatrixTraverse traverse, bool) {
  mmConfigType = mmConfigTypeIn;
  scheduleType = s;
  if (traverse != MatrixTraverse::NOSET) traverse_ = traverse;
}
void MatmulApiTilingBase::SetMatmulConfigParams(const MatmulConfigParams& c) {
  SetMatmulConfigParams(c.mmConfigType, c.enableL1CacheUB, c.scheduleType, c.traverse,
                        c.enVecND2NZ);
}
int32_t MatmulApiTilingBase::SetSparse(bool isSparseIn) {
  isSparse_ = isSparseIn;
  return isSparseIn ? -1 : 0;
}

bool MatmulApiTilingBase::ChooseBase() {
  const int32_t ea = TypeBytes(aType_.dataType), eb = TypeBytes(bType_.dataType);
  const int32_t c0 = 32 / std::max(ea, 1);
  // baseK granularity (TCubeTiling表2): C0 when A is not transposed and B is, else 16 (and never
  // below C0: the cube reads whole K0 fractals).
  const int32_t k_align = (!aType_.isTrans && bType_.isTrans) ? c0 : std::max(16, c0);
  // M (N) granularity: 32 where int8_t A is transposed (B is not), as CANN's IsNeedAlign does
  // (matmul_tiling_algorithm.cpp: L0 sized with mL0/nL0 aligned to 2 fractals): the kernel's
  // LoadDataWithTranspose moves whole 32 x 32 squares, and an NZ input's block starts at a
  // stripe of 32 int8_t; 16 otherwise.
  const int32_t m_align = (ea == 1 && aType_.isTrans) ? 32 : 16;
  const int32_t n_align = (eb == 1 && !bType_.isTrans) ? 32 : 16;
  int32_t bm = ea == 4 ? 128 : 128, bn = ea == 4 ? 128 : 256,
          bk = ea == 1   ? 128
               : ea == 4 ? 32
                         : 64;
  bm = std::min(bm, Align(singleCoreM, m_align));
  bn = std::min(bn, Align(singleCoreN, n_align));
  bk = std::min(bk, Align(singleCoreK, k_align));
  if (adjust_.maxBaseM > 0) bm = std::min(bm, Align(adjust_.maxBaseM, m_align));
  if (adjust_.maxBaseN > 0) bn = std::min(bn, Align(adjust_.maxBaseN, n_align));
  if (adjust_.maxBaseK > 0) bk = std::min(bk, Align(adjust_.maxBaseK, k_align));
  if (fixBaseM_ > 0) bm = fixBaseM_;
  if (fixBaseN_ > 0) bn = fixBaseN_;
  if (fixBaseK_ > 0) bk = fixBaseK_;
  const int32_t l0a = bufferPool_.l0ASize, l0b = bufferPool_.l0BSize, l0c = bufferPool_.l0CSize;
  // A small M or N leaves L0A/L0B room: take K in bigger steps (fewer Mmads).
  if (fixBaseK_ <= 0) {
    while (bk * 2 <= Align(singleCoreK, k_align) && bm * bk * 2 * ea * 2 <= l0a &&
           bk * 2 * bn * eb * 2 <= l0b && (adjust_.maxBaseK <= 0 || bk * 2 <= adjust_.maxBaseK)) {
      bk *= 2;
    }
  }
  // L1: one A tile and one B tile per depth (rows padded to 32 for the transposing loads).
  const auto l1_need = [&](int32_t m, int32_t n, int32_t k, int32_t depth) {
    const int64_t a_tile = int64_t{Align(m, 32)} * Align(k, 32) * ea;
    const int64_t b_tile = int64_t{Align(k, 32)} * Align(n, 32) * eb;
    return (a_tile + b_tile) * depth + (isBias ? Align(n * 4, 64) : 0);
  };
  // Shrink until the L0 buffers hold them (double-buffered A and B) and L1 holds one of each.
  while (bm * bk * ea * 2 > l0a || bk * bn * eb * 2 > l0b || bm * bn * 4 > l0c ||
         (isBias && bn * 4 > bufferPool_.btSize && bufferPool_.btSize > 0) ||
         l1_need(bm, bn, bk, 1) > bufferPool_.l1Size) {
    // Shrink what SetFixSplit left free: K first (more Mmads of the same block), then the
    // larger of N and M.
    const bool free_k = fixBaseK_ <= 0, free_n = fixBaseN_ <= 0, free_m = fixBaseM_ <= 0;
    if (free_k && bk > k_align) {
      bk = Align(bk / 2, k_align);
    } else if (free_n && bn > n_align && (bn >= bm || !free_m)) {
      bn = Align(bn / 2, n_align);
    } else if (free_m && bm > m_align) {
      bm = Align(bm / 2, m_align);
    } else {
      Complain(fixBaseM_ > 0 || fixBaseN_ > 0 || fixBaseK_ > 0
                   ? "GetTiling: the fixed base block does not fit L0A/L0B/L0C/L1"
                   : "GetTiling: no base block fits L0");
      return false;
    }
  }
  if (bm % 16 != 0 || bn % 16 != 0 || bk % k_align != 0) {
    Complain("GetTiling: baseM and baseN must be multiples of 16 and baseK of the fractal K");
    return false;
  }
  baseM = bm;
  baseN = bn;
  baseK = bk;
  int32_t depth = 2;
  while (depth > 1 && l1_need(bm, bn, bk, depth) > bufferPool_.l1Size) --depth;
  if (l1_need(bm, bn, bk, depth) > bufferPool_.l1Size) {
    Complain("GetTiling: the base block does not fit L1");
    return false;
  }
  // One block of K per tile, as many tiles as fit up to two: where CANN's rule is not ported (or
  // its factors would not fit the buffers ascsim's Matmul takes).
  l1::L1Factors f;
  f.depth_a1 = depth;
  f.depth_b1 = depth;
  l1::L1Factors cann;
  if (l1::ComputeL1Factors(L1FactorInput(), &cann) && MatmulL1Fits(cann)) f = cann;
  tiling_.set_stepM(f.step_m);
  tiling_.set_stepN(f.step_n);
  tiling_.set_stepKa(f.step_ka);
  tiling_.set_stepKb(f.step_kb);
  tiling_.set_depthA1(f.depth_a1);
  tiling_.set_depthB1(f.depth_b1);
  return true;
}

l1::L1Input MatmulApiTilingBase::L1FactorInput() const {
  const auto elem = [](DataType t) {
    switch (t) {
      case DataType::DT_FLOAT:
        return l1::Elem::kFloat;
      case DataType::DT_BF16:
        return l1::Elem::kBf16;
      case DataType::DT_INT8:
        return l1::Elem::kInt8;
      default:
        return l1::Elem::kHalf;
    }
  };
  l1::L1Input in;
  in.single_m = singleCoreM;
  in.single_n = singleCoreN;
  in.single_k = singleCoreK;
  in.whole_k = shapeSet_ ? k_ : orgKa;  // GetSingleK: SetShape's K, else orgKa
  in.core_m = coreM_;
  in.core_n = coreN_;
  in.core_k = coreK_;
  in.base_m = baseM;
  in.base_n = baseN;
  in.base_k = baseK;
  in.a = elem(aType_.dataType);
  in.b = elem(bType_.dataType);
  in.a_trans = aType_.isTrans;
  in.b_trans = bType_.isTrans;
  in.ab_nd = aType_.type == CubeFormat::ND && bType_.type == CubeFormat::ND;
  in.bias = isBias;
  in.bias_bytes = TypeBytes(biasType_.dataType);
  in.l1_bytes = bufferPool_.l1Size;
  in.soc_910b = socVersion == platform_ascendc::SocVersion::ASCEND910B;
  in.split_mn_scenario = splitScenario_;
  return in;
}

bool MatmulApiTilingBase::MatmulL1Fits(const l1::L1Factors& f) const {
  // The buffers ascsim's Matmul takes for these factors (matmul_impl.h EnsureResources): CFG_NORM
  // depthA1 (depthB1) tiles of one base block, CFG_MDL one or two tiles of stepM x stepKa
  // (stepKb x stepN) blocks, a bias row; the larger of the two layouts must fit L1, and NORM's
  // tiles must fit one TPipe's queue slots.
  const int64_t ea = TypeBytes(aType_.dataType), eb = TypeBytes(bType_.dataType);
  const int32_t c0a = 32 / static_cast<int32_t>(ea), c0b = 32 / static_cast<int32_t>(eb);
  const int64_t a_tile =
      std::max(int64_t{Align(baseM, 16)} * Align(baseK, c0a),
               int64_t{Align(baseK, 16)} * Align(baseM, c0a)) * ea;
  const int64_t b_tile =
      std::max(int64_t{Align(baseK, 16)} * Align(baseN, c0b),
               int64_t{Align(baseN, 16)} * Align(baseK, c0b)) * eb;
  const int64_t bias = isBias ? Align(baseN * 4, 64) : 0;
  const int64_t step_a = int64_t{f.step_m} * f.step_ka, step_b = int64_t{f.step_n} * f.step_kb;
  const int64_t mdl = (f.depth_a1 / step_a >= 2 ? 2 : 1) * step_a * a_tile +
                      (f.depth_b1 / step_b >= 2 ? 2 : 1) * step_b * b_tile;
  const int64_t norm = f.depth_a1 * a_tile + f.depth_b1 * b_tile;
  return std::max(mdl, norm) + bias <= bufferPool_.l1Size && f.depth_a1 <= kMaxMatmulL1Tiles &&
         f.depth_b1 <= kMaxMatmulL1Tiles;
}

void MatmulApiTilingBase::Fill(AscendC::tiling::TCubeTiling& t, int32_t cores) const {
  t = AscendC::tiling::TCubeTiling{};
  t.usedCoreNum = cores;
  t.M = orgM;
  t.N = orgN;
  t.Ka = orgKa;
  t.Kb = orgKb;
  t.singleCoreM = singleCoreM;
  t.singleCoreN = singleCoreN;
  t.singleCoreK = singleCoreK;
  t.baseM = baseM;
  t.baseN = baseN;
  t.baseK = baseK;
  t.depthA1 = tiling_.get_depthA1();
  t.depthB1 = tiling_.get_depthB1();
  t.stepM = tiling_.get_stepM();
  t.stepN = tiling_.get_stepN();
  t.stepKa = tiling_.get_stepKa();
  t.stepKb = tiling_.get_stepKb();
  t.isBias = isBias ? 1 : 0;
  t.iterateOrder = traverse_ == MatrixTraverse::FIRSTN ? 1 : 0;
  t.dbL0A = 2;
  t.dbL0B = 2;
  t.dbL0C = 1;
  t.shareL1Size = 0;
  t.shareL0CSize = 0;
  t.shareUbSize = 0;
  t.BatchNum = 0;
}

namespace {
bool CheckTypes(const MatmulApiTilingBase& t) {
  if (!t.aSet_ || !t.bSet_ || !t.cSet_) {
    Complain("GetTiling: SetAType, SetBType and SetCType are required");
    return false;
  }
  if (!t.shapeSet_ && t.orgM <= 0) {
    Complain("GetTiling: SetShape (or SetOrgShape) is required");
    return false;
  }
  return true;
}
}  // namespace

// Process with numOfBlock_ 1 (asc-devkit matmul_tiling_algorithm.cpp): coreStatus m / k / n are
// the single shape in fractals, moved to an extent with enough divisors (FindBestSingleCore
// towards MapShape) when factorSplit is on.
void MatmulApiTilingBase::SetSingleCoreStatus() {
  const int32_t reduce = 32 / TypeBytes(aType_.dataType);
  const int32_t m32 = CeilDiv(singleCoreM, 16), n32 = CeilDiv(singleCoreN, 16);
  const int32_t k32 = CeilDiv(singleCoreK, reduce);
  coreM_ = split::FindBestSingleCore(m32, split::MapShape(m32), 1);
  coreN_ = split::FindBestSingleCore(n32, split::MapShape(n32), 1);
  coreK_ = split::FindBestSingleCore(k32, split::MapShape(k32), 1);
}

// ---- one core ----

int64_t MatmulApiTiling::Compute() {
  if (!CheckTypes(*this)) return -1;
  if (!shapeSet_) {
    m_ = orgM;
    n_ = orgN;
    k_ = orgKa;
  }
  if (orgM <= 0) SetOrgShape(m_, n_, k_);
  singleCoreM = m_;
  singleCoreN = n_;
  singleCoreK = k_;
  SetSingleCoreStatus();
  splitScenario_ = false;
  return ChooseBase() ? 0 : -1;
}

int64_t MatmulApiTiling::GetTiling(AscendC::tiling::TCubeTiling& tiling) {
  if (Compute() != 0) return -1;
  Fill(tiling, 1);
  tiling_.Assign(tiling);
  return 0;
}

int64_t MatmulApiTiling::GetTiling(optiling::TCubeTiling& tiling) {
  AscendC::tiling::TCubeTiling t;
  if (GetTiling(t) != 0) return -1;
  tiling.Assign(t);
  return 0;
}

// ---- several cores ----

int32_t MultiCoreMatmulTiling::SetDim(int32_t dim) {
  if (dim <= 0) return -1;
  // dim may not exceed the launch's block_dim (asc-devkit SetDim docs), itself at most 65535.
  if (dim > 65535) {
    Complain("SetDim: dim is above 65535, the largest block_dim of a launch");
    return -1;
  }
  dim_ = dim;
  blockDim = dim;
  return 0;
}
int32_t MultiCoreMatmulTiling::SetShape(int32_t m, int32_t n, int32_t k) {
  return MatmulApiTilingBase::SetShape(m, n, k);
}
int32_t MultiCoreMatmulTiling::SetSingleShape(int32_t singleMIn, int32_t singleNIn,
                                              int32_t singleKIn) {
  fixSingleM_ = singleMIn;
  fixSingleN_ = singleNIn;
  fixSingleK_ = singleKIn;
  return 0;
}
int32_t MultiCoreMatmulTiling::SetAlignSplit(int32_t alignM, int32_t alignN, int32_t alignK) {
  alignSingleM = alignM > 0 ? alignM : 1;
  alignSingleN = alignN > 0 ? alignN : 1;
  alignSingleK = alignK > 0 ? alignK : 1;
  return 0;
}
int32_t MultiCoreMatmulTiling::GetSingleShape(int32_t& shapeM, int32_t& shapeN, int32_t& shapeK) {
  shapeM = singleCoreM;
  shapeN = singleCoreN;
  shapeK = singleCoreK;
  return 0;
}
int32_t MultiCoreMatmulTiling::GetCoreNum(int32_t& dim, int32_t& mDim, int32_t& nDim) {
  dim = usedCores_;
  mDim = mDim_;
  nDim = nDim_;
  return 0;
}

int64_t MultiCoreMatmulTiling::Compute() {
  if (!CheckTypes(*this)) return -1;
  if (!shapeSet_) {
    m_ = orgM;
    n_ = orgN;
    k_ = orgKa;
  }
  if (orgM <= 0) SetOrgShape(m_, n_, k_);
  // Without SetDim: every AIC of the platform given, else (built from a PlatformInfo) the active
  // profile's.
  const platform_ascendc::PlatformAscendC* platform =
      platform_ != nullptr ? platform_ : platform_ascendc::PlatformAscendCManager::GetInstance();
  const int32_t dim = dim_ > 0 ? dim_ : static_cast<int32_t>(platform->GetCoreNumAic());
  if (fixSingleM_ > 0 || fixSingleN_ > 0 || fixSingleK_ > 0) {
    // SetSingleShape: the shape is the caller's and every SetDim core is counted as used
    // (asc-devkit MatmulTilingAlgorithm::UpdateTiling: coreUse = blockDim with a single shape).
    singleCoreM = fixSingleM_ > 0 ? fixSingleM_ : m_;
    singleCoreN = fixSingleN_ > 0 ? fixSingleN_ : n_;
    usedCores_ = dim;
    splitScenario_ = false;
  } else {
    // CANN's split over M and N (matmul_core_split.h names the source).
    split::SplitInput in;
    in.m = m_;
    in.n = n_;
    in.k = k_;
    in.block_dim = dim;
    in.a_bits = TypeBytes(aType_.dataType) * 8;
    in.b_bits = TypeBytes(bType_.dataType) * 8;
    in.c_bits = TypeBytes(cType_.dataType) * 8;
    in.a_trans = aType_.isTrans;
    in.b_trans = bType_.isTrans;
    in.ab_nz = aType_.type == CubeFormat::NZ || bType_.type == CubeFormat::NZ;
    in.c_nz = cType_.type == CubeFormat::NZ;
    in.l1_bytes = bufferPool_.l1Size;
    in.l0a_bytes = bufferPool_.l0ASize;
    in.l0c_bytes = bufferPool_.l0CSize;
    in.split_mn_soc = socVersion == platform_ascendc::SocVersion::ASCEND910B ||
                      socVersion == platform_ascendc::SocVersion::ASCEND950 ||
                      socVersion == platform_ascendc::SocVersion::ASCEND350;
    in.split_k = enableSplitK_;
    in.set_shape = shapeSet_;
    in.fix_base_m = fixBaseM_ > 0 ? fixBaseM_ : -1;
    in.fix_base_n = fixBaseN_ > 0 ? fixBaseN_ : -1;
    const split::SplitResult r = split::SplitMN(in);
    singleCoreM = r.single_core_m;
    singleCoreN = r.single_core_n;
    usedCores_ = r.m_dim * r.n_dim;
    coreM_ = r.core_m;
    coreN_ = r.core_n;
    coreK_ = r.core_k;
    splitScenario_ = l1::SplitScenario(in.split_mn_soc, enableSplitK_, shapeSet_, false, dim,
                                       orgM, orgN);
  }
  singleCoreK = fixSingleK_ > 0 ? fixSingleK_ : k_;  // K is not split across cores
  // One core (SetDim(1)) or SetSingleShape: CANN's single-core status (Process, numOfBlock_ 1).
  if (fixSingleM_ > 0 || fixSingleN_ > 0 || fixSingleK_ > 0 || dim == 1) SetSingleCoreStatus();
  // GetCoreNum (asc-devkit bmm_tiling.cpp): the cores each axis needs for the single shape.
  mDim_ = CeilDiv(m_, singleCoreM);
  nDim_ = CeilDiv(n_, singleCoreN);
  return ChooseBase() ? 0 : -1;
}

int64_t MultiCoreMatmulTiling::GetTiling(AscendC::tiling::TCubeTiling& tiling) {
  if (Compute() != 0) return -1;
  Fill(tiling, usedCores_);
  tiling_.Assign(tiling);
  return 0;
}

int64_t MultiCoreMatmulTiling::GetTiling(optiling::TCubeTiling& tiling) {
  AscendC::tiling::TCubeTiling t;
  if (GetTiling(t) != 0) return -1;
  tiling.Assign(t);
  return 0;
}

}  // namespace matmul_tiling

namespace {
// The Matmul API of ascsim needs no UB, L1 or L0C beyond what its TPipe buffers take.
int32_t NoTmpBuf(matmul_tiling::SysTilingTempBufSize& bufSize) {
  bufSize = matmul_tiling::SysTilingTempBufSize{};
  return 0;
}
}  // namespace

extern "C" {
int32_t MatmulGetTmpBufSize(optiling::TCubeTiling&, matmul_tiling::SysTilingTempBufSize& b) {
  return NoTmpBuf(b);
}
int32_t MatmulGetTmpBufSizeV2(AscendC::tiling::TCubeTiling&,
                              matmul_tiling::SysTilingTempBufSize& b) {
  return NoTmpBuf(b);
}
int32_t MultiCoreMatmulGetTmpBufSize(optiling::TCubeTiling&,
                                     matmul_tiling::SysTilingTempBufSize& b) {
  return NoTmpBuf(b);
}
int32_t MultiCoreMatmulGetTmpBufSizeV2(AscendC::tiling::TCubeTiling&,
                                       matmul_tiling::SysTilingTempBufSize& b) {
  return NoTmpBuf(b);
}
}
