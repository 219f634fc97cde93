// CANN's L1 factors of a Matmul tiling (see matmul_l1_factors.h for the source it restates; the
// function names below are the asc-devkit ones each step follows).
#include "matmul_l1_factors.h"

#include <algorithm>
#include <climits>

namespace matmul_tiling {
namespace l1 {
namespace {

constexpr int32_t kFrac = 16;        // rows of a fractal (C0_SIZE)
constexpr int32_t kC0Bytes = 32;     // bytes of a fractal row (C0_BYTE_SIZE)
constexpr int32_t kFracBytes = kFrac * kC0Bytes;
constexpr int32_t kMinMte1Load = 32;  // MIN_MTE1_LOAD
constexpr int32_t kDbOn = 2, kDbOff = 1;

int32_t CeilDiv(int32_t a, int32_t b) { return b == 0 ? 0 : (a + b - 1) / b; }
int32_t Align(int32_t a, int32_t b) { return CeilDiv(a, b) * b; }
int32_t AlignDown(int32_t a, int32_t b) { return b == 0 ? a : a / b * b; }

int32_t Bits(Elem e) {
  switch (e) {
    case Elem::kFloat:
      return 32;
    case Elem::kInt8:
      return 8;
    default:
      return 16;
  }
}

// One candidate's factors and the GM traffic it costs (CANN's L1StatusPack, the fields read).
struct Status {
  int32_t k_a = 1, k_b = 1, m_a = 1, n_b = 1, db_a = 1, db_b = 1;
  int32_t a_size = 0, b_size = 0;
  int32_t load = 0;
  int32_t channel_wise = 0;  // bias rows L1 keeps per column block
};

class Rule {
 public:
  explicit Rule(const L1Input& in) : in_(in) {
    a_bits_ = Bits(in.a);
    reduce_ = kC0Bytes * 8 / a_bits_;
    m_ = in.core_m > 0 ? in.core_m : CeilDiv(in.single_m, kFrac);
    n_ = in.core_n > 0 ? in.core_n : CeilDiv(in.single_n, kFrac);
    k_ = in.core_k > 0 ? in.core_k : CeilDiv(in.single_k, reduce_);
    m_l0_ = in.base_m / kFrac;
    n_l0_ = in.base_n / kFrac;
    k_l0_ = in.base_k / reduce_;
    l1_ = in.l1_bytes;
    dtype_bias_ = in.bias ? in.bias_bytes : 0;
    // GetABL1KAlignValue: float keeps K in pairs of fractals where the load transposes.
    if (in.a == Elem::kFloat || in.b == Elem::kFloat) {
      ka_align_ = in.a_trans ? 2 : 1;
      kb_align_ = (in.a_trans || !in.b_trans) ? 2 : 1;
    }
  }

  bool Valid() const { return m_ > 0 && n_ > 0 && k_ > 0 && m_l0_ > 0 && n_l0_ > 0 && k_l0_ > 0; }

  // GetL1Factors.
  Status Choose() {
    const int32_t mte1_loop = kMinMte1Load / ((n_l0_ == 1 ? 1 : k_l0_) + (k_l0_ == 1 ? 1 : m_l0_));
    all_times_ = CeilDiv(k_, k_l0_);
    max_m_ = CeilDiv(m_, m_l0_);
    max_n_ = CeilDiv(n_, n_l0_);
    max_ka_ = std::max(mte1_loop, (CeilDiv(kMinMte1Load, m_l0_) + k_l0_ - 1) / k_l0_);
    max_kb_ = std::max(mte1_loop, (CeilDiv(kMinMte1Load, n_l0_) + k_l0_ - 1) / k_l0_);
    // The status carries over from one candidate to the next (SetStatus resets only the six
    // factors), the bias rows with it.
    Status s;
    s.channel_wise = in_.bias ? 1 : 0;
    Status res[4];
    bool full[3] = {false, false, false};  // both, A, B
    Set(s, k_, k_, max_m_, max_n_, kDbOff, kDbOff);
    full[0] = BothFullLoad(s, &res[0]);
    Set(s, k_, k_l0_, max_m_, 1, kDbOff, kDbOff);
    full[1] = AFullLoad(s, &res[1]);
    Set(s, k_l0_, k_, 1, max_n_, kDbOff, kDbOff);
    full[2] = BFullLoad(s, &res[2]);
    Set(s, k_l0_, k_l0_, 1, 1, kDbOn, kDbOn);
    res[3] = NeitherFullLoad(s);

    // In ND, a "full" candidate counts only when its K tile really is the whole K.
    const int32_t k_units = CeilDiv(in_.whole_k, reduce_);
    auto whole = [&](int32_t k_tile) { return k_tile > 0 ? CeilDiv(k_units, k_tile) == 1 : true; };
    const bool a_full = full[1] && (!in_.ab_nd || whole(res[1].k_a));
    const bool b_full = full[2] && (!in_.ab_nd || whole(res[2].k_b));
    const bool both_full = full[0] && (!in_.ab_nd || (whole(res[0].k_a) && whole(res[0].k_b)));
    Status pick = res[3];
    auto better = [&](const Status& c) {
      return c.load < pick.load || (c.load == pick.load && c.m_a + c.n_b >= pick.m_a + pick.n_b);
    };
    if (a_full && better(res[1])) pick = res[1];
    if (b_full && better(res[2])) pick = res[2];
    if (both_full && better(res[0])) pick = res[0];
    return pick;
  }

  int32_t k_l0() const { return k_l0_; }

 private:
  static void Set(Status& s, int32_t ka, int32_t kb, int32_t m, int32_t n, int32_t dba,
                  int32_t dbb) {
    s.k_a = ka;
    s.k_b = kb;
    s.m_a = m;
    s.n_b = n;
    s.db_a = dba;
    s.db_b = dbb;
  }

  // IsNeedAlign: float, and int8_t where the load transposes, count K fractals in pairs.
  bool NeedAlignA() const { return in_.a == Elem::kFloat || (in_.a == Elem::kInt8 && in_.a_trans); }
  bool NeedAlignB() const {
    return in_.b == Elem::kFloat || (in_.b == Elem::kInt8 && !in_.b_trans);
  }

  // GetL1Size: the bytes of A1, B1 and the bias rows (0 on an int32 overflow, as CANN's checks).
  int32_t L1Size(const Status& s) const {
    const int64_t a_const = int64_t{kFracBytes} * s.db_a * (NeedAlignA() ? 2 : 1);
    const int64_t b_const = int64_t{kFracBytes} * s.db_b * (NeedAlignB() ? 2 : 1);
    const int64_t a = int64_t{s.m_a} * m_l0_ * a_const * Align(s.k_a, ka_align_);
    const int64_t b = int64_t{s.n_b} * n_l0_ * b_const * Align(s.k_b, kb_align_);
    const int64_t bias =
        s.channel_wise > 0 ? int64_t{s.n_b} * n_l0_ * s.channel_wise * kFrac * s.db_b * dtype_bias_
                           : 0;
    if (a > INT_MAX || b > INT_MAX || bias > INT_MAX) return 0;
    return static_cast<int32_t>(std::min<int64_t>(a + b + bias, INT_MAX));
  }
  bool Fits(const Status& s) const {
    const int32_t size = L1Size(s);
    return size > 0 && size <= l1_;
  }

  enum class Axis { kKa, kKb, kM, kN };
  // CalL1MaxLen: how many units of one axis `bytes` hold, the other factors as they are.
  int32_t MaxLen(int32_t bytes, const Status& s, int32_t align, Axis axis) const {
    // A zero divisor (a zero K tile) holds nothing.
    const auto per = [&](int64_t unit) {
      return unit <= 0 ? 0 : static_cast<int32_t>(bytes / unit);
    };
    switch (axis) {
      case Axis::kKa:
        return AlignDown(per(int64_t{s.m_a} * m_l0_ * s.db_a * kFracBytes), align);
      case Axis::kKb:
        return AlignDown(per(int64_t{s.n_b} * n_l0_ * s.db_b * kFracBytes), align);
      case Axis::kM:
        return per(int64_t{Align(s.k_a, align)} * m_l0_ * s.db_a * kFracBytes);
      case Axis::kN:
        return per(int64_t{Align(s.k_b, align)} * n_l0_ * s.db_b * kFracBytes +
                   int64_t{s.channel_wise} * n_l0_ * kFracBytes);
    }
    return 1;
  }

  // GetNearestFactor (factorSplit on): the largest divisor of `base` not above `factor`.
  static void NearestFactor(int32_t base, int32_t& factor) {
    while (factor > base || (factor > 0 && base % factor != 0)) --factor;
  }

  int32_t BiasBytes(const Status& s) const {
    return s.channel_wise * s.n_b * n_l0_ * kFrac * dtype_bias_ * s.db_b;
  }

  // L1StatusBothFullLoad.
  bool BothFullLoad(Status& s, Status* res) const {
    s.k_a = Align(s.k_a, k_l0_);
    s.k_b = Align(s.k_b, k_l0_);
    if (!Fits(s)) return false;
    s.load = m_ + n_;
    *res = s;
    return true;
  }

  // L1StatusAl1FullLoad: A's whole K (and every block of M) in L1, B's K as large as the rest
  // allows within maxKBL1, double-buffered when it fits.
  bool AFullLoad(Status& s, Status* res) const {
    const int32_t m_repeat = CeilDiv(m_, m_l0_), n_repeat = CeilDiv(n_, n_l0_);
    s.k_a = Align(s.k_a, k_l0_);
    if (!Fits(s)) return false;
    s.a_size = std::max(Align(k_, ka_align_), Align(s.k_a, ka_align_)) *
               std::max(s.m_a * m_l0_, m_) * kFracBytes;
    s.b_size = l1_ - s.a_size;
    s.db_b = kDbOn;
    if (L1Size(s) > l1_) s.db_b = kDbOff;
    s.k_b = std::min(MaxLen(s.b_size - BiasBytes(s), s, kb_align_, Axis::kKb), k_);
    int32_t times = std::min(s.k_b / k_l0_, max_kb_);
    NearestFactor(all_times_, times);
    s.k_b = times * k_l0_;
    if (s.k_b == k_) {
      s.n_b = std::min(MaxLen(s.b_size, s, kb_align_, Axis::kN), max_n_);
      NearestFactor(n_repeat, s.n_b);
    }
    const bool invalid = s.n_b == 0 || s.k_b == 0;
    s.load = invalid ? INT_MAX : m_ + (s.k_b == k_ ? 1 : m_repeat) * n_;
    if (s.k_b == k_ && s.n_b * n_l0_ == n_) s.db_b = kDbOff;
    *res = s;
    return true;
  }

  // L1StatusBl1FullLoad: the same with A and B exchanged.
  bool BFullLoad(Status& s, Status* res) const {
    const int32_t m_repeat = CeilDiv(m_, m_l0_), n_repeat = CeilDiv(n_, n_l0_);
    s.k_b = Align(s.k_b, k_l0_);
    if (!Fits(s)) return false;
    s.b_size = std::max(Align(k_, kb_align_), Align(s.k_b, kb_align_)) *
               std::max(s.n_b * n_l0_, n_) * kFracBytes;
    s.a_size = l1_ - s.b_size;
    s.db_a = kDbOn;
    if (L1Size(s) > l1_) s.db_a = kDbOff;
    const int32_t bias = BiasBytes(s);
    s.k_a = std::min(MaxLen(s.a_size - bias, s, ka_align_, Axis::kKa), k_);
    int32_t times = std::min(s.k_a / k_l0_, max_ka_);
    NearestFactor(all_times_, times);
    s.k_a = times * k_l0_;
    if (s.k_a == k_) {
      s.m_a = std::min(MaxLen(s.a_size - bias, s, ka_align_, Axis::kM), max_m_);
      NearestFactor(m_repeat, s.m_a);
    }
    const bool invalid = s.m_a == 0 || s.k_a == 0;
    s.load = invalid ? INT_MAX : n_ + (s.k_a == k_ ? 1 : n_repeat) * m_;
    if (s.k_a == k_ && s.m_a * m_l0_ >= m_) s.db_a = kDbOff;
    *res = s;
    return true;
  }

  // L1StatusNeitherFullLoad.
  Status NeitherFullLoad(Status& s) const {
    NeitherDb(s);
    NeitherK(s);
    NeitherMN(s);
    return s;
  }

  // NeitherFullLoadDb: single buffers where two blocks of each do not fit; both double again when
  // B's whole K would not fit anyway.
  void NeitherDb(Status& s) const {
    const int32_t keep_kb = s.k_b;
    s.k_b = kDbOn;  // CANN probes with kBL1 = 2 fractals
    if (L1Size(s) > l1_) {
      s.db_b = kDbOff;
      if (L1Size(s) > l1_) s.db_a = kDbOff;
    }
    s.k_b = k_;
    const bool both_db = m_ != m_l0_ && k_ > k_l0_ && L1Size(s) > l1_;
    s.k_b = keep_kb;
    if (both_db) {
      s.db_a = kDbOn;
      s.db_b = kDbOn;
      if (L1Size(s) > l1_) {
        s.db_b = kDbOff;
        if (L1Size(s) > l1_) s.db_a = kDbOff;
      }
    }
  }

  // NeitherFullLoadK: which input's K grows first follows the transposes, then the two K tiles are
  // made multiples of each other (and divisors of K).
  void NeitherK(Status& s) const {
    if (k_l0_ == k_) return;
    int32_t axis = 0;
    if (!in_.a_trans && !in_.b_trans) axis = 1;
    if (in_.a_trans && in_.b_trans) axis = 2;
    if (!in_.a_trans && in_.b_trans) axis = m_l0_ > n_l0_ ? 1 : 2;
    if (axis != 0) {
      NeitherKNd(s, axis);
    } else {
      NeitherKNz(s);
    }
    if (s.k_a <= 0 || s.k_b <= 0) return;  // nothing fits: ComputeL1Factors refuses it
    if (s.k_a > s.k_b && s.k_a % s.k_b != 0) {
      while (s.k_a % s.k_b != 0 || (s.k_a != s.k_b && k_ % s.k_a != 0)) --s.k_a;
    }
    if (s.k_a < s.k_b && s.k_b % s.k_a != 0) {
      while (s.k_b % s.k_a != 0 || (s.k_a != s.k_b && k_ % s.k_b != 0)) --s.k_b;
    }
  }

  // NeitherFullLoadKforND: axis 1 grows A's K into what one double-buffered B block leaves (no
  // maxKAL1 limit), then B's within maxKBL1; axis 2 the other way round.
  void NeitherKNd(Status& s, int32_t axis) const {
    const int32_t bias = BiasBytes(s);
    const bool a8 = in_.a == Elem::kInt8, b8 = in_.b == Elem::kInt8;
    const int32_t align = a8 ? 32 : 16;
    const int32_t align_m = Align(s.m_a * kFrac, align);
    const int32_t align_n = Align(s.n_b * kFrac, align);
    const int32_t align_k = Align(k_l0_ * reduce_, align) * a_bits_ / 8;
    if (axis == 1) {
      s.k_b = k_l0_;
      const bool b_wide = in_.b == Elem::kFloat || (in_.a_trans && a8);
      const bool b_int8 = !in_.b_trans && b8;
      if (b_wide) {
        s.b_size = s.k_b * n_l0_ * kFrac * align_k * s.n_b * s.db_b;
      } else if (b_int8) {
        s.b_size = s.k_b * n_l0_ * align_k * align_n * s.db_b;
      } else {
        s.b_size = s.k_b * s.n_b * n_l0_ * kFracBytes * s.db_b;
      }
      s.a_size = l1_ - s.b_size;
      const int32_t per_k = s.m_a * m_l0_ * kFracBytes * s.db_a;
      s.k_a = per_k == 0 ? k_ : std::min((s.a_size - bias) / per_k, k_);
      int32_t times = std::max(s.k_a / k_l0_, 1);
      NearestFactor(all_times_, times);
      s.k_a = times * k_l0_;
      s.a_size = s.k_a * s.m_a * m_l0_ * kFracBytes * s.db_a;
      s.b_size = l1_ - s.a_size;
      int32_t per_kb = s.n_b * n_l0_ * kFracBytes * s.db_b;
      if (b_wide) {
        per_kb = s.n_b * n_l0_ * kFrac * s.db_b * align_k;
      } else if (b_int8) {
        per_kb = align_n * n_l0_ * s.db_b * align_k;
      }
      s.k_b = std::min((s.b_size - bias) / per_kb, k_);
      times = std::max(std::min(s.k_b / k_l0_, max_kb_), 1);
      NearestFactor(all_times_, times);
      s.k_b = times * k_l0_;
      return;
    }
    s.k_a = k_l0_;
    const bool a_wide = (in_.a_trans && in_.a == Elem::kFloat) || (!in_.a_trans && a8);
    const bool a_int8_trans = in_.a_trans && a8;
    if (a_wide) {
      s.a_size = s.k_a * s.m_a * m_l0_ * kFrac * align_k * s.db_a;
    } else if (a_int8_trans) {
      s.a_size = s.k_a * align_m * m_l0_ * align_k * s.db_a;
    } else {
      s.a_size = s.k_a * s.m_a * m_l0_ * kFracBytes * s.db_a;
    }
    s.b_size = l1_ - s.a_size;
    s.k_b = std::min((s.b_size - bias) / (s.n_b * n_l0_ * kFracBytes * s.db_b), k_);
    int32_t times = std::max(s.k_b / k_l0_, 1);
    NearestFactor(all_times_, times);
    s.k_b = times * k_l0_;
    s.b_size = s.k_b * s.n_b * n_l0_ * kFracBytes * s.db_b;
    s.a_size = l1_ - s.b_size;
    if (a_wide) {
      const int32_t per_k = s.m_a * m_l0_ * kFrac * s.db_a * align_k;
      s.k_a = per_k == 0 ? k_ : std::min((s.a_size - bias) / per_k, k_);
    } else if (a_int8_trans) {
      s.k_a = std::min((s.a_size - bias) / (align_m * m_l0_ * s.db_a * align_k), k_);
    } else {
      const int32_t per_k = s.m_a * m_l0_ * kFracBytes * s.db_a;
      s.k_a = per_k == 0 ? k_ : std::min((s.a_size - bias) / per_k, k_);
    }
    times = std::max(std::min(s.k_a / k_l0_, max_ka_), 1);
    NearestFactor(all_times_, times);
    s.k_a = times * k_l0_;
  }

  // NeitherFullLoadKforNZ (A transposed, B not): B's whole K with one block of A when that fits,
  // A's K then as large as the rest allows within maxKAL1; else one K tile shared by both.
  void NeitherKNz(Status& s) const {
    s.k_b = k_;
    const int32_t bias = BiasBytes(s);
    if (Fits(s)) {
      s.b_size = Align(k_, kb_align_) * s.n_b * n_l0_ * kFracBytes * s.db_b;
      s.a_size = l1_ - s.b_size;
      s.k_a = std::min(MaxLen(s.a_size - bias, s, ka_align_, Axis::kKa), k_);
      int32_t times = std::max(std::min(s.k_a / k_l0_, max_ka_), 1);
      NearestFactor(all_times_, times);
      s.k_a = times * k_l0_;
      return;
    }
    int32_t per_k =
        std::min((l1_ - bias) / (m_l0_ * kFracBytes * s.db_a + n_l0_ * kFracBytes * s.db_b) /
                     k_l0_ * k_l0_,
                 k_);
    if (in_.a == Elem::kFloat) {
      const int64_t a_mat = int64_t{s.m_a} * m_l0_ * Align(per_k, ka_align_) * s.db_a;
      const int64_t b_mat = int64_t{s.n_b} * n_l0_ * Align(per_k, kb_align_) * s.db_b;
      const int64_t bias_l1 =
          int64_t{in_.bias ? s.n_b * n_l0_ : 0} * kFrac * dtype_bias_ * s.db_b;
      if ((a_mat + b_mat) * kFracBytes + bias_l1 > l1_) per_k -= 1;
    }
    int32_t times = std::min(per_k / k_l0_, std::max(max_ka_, max_kb_));
    NearestFactor(all_times_, times);
    times = std::min(times, all_times_);
    s.k_a = times * k_l0_;
    s.k_b = s.k_a;
  }

  // NeitherFullLoadMN: with a whole K, as many blocks of M (N) per tile as L1 holds, M first or N
  // first by the traffic; with partial K tiles one block of each.
  void NeitherMN(Status& s) const {
    const int32_t m_repeat = CeilDiv(m_, m_l0_), n_repeat = CeilDiv(n_, n_l0_);
    if (dtype_bias_ == 4 && s.channel_wise > 0) ++s.channel_wise;
    int32_t bias = s.channel_wise * s.n_b * n_l0_ * kFrac * 2 * s.db_b;  // counted as half
    Status mf = s, nf = s;
    mf.b_size = Align(mf.k_b, kb_align_) * n_l0_ * kFracBytes * mf.db_b;
    mf.a_size = l1_ - mf.b_size;
    mf.m_a = std::max(
        std::min(std::min(MaxLen(mf.a_size - bias, mf, ka_align_, Axis::kM), max_m_), m_repeat), 1);
    NearestFactor(m_repeat, mf.m_a);
    mf.a_size = Align(mf.k_a, ka_align_) * mf.m_a * m_l0_ * kFracBytes * mf.db_a;
    mf.b_size = l1_ - mf.a_size;
    mf.n_b = std::max(
        std::min(std::min(MaxLen(mf.b_size - bias, mf, kb_align_, Axis::kN), max_n_), n_repeat), 1);
    NearestFactor(n_repeat, mf.n_b);
    mf.load = m_ + n_ * CeilDiv(m_, mf.m_a * m_l0_);

    nf.a_size = Align(nf.k_a, ka_align_) * m_l0_ * kFracBytes * nf.db_a;
    nf.b_size = l1_ - nf.a_size;
    nf.n_b = std::max(
        std::min(std::min(MaxLen(nf.b_size - bias, nf, kb_align_, Axis::kN), max_n_), n_repeat), 1);
    NearestFactor(n_repeat, nf.n_b);
    nf.b_size = Align(k_, kb_align_) * nf.n_b * n_l0_ * kFracBytes * nf.db_b;
    nf.a_size = l1_ - nf.b_size;
    bias *= nf.n_b;
    nf.m_a = std::max(
        std::min(std::min(MaxLen(nf.a_size - bias, nf, ka_align_, Axis::kM), max_m_), m_repeat), 1);
    NearestFactor(m_repeat, nf.m_a);
    nf.load = m_ * CeilDiv(n_, nf.n_b * n_l0_) + n_;

    const bool whole_a = s.k_a >= k_, whole_b = s.k_b >= k_;
    if (whole_a && whole_b) {
      s = nf.load > mf.load ? mf : nf;
    } else if (whole_a) {
      mf.n_b = 1;
      s = mf;
    } else if (whole_b) {
      nf.m_a = 1;
      s = nf;
    } else {
      s.m_a = 1;
      s.n_b = 1;
      s.load = m_ * CeilDiv(n_, mf.n_b * n_l0_) + n_ * CeilDiv(m_, mf.m_a * m_l0_);
    }
  }

  const L1Input& in_;
  int32_t a_bits_ = 16, reduce_ = 16;
  int32_t m_ = 0, n_ = 0, k_ = 0, m_l0_ = 0, n_l0_ = 0, k_l0_ = 0;
  int32_t l1_ = 0, dtype_bias_ = 0;
  int32_t ka_align_ = 1, kb_align_ = 1;
  int32_t all_times_ = 1, max_m_ = 1, max_n_ = 1, max_ka_ = 1, max_kb_ = 1;
};

// GetABaseHeightAlign / GetABaseWidthAlign / GetBBaseHeightAlign / GetBBaseWidthAlign: the padded
// extents of one base block in L1.
int32_t AHeight(const L1Input& in) {
  if (in.a == Elem::kFloat) return Align(in.base_m, kFrac);
  if (in.a == Elem::kInt8 && in.a_trans) return Align(in.base_m, 32);
  return in.base_m;
}
int32_t AWidth(const L1Input& in) {
  if (in.a == Elem::kFloat && in.a_trans) return Align(in.base_k, kFrac);
  if (in.a == Elem::kFloat) return Align(in.base_k, 8);
  if (in.a == Elem::kInt8) return Align(in.base_k, 32);
  return in.base_k;
}
int32_t BHeight(const L1Input& in) {
  if (in.b == Elem::kFloat && !in.b_trans) return Align(in.base_k, kFrac);
  if (in.b == Elem::kInt8) return Align(in.base_k, 32);
  return in.base_k;
}
int32_t BWidth(const L1Input& in) {
  if (in.b == Elem::kFloat) return Align(in.base_n, 8);
  if (in.b == Elem::kInt8 && !in.b_trans) return Align(in.base_n, 32);
  return in.base_n;
}

// UpdateStepK: a K tile above 256 (512) B is cut to a multiple of 256 (512) B when baseK divides
// it.
void UpdateStepK(const L1Input& in, int32_t& step) {
  if (step * in.base_k >= in.whole_k) return;
  const int32_t bits = Bits(in.a);
  const int32_t block_bytes = in.base_k * bits / 8;
  for (int32_t unit : {512, 256}) {
    if (step * block_bytes > unit) {
      if ((step * block_bytes) % unit != 0 && unit % block_bytes == 0) {
        while ((step * block_bytes) % unit != 0 && step > 1) --step;
      }
      return;
    }
  }
}

// CalcL1Tiling: half of L1 for each input's base blocks, A's (or B's) depth halved when both
// with the bias do not fit; stepKa and stepKb multiples of one another.
bool SplitScenarioFactors(const L1Input& in, int32_t* step_ka, int32_t* step_kb, int32_t* depth_a,
                          int32_t* depth_b) {
  const int32_t a_bits = Bits(in.a), b_bits = Bits(in.b);
  int32_t da = (in.l1_bytes / kDbOn / in.base_m / in.base_k) * 8 / a_bits;
  int32_t db = ((in.l1_bytes + 256) / kDbOn / in.base_n / in.base_k) * 8 / b_bits;
  const int32_t bt = in.bias ? in.base_n * in.bias_bytes : 0;
  const int64_t a_block = int64_t{AHeight(in)} * AWidth(in) * a_bits / 8;
  const int64_t b_block = int64_t{BHeight(in)} * BWidth(in) * b_bits / 8;
  if (da * a_block + db * b_block > in.l1_bytes - bt) {
    if (AHeight(in) <= BWidth(in)) {
      da /= kDbOn;
    } else {
      db /= kDbOn;
    }
  }
  int32_t ka = da / kDbOn, kb = db / kDbOn;
  UpdateStepK(in, ka);
  UpdateStepK(in, kb);
  if (ka >= kb && kb != 0) {
    ka = ka / kb * kb;
  } else if (ka != 0) {
    kb = kb / ka * ka;
  }
  if (ka <= 0 || kb <= 0) return false;
  *step_ka = ka;
  *step_kb = kb;
  *depth_a = ka * kDbOn;
  *depth_b = kb * kDbOn;
  return true;
}

}  // namespace

bool SplitScenario(bool split_mn_soc, bool split_k, bool set_shape, bool single_shape,
                   int32_t block_dim, int64_t m, int64_t n) {
  if (!split_mn_soc || split_k || set_shape || single_shape || block_dim <= 1) return false;
  constexpr int64_t kMnLimit = 26214;  // 128 * 256 * 0.8
  if (m >= 128 && m * n > kMnLimit * block_dim) return true;  // SPLIT_MN
  return m * n < kMnLimit * block_dim;                        // SPLIT_SMALL_MN
}

bool ComputeL1Factors(const L1Input& in, L1Factors* out) {
  const int32_t reduce = kC0Bytes * 8 / Bits(in.a);
  if (in.base_m % kFrac != 0 || in.base_n % kFrac != 0 || in.base_k % reduce != 0) return false;
  const int32_t k_l0 = in.base_k / reduce;
  L1Factors f;
  int32_t k_a = 0, k_b = 0, m_a = 1, n_b = 1, db_a = 1, db_b = 1;
  if (in.split_mn_scenario) {
    int32_t step_ka = 0, step_kb = 0, depth_a = 0, depth_b = 0;
    if (!SplitScenarioFactors(in, &step_ka, &step_kb, &depth_a, &depth_b)) return false;
    // GetL1CoreStatus.
    k_a = k_l0 * step_ka;
    k_b = k_l0 * step_kb;
    db_a = depth_a >= step_ka * kDbOn ? kDbOn : kDbOff;
    db_b = depth_b >= step_kb * kDbOn ? kDbOn : kDbOff;
  } else {
    Rule rule(in);
    if (!rule.Valid()) return false;
    const Status s = rule.Choose();
    k_a = s.k_a;
    k_b = s.k_b;
    m_a = s.m_a;
    n_b = s.n_b;
    db_a = s.db_a;
    db_b = s.db_b;
  }
  if (k_a <= 0 || k_b <= 0 || m_a <= 0 || n_b <= 0) return false;
  // UpdateTiling.
  f.depth_a1 = CeilDiv(k_a, k_l0) * m_a * db_a;
  f.depth_b1 = CeilDiv(k_b, k_l0) * n_b * db_b;
  // UpdateDepthB1: a float B on the 910B pads K to 16 in L1; fewer B blocks when that overflows.
  if (in.b == Elem::kFloat && in.soc_910b) {
    const int32_t k16 = Align(in.base_k, 16);
    const int64_t kn = int64_t{k16} * in.base_n;
    const int64_t km = int64_t{in.a == Elem::kFloat && in.a_trans ? k16 : in.base_k} * in.base_m;
    if ((f.depth_a1 * km + kn * f.depth_b1) * 4 > in.l1_bytes) {
      f.depth_b1 = std::max<int32_t>(
          1, static_cast<int32_t>(int64_t{in.base_n} * in.base_k * f.depth_b1 / kn));
    }
  }
  n_b = std::min(n_b, f.depth_b1);
  f.step_m = m_a;
  f.step_n = n_b;
  f.step_ka = CeilDiv(k_a, k_l0);
  f.step_kb = CeilDiv(k_b, k_l0);
  // AdjustFloatL1Factor: a float B with baseK 8 takes one K block per tile.
  if (in.b == Elem::kFloat && in.base_k == 8) {
    f.step_kb = 1;
    f.depth_b1 = n_b * db_b;
  }
  *out = f;
  return true;
}

}  // namespace l1
}  // namespace matmul_tiling
