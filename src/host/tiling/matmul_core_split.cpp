// CANN's multi-core split of a matmul (see matmul_core_split.h for the source it restates).
#include "matmul_core_split.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <vector>

namespace matmul_tiling {
namespace split {
namespace {

constexpr int32_t kC0 = 16;       // C0_SIZE: a fractal is 16 rows
constexpr int32_t kC0Bytes = 32;  // C0_BYTE_SIZE
constexpr int32_t kMinFactorLimit = 8;
constexpr int32_t kL0FactorLimit = 64;
constexpr int32_t kL1FactorLimit = 128;
constexpr int32_t kL0FactorNumLimit = 2;
constexpr int32_t kL1FactorNumLimit = 4;
constexpr int32_t kSeedMapMin = 16;
constexpr int32_t kSeedMapMax = 1024;
constexpr int32_t kDataCopyAlign = 256;  // DATA_COPY_ALIGN_SIZE, bytes

int32_t CeilDiv(int32_t a, int32_t b) { return b == 0 ? 0 : (a + b - 1) / b; }
int32_t Align(int32_t a, int32_t b) { return CeilDiv(a, b) * b; }

// The number of divisors of `shape` in [start, end] (GetFactorCnt stops once i passes shape).
int32_t FactorCount(int32_t shape, int32_t start, int32_t end) {
  int32_t count = 0;
  for (int32_t i = start; i <= end && i <= shape; ++i) {
    if (shape % i == 0) ++count;
  }
  return count;
}

// GetFactorLayerCnt: the largest divisor count among the divisors of `shape` in [start, end].
int32_t FactorLayerCount(int32_t shape, int32_t start, int32_t end) {
  int32_t best = 0;
  for (int32_t f = end; f >= start; --f) {
    if (f > 0 && shape % f == 0) best = std::max(best, FactorCount(f, 1, f + 1));
  }
  return best;
}

// GetBlockFactors: every i <= max_num dividing the shape, its mapped shape or the core count.
std::vector<int32_t> BlockFactors(int32_t ori, int32_t mapped, int32_t cores, int32_t max_num) {
  std::vector<int32_t> out;
  for (int32_t i = 1; i <= max_num; ++i) {
    if (ori % i == 0 || mapped % i == 0 || cores % i == 0) out.push_back(i);
  }
  return out;
}

void AddFactor(std::vector<int32_t>& factors, int32_t f) {
  factors.push_back(f);
  std::sort(factors.begin(), factors.end());
  factors.erase(std::unique(factors.begin(), factors.end()), factors.end());
}

struct Core {  // CoreStatusPack: per-core extents in fractals (16 rows / one C0 of K)
  int32_t m = 0, n = 0, k = 0;
};

struct Dims {  // DimCalculator, the fields the non-batched search reads
  int32_t k_bytes = 1;
  int32_t m_factor = 1, n_factor = 1;
  int32_t min_load = INT_MAX, core_use = 1, loop_to_l0 = INT_MAX;
  int32_t ori_a = 0, ori_b = 0, a_size = 0, b_size = 0, total_load = 0;
  bool big_package = false;
};

// CalcLoadSize: how much of A and B the cores load in total for this split.
// A smaller load also replaces the A and B sizes the later checks read (UpdateDimCalculator).
int32_t LoadSize(const SplitInput& in, int32_t m32, int32_t n32, int32_t mf, int32_t nf,
                 const Core& c, Dims& d) {
  int32_t total = INT_MAX;
  const auto update = [&total, &d](int32_t a, int32_t b) {
    if (total > a + b) {
      d.a_size = a;
      d.b_size = b;
      total = a + b;
    }
  };
  const int32_t l1 = in.l1_bytes;
  const int32_t total_size = d.a_size + d.b_size;
  const int32_t n0 = std::min(16, c.n);
  const int32_t m0 = std::min(16, n0 == 0 ? 0 : std::min(c.m, 128 / n0));
  const int32_t k0 = (m0 != 0 && n0 != 0) ? std::min(std::min(64 / m0, 64 / n0), c.k) : c.k;
  const int32_t db = 2;
  const int64_t kb = d.k_bytes;
  const bool both_full = int64_t{total_size} * kb <= l1;
  const bool a_full_bk = int64_t{d.a_size + n0 * db} * kb <= l1;
  const bool b_full_ak = int64_t{d.b_size + m0 * db} * kb <= l1;
  if (a_full_bk || b_full_ak || both_full) {
    update(d.ori_a * nf, d.ori_b * mf);
    return total;
  }
  const int32_t frac = kC0 * kC0Bytes;
  const bool neither =
      (n0 * d.k_bytes + m0 * k0 * frac) * db > l1 && (m0 * d.k_bytes + n0 * k0 * frac) * db > l1;
  if (neither) {
    update(d.ori_a * CeilDiv(n32, n0), d.ori_b * CeilDiv(m32, m0));
    return total;
  }
  if ((m0 + n0) * d.k_bytes * db <= l1) {
    const int32_t m1 = CeilDiv(l1 - n0 * d.k_bytes * db, d.k_bytes * db * m0) * m0;
    const int32_t n1 = CeilDiv(l1 - m0 * d.k_bytes * db, d.k_bytes * db * n0) * n0;
    const int32_t m_first = d.ori_a * nf + d.ori_b * CeilDiv(m32, m1);
    const int32_t n_first = d.ori_b * mf + d.ori_a * CeilDiv(n32, n1);
    if (m_first < n_first) {
      update(d.ori_a * nf, d.ori_b * CeilDiv(m32, m1));
    } else {
      update(d.ori_a * CeilDiv(n32, n1), d.ori_b * mf);
    }
    return total;
  }
  if (d.a_size * d.k_bytes + n0 * k0 * frac * db <= l1 ||
      m0 * d.k_bytes * db + n0 * k0 * frac * db <= l1) {
    update(d.ori_a * nf, d.ori_b * CeilDiv(m32, m0));
  }
  if (d.b_size * d.k_bytes + m0 * k0 * frac * db <= l1 ||
      n0 * d.k_bytes * db + m0 * k0 * frac * db <= l1) {
    update(d.ori_b * mf, d.ori_a * CeilDiv(n32, n0));
  }
  return total;
}

// LoopNumFromSingleCoreToL0: the number of minimal L0 steps one core takes.
int32_t LoopsToL0(const Core& c) {
  int32_t n0 = std::min(std::min(16, c.n), 64);
  int32_t m0 = n0 == 0 ? 0 : std::min(std::min(c.m, 128 / n0), 64);
  n0 = m0 == 0 ? 0 : std::min(std::min(c.n, 128 / m0), 64);
  m0 = n0 == 0 ? 0 : std::min(std::min(c.m, 128 / n0), 64);
  const int32_t k0 = (m0 != 0 && n0 != 0) ? std::min(std::min(64 / m0, 64 / n0), c.k) : c.k;
  return CeilDiv(c.m, m0) * CeilDiv(c.n, n0) * CeilDiv(c.k, k0);
}

// GetBigPackageCondition: 0, 1 or 2 (ATTACH_FLAG_ZERO/ONE/TWO).
int32_t BigPackage(const SplitInput& in, int32_t m32, int32_t n32, const Core& c, const Dims& d) {
  if (in.b_trans && !in.a_trans) return 0;
  bool flag = true;
  if (!in.b_trans && n32 >= 16 && c.n < 16) flag = false;
  if (in.a_trans && m32 >= 16 && c.m < 16) flag = false;
  if (!d.big_package) return flag ? 2 : 0;
  return flag ? 0 : 1;
}

// AlignSingleShape: ceil(org / factor), aligned up when asked and the alignment leaves the last
// core some work.
int32_t AlignSingleShape(bool need_align, int32_t org, int32_t factor, int32_t align) {
  int32_t single = CeilDiv(org, factor);
  if (!need_align || align == 0 || factor <= 1) return single;
  const int32_t aligned = Align(single, align);
  return aligned >= CeilDiv(org, factor - 1) ? single : aligned;
}

}  // namespace

int32_t MapShape(int32_t shape, bool round_up) {
  int32_t seed = kSeedMapMin;
  if (shape < seed) return shape;
  while (seed < kSeedMapMax) {
    if (seed < shape && seed * 2 >= shape) break;
    seed *= 2;
  }
  return round_up ? seed * 2 : seed;
}

bool CheckFactorNumSatisfy(int32_t dim) {
  if (dim <= kMinFactorLimit) return true;
  const int32_t l0 = FactorLayerCount(dim, 1, kL0FactorLimit);
  const int32_t l1 =
      dim > kL1FactorLimit ? FactorLayerCount(dim, kL0FactorLimit + 1, kL1FactorLimit) : 0;
  const bool unsatisfied =
      l0 <= kL0FactorNumLimit || (dim > kL1FactorLimit && l0 + l1 <= kL1FactorNumLimit);
  return !unsatisfied;
}

int32_t FindBestSingleCore(int32_t ori_shape, int32_t mapped_shape, int32_t core_num) {
  if (core_num == 1 && CheckFactorNumSatisfy(ori_shape)) return ori_shape;
  int32_t best = CeilDiv(ori_shape, core_num);
  const int32_t mapped_single = CeilDiv(mapped_shape, core_num);
  while (best != mapped_single) {
    if (CheckFactorNumSatisfy(best)) return best;
    best += best < mapped_single ? 1 : -1;
  }
  return best;
}

namespace {

// ComputeIntensity of CalcComputeIntensity, ordered as its operator<.
struct Intensity {
  int32_t m_dim, n_dim;
  float cycles, intensity, band;
  bool operator<(const Intensity& o) const {
    if (std::fabs(intensity - o.intensity) > 1.0e-4f) return intensity > o.intensity;
    if (std::fabs(cycles - o.cycles) < 0.01f * o.cycles) return band > o.band;
    return cycles < o.cycles;
  }
};

}  // namespace

bool SplitMNScenarioDims(const SplitInput& in, int32_t* m_dim, int32_t* n_dim) {
  const int32_t cores = std::max(1, in.block_dim);
  constexpr int64_t kMnLimit = 26214;  // 128 * 256 * 0.8
  if (cores == 1 || !in.split_mn_soc || in.split_k || in.set_shape || in.m < 128 ||
      int64_t{in.m} * in.n <= kMnLimit * cores) {
    return false;
  }
  // GetMultiCoreBasicBlock: 128 (256 with a 256 KB L0C) x 256 x (128 B of A), SetFixSplit's M and
  // N kept; A and B both transposed: 256 x 128 unless fixed.
  int32_t base_m = in.l0c_bytes == 262144 ? 256 : 128, base_n = 256;
  const int32_t base_k = 128 * 8 / std::max(1, in.a_bits);
  if (in.fix_base_m != -1) base_m = in.fix_base_m;
  if (in.fix_base_n != -1) base_n = in.fix_base_n;
  if (in.a_trans && in.b_trans) {
    if (in.fix_base_m == -1) base_m = 256;
    if (in.fix_base_n == -1) base_n = 128;
  }
  if (base_m <= 0 || base_n <= 0) return false;
  const int32_t reduce_block = kC0Bytes * 8 / in.a_bits;
  const auto block_cycles = [&](int32_t bm, int32_t bn) {
    return static_cast<float>(int64_t{bm} * bn * base_k) / (kC0 * kC0 * reduce_block);
  };
  const auto traffic = [&](int32_t bm, int32_t bn) {
    return static_cast<float>(bm) * base_k * in.a_bits / 8 +
           static_cast<float>(bn) * base_k * in.b_bits / 8;
  };
  const int32_t a_align = kDataCopyAlign / in.a_bits * 8;
  const int32_t b_align = kDataCopyAlign / in.b_bits * 8;
  // AlignSingleShape of CalcComputeIntensity: false when aligning would leave the last core idle.
  const auto align_ok = [](bool need, int32_t org, int32_t factor, int32_t align, int32_t* out) {
    *out = CeilDiv(org, factor);
    if (!need || align == 0 || factor <= 1) return true;
    const int32_t aligned = Align(*out, align);
    if (aligned >= CeilDiv(org, factor - 1)) return false;
    *out = aligned;
    return true;
  };
  std::vector<Intensity> results;
  for (int32_t mf = 1; mf <= cores; ++mf) {  // GetFactorPairs
    if (cores % mf != 0) continue;
    const int32_t nf = cores / mf;
    int32_t sm = 0, sn = 0;
    const bool ok_a = align_ok(in.a_trans && in.m % a_align == 0, in.m, mf, a_align, &sm);
    const bool ok_b = align_ok(!in.b_trans && in.n % b_align == 0, in.n, nf, b_align, &sn);
    const float ratio = ok_a && ok_b ? 1.0f : 2.0f;
    const int32_t main_m = sm / base_m, tail_m = sm % base_m;
    const int32_t main_n = sn / base_n, tail_n = sn % base_n;
    float cycles = 0, memory = 0;  // CalcTotalCycleMemory: main, N tail, M tail, corner
    if (main_m > 0 && main_n > 0) {
      cycles += block_cycles(base_m, base_n) * main_m * main_n;
      memory += ratio * traffic(base_m, base_n) * main_m * main_n;
    }
    if (main_m > 0 && tail_n > 0) {
      cycles += block_cycles(base_m, tail_n) * main_m;
      memory += ratio * traffic(base_m, tail_n) * main_m;
    }
    if (tail_m > 0 && main_n > 0) {
      cycles += block_cycles(tail_m, base_n) * main_n;
      memory += ratio * traffic(tail_m, base_n) * main_n;
    }
    if (tail_m > 0 && tail_n > 0) {
      cycles += block_cycles(tail_m, tail_n);
      memory += ratio * traffic(tail_m, tail_n);
    }
    // CalcBaseBlockBandRatio.
    const float band = static_cast<float>((cores - mf) * base_m + (cores - nf) * base_n) /
                       static_cast<float>((base_m + base_n) * cores);
    results.push_back({mf, nf, cycles, memory > 0 ? cycles / memory : 0.0f, band});
  }
  std::sort(results.begin(), results.end());
  *m_dim = results.front().m_dim;
  *n_dim = results.front().n_dim;
  return true;
}

SplitResult SplitMN(const SplitInput& in) {
  const int32_t cores = std::max(1, in.block_dim);
  const int32_t reduce_block = kC0Bytes * 8 / in.a_bits;  // K elements per C0
  const int32_t m32 = CeilDiv(in.m, kC0), n32 = CeilDiv(in.n, kC0);
  const int32_t k32 = CeilDiv(in.k, reduce_block);
  SplitResult r;
  Core core;
  int32_t scenario_m = 0, scenario_n = 0;
  if (cores == 1) {
    core = {m32, n32, k32};
  } else if (SplitMNScenarioDims(in, &scenario_m, &scenario_n)) {
    // CalcMultiCoreDimsPost -> GetDimsHelper: the per-core extents of the chosen factors.
    core = {CeilDiv(m32, scenario_m), CeilDiv(n32, scenario_n), k32};
  } else {
    // NonFactorMap (no split K, no batch): M and N mapped to powers of two, rounded up.
    const int32_t m_mapped = MapShape(m32), n_mapped = MapShape(n32);
    // PreProcessMiniShape: a shape whose fractals fit the cores and L0 stays on few cores.
    const int32_t mini_l0c = in.l0c_bytes / (kC0 * kC0) / 4;
    const int32_t mini_l0ab = in.l0a_bytes / (kC0 * kC0Bytes);
    if (n32 * m32 <= cores && m32 * k32 <= mini_l0ab && n32 * k32 <= mini_l0ab &&
        m32 * n32 <= mini_l0c) {
      const int32_t n_dim = n32 <= 32 ? 1 : n_mapped / 32;
      const int32_t m_dim = m32 <= 32 ? 1 : m_mapped / 32;
      core.n = n_dim == 1 ? n32 : CeilDiv(n_mapped, n_dim);
      core.m = m_dim == 1 ? m32 : CeilDiv(m_mapped, m_dim);
      core.k = k32;
    } else {
      // GenDimsMapFactors + AddOptimalFactors.
      std::vector<int32_t> m_factors = BlockFactors(m32, m_mapped, cores, std::min(cores, m32));
      std::vector<int32_t> n_factors = BlockFactors(n32, n_mapped, cores, std::min(cores, n32));
      const float opt = std::sqrt((static_cast<float>(m32) + 0.0f) / n32 * cores);
      const int32_t mdim = static_cast<int32_t>(std::ceil(opt));
      const int32_t ndim = static_cast<int32_t>(std::ceil(cores / opt));
      AddFactor(m_factors, mdim);
      AddFactor(m_factors, ndim == 0 ? 1 : cores / ndim);
      AddFactor(n_factors, ndim);
      AddFactor(n_factors, mdim == 0 ? 1 : cores / mdim);
      // GetDims: every (n, m) with n * m <= cores through GetDimsHelper's update rule.
      Dims d;
      d.k_bytes = k32 * kC0 * kC0 * 2;  // kNum * INPUTDTYPE_BYTES
      for (const int32_t nf : n_factors) {
        if (nf > cores || nf <= 0) continue;
        for (const int32_t mf : m_factors) {
          if (nf * mf > cores || mf <= 0) continue;
          Core c{CeilDiv(m32, mf), CeilDiv(n32, nf), k32};
          d.ori_a = m32;
          d.ori_b = n32;
          d.a_size = c.m;
          d.b_size = c.n;
          d.total_load = LoadSize(in, m32, n32, mf, nf, c, d);
          const int32_t bp = BigPackage(in, m32, n32, c, d);
          const int32_t loops = LoopsToL0(c);
          const int32_t mul = mf * nf;
          const bool by_cores =
              bp == 0 && (loops < d.loop_to_l0 || (mul > d.core_use && loops == d.loop_to_l0));
          const bool by_load = !by_cores && mul == d.core_use && d.total_load < d.min_load;
          const bool by_n = !by_cores && mul == d.core_use && d.total_load == d.min_load &&
                            d.n_factor * d.m_factor < mf * nf;
          if ((bp == 2 || by_cores || by_load || by_n) && bp != 1) {
            d.min_load = d.total_load;
            d.n_factor = nf;
            d.m_factor = mf;
            d.core_use = mul;
            d.loop_to_l0 = loops;
            d.big_package =
                (!in.b_trans ? c.n >= 16 : true) && (in.a_trans ? c.m >= 16 : true) && mul > 1;
          }
        }
      }
      core = {CeilDiv(m32, d.m_factor), CeilDiv(n32, d.n_factor), k32};
      // factorSplit (on by default): per-core extents with few prime factors, if the cores allow.
      const int32_t n = FindBestSingleCore(n32, n_mapped, d.n_factor);
      const int32_t m = FindBestSingleCore(m32, m_mapped, d.m_factor);
      const int32_t need = CeilDiv(n32, n) * CeilDiv(m32, m);
      if (need > 0 && need <= cores) {
        core.n = n;
        core.m = m;
      }
    }
  }
  r.core_m = core.m;
  r.core_n = core.n;
  r.core_k = core.k;
  // UpdateMultiCore.
  r.n_dim = std::min(CeilDiv(n32, core.n), cores);
  r.m_dim = std::min(CeilDiv(m32, core.m), cores);
  // GetSingleShape: ceil of the 16-padded extents over the cores.
  r.single_core_m = CeilDiv(in.m, r.m_dim);
  r.single_core_n = CeilDiv(in.n, r.n_dim);
  if (cores > 1) {
    const int32_t a_align = kDataCopyAlign / in.a_bits * 8;
    const int32_t b_align = kDataCopyAlign / in.b_bits * 8;
    const int64_t out_bytes = int64_t{r.single_core_n} * r.single_core_m * 2 * in.c_bits;
    const int64_t in_bytes =
        int64_t{r.single_core_n} * in.k * in.a_bits + int64_t{r.single_core_m} * in.k * in.b_bits;
    const bool need_output_align = out_bytes > in_bytes;
    r.single_core_n = AlignSingleShape((in.ab_nz && (!in.b_trans || need_output_align)) || in.c_nz,
                                       n32 * kC0, r.n_dim, b_align);
    r.single_core_m =
        AlignSingleShape((in.ab_nz && in.a_trans) || in.c_nz, m32 * kC0, r.m_dim, a_align);
  }
  return r;
}

}  // namespace split
}  // namespace matmul_tiling
