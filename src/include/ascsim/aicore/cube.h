// The cube instructions: LoadData (L1/GM -> L0A/L0B, fractal transpose), LoadDataWithTranspose,
// Mmad (fp16/bf16/fp32 -> fp32, int8 -> int32, on L0A x L0B -> L0C), Fixpipe (L0C -> GM/L1 with
// NZ->ND, casts, ReLU and scalar quantisation), Fill/InitConstValue, and the local DataCopy forms
// of the cube side (L1 -> BiasTable, L0C -> UB on 310P).
//
// Layouts (asc-devkit docs "矩阵计算分形介绍"/"关键分形格式详解"; arch 2201 and 2002):
//   L0A holds A (M x K) in Zz: 16 x K0 fractals, row-major inside and between fractals;
//   L0B holds B (K x N) in Zn: fractals row-major (K outer), column-major inside (16 x K0);
//   L0C holds C (M x N) in Nz: 16 x 16 fractals, column-major between (N outer), row-major inside;
//   K0 = 32 B / sizeof(input) (16 for half, 8 for float, 32 for int8). L1 holds Nz (16 x K0).
// Every check is O(1) per call; the element work is out of line in src/aicore/cube/.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ascsim/aicore/cube_copy.h"
#include "ascsim/aicore/cube_params.h"
#include "ascsim/aicore/data_copy.h"
#include "ascsim/aicore/internal.h"

namespace ascsim::aicore::cube {

void LoadData2D(const char* call, const Operand& dst, const Operand& src,
                const AscendC::LoadData2DParams& p);
// GM source: `src` points at the first byte of the GlobalTensor view (checked by the caller for
// LoadData2DGmExtent elements).
void LoadData2DFromGm(const char* call, const Operand& dst, const uint8_t* src,
                      const AscendC::LoadData2DParams& p);
inline uint64_t LoadData2DGmExtent(const AscendC::LoadData2DParams& p, uint64_t elem_size) {
  if (p.repeatTimes == 0) return 0;
  const uint64_t frac = 512 / elem_size;
  const uint64_t last = p.addrMode == 0
                            ? uint64_t{p.startIndex} + uint64_t{p.srcStride} * (p.repeatTimes - 1u)
                            : p.startIndex;
  return (last + 1) * frac;
}
void LoadDataWithTranspose(const char* call, const Operand& dst, const Operand& src,
                           const AscendC::LoadData2dTransposeParams& p);
// `bias` null: no bias tensor.
void Mmad(const char* call, const Operand& dst, const Operand& fm, const Operand& filter,
          const Operand* bias, const AscendC::MmadParams& p);

// Fixpipe, one normalised form of both parameter structs.
struct FixpipeArgs {
  uint32_t n = 0, m = 0;       // columns / rows of the source NZ matrix
  uint32_t src_stride = 0;     // rows (16-element C0 units) between source column stripes
  uint64_t dst_stride = 0;     // ND: elements per destination row; NZ: 32 B units between stripes
  bool nd = true;              // NZ2ND (ROW_MAJOR) or NZ out
  uint32_t nd_num = 1;         // matrices (NZ2ND)
  uint64_t src_nd_stride = 0;  // elements between source matrices
  uint64_t dst_nd_stride = 0;  // elements between destination matrices
  QuantMode_t quant = QuantMode_t::NoQuant;
  uint64_t deq_scalar = 0;
  bool relu = false;
  bool channel_split = false;
};
uint64_t FixpipeDstExtent(const FixpipeArgs& a, uint64_t dst_elem);  // elements written
// The GM rows a Fixpipe writes, for the sanitizer: one ND matrix is m rows of n elements,
// dst_stride apart; NZ and several matrices are taken as their whole extent.
Footprint FixpipeDstFootprint(const FixpipeArgs& a, uint64_t dst_elem);
// Every rule of a Fixpipe out of L0C into `dst_t` (called before the destination is touched).
void FixpipeCheck(const char* call, const Operand& src, simd::DType dst_t, const FixpipeArgs& a,
                  bool to_gm);
void FixpipeToGm(const char* call, uint8_t* dst, simd::DType dst_t, const Operand& src,
                 const FixpipeArgs& a, const GmSide& gm);
void FixpipeToLocal(const char* call, const Operand& dst, const Operand& src, const FixpipeArgs& a);
void FixpipeFromV220(FixpipeArgs& a, const AscendC::FixpipeParamsV220& p, bool nd);
void FixpipeFromLegacy(FixpipeArgs& a, uint16_t cburst, uint16_t burst_len, uint16_t src_stride,
                       uint32_t dst_stride, const AscendC::QuantParams& q, bool relu,
                       const AscendC::Nz2NdParams& nd, uint32_t dst_elem, uint32_t src_elem);

void Fill(const char* call, const Operand& dst, const void* value, uint16_t repeat,
          uint16_t block_num, uint16_t dst_gap);

}  // namespace ascsim::aicore::cube

namespace AscendC {

// ---- LoadData (2D) ----
template <typename T>
void LoadData(const LocalTensor<T>& dst, const LocalTensor<T>& src,
              const LoadData2DParams& loadDataParams) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const char* call = "LoadData";
  ai::cube::LoadData2D(call, ai::cube::Local(dst, call, "dst"), ai::cube::Local(src, call, "src"),
                       loadDataParams);
}

template <typename T>
void LoadData(const LocalTensor<T>& dst, const GlobalTensor<T>& src,
              const LoadData2DParams& loadDataParams) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const char* call = "LoadData GM";
  const ai::cube::Operand d = ai::cube::Local(dst, call, "dst");
  const uint64_t extent = ai::cube::LoadData2DGmExtent(loadDataParams, sizeof(T));
  const uint8_t* s = extent == 0 ? nullptr : ai::cube::GmRead(src, call, extent);
  ai::cube::LoadData2DFromGm(call, d, s, loadDataParams);
}

template <typename T>
void LoadDataWithTranspose(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                           const LoadData2dTransposeParams& loadDataParams) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const char* call = "LoadDataWithTranspose";
  ai::cube::LoadDataWithTranspose(call, ai::cube::Local(dst, call, "dst"),
                                  ai::cube::Local(src, call, "src"), loadDataParams);
}

// Whether LoadData (3D v1/v2) sets the FeatureMap (l1H, l1W, padList) and pad-value registers
// itself (true) or leaves them to SetFmatrix / SetLoadDataPaddingValue (false). Source: asc-devkit
// impl/basic_api/kernel_operator_mm_base_impl.h (struct, constexpr constructor, default {true,
// true}) and docs .../矩阵数据搬入至L0-Buffer/LoadData_3D.md (defaultConfig template parameter).
struct IsResetLoad3dConfig {
  constexpr IsResetLoad3dConfig(const bool isSetFMatrixIn, const bool isSetPaddingIn)
      : isSetFMatrix(isSetFMatrixIn), isSetPadding(isSetPaddingIn) {}
  bool isSetFMatrix = true;
  bool isSetPadding = true;
};
constexpr IsResetLoad3dConfig IS_RESER_LOAD3D_DEFAULT_CONFIG = {true, true};

// img2col is not simulated yet: fail loudly rather than compute something else. The template
// head is the documented one (T, then `const IsResetLoad3dConfig& defaultConfig`), so
// LoadData<T, CONFIG>(...) compiles.
template <typename T, const IsResetLoad3dConfig& defaultConfig = IS_RESER_LOAD3D_DEFAULT_CONFIG,
          typename U = T>
void LoadData(const LocalTensor<T>&, const LocalTensor<T>&, const LoadData3DParamsV2<U>&) {
  ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                        "LoadData with LoadData3DParamsV2 (img2col) is not simulated yet");
}

// LoadData(dst, src, LoadData3DParamsV2Pro): the same img2col in its packed parameters
// (include/basic_api/kernel_operator_mm_intf.h); not simulated either.
template <typename T>
void LoadData(const LocalTensor<T>&, const LocalTensor<T>&, const LoadData3DParamsV2Pro&) {
  ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                        "LoadData with LoadData3DParamsV2Pro (img2col) is not simulated yet");
}

// ---- Mmad ----
template <typename T, typename U, typename S>
void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
          const MmadParams& mmadParams) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const char* call = "Mmad";
  ai::cube::Mmad(call, ai::cube::Local(dst, call, "dst"), ai::cube::Local(fm, call, "fm"),
                 ai::cube::Local(filter, call, "filter"), nullptr, mmadParams);
}

template <typename T, typename U, typename S, typename V>
void Mmad(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<S>& filter,
          const LocalTensor<V>& bias, const MmadParams& mmadParams) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const char* call = "Mmad";
  const ai::cube::Operand b = ai::cube::Local(bias, call, "bias");
  ai::cube::Mmad(call, ai::cube::Local(dst, call, "dst"), ai::cube::Local(fm, call, "fm"),
                 ai::cube::Local(filter, call, "filter"), &b, mmadParams);
}

// ---- Fixpipe: L0C -> GM / L1 ----
template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
             const FixpipeParamsV220& intriParams) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const char* call = "Fixpipe";
  const ai::cube::Operand s = ai::cube::Local(src, call, "src");
  static_assert(config.format != CO2Layout::COLUMN_MAJOR,
                "ascsim: Fixpipe with CFG_COLUMN_MAJOR is not simulated; use CFG_ROW_MAJOR or "
                "CFG_NZ");
  ai::cube::FixpipeArgs a;
  ai::cube::FixpipeFromV220(a, intriParams, config.format == CO2Layout::ROW_MAJOR);
  ai::cube::FixpipeCheck(call, s, ascsim::simd::DTypeOf<T>(), a, true);
  const uint64_t extent = ai::cube::FixpipeDstExtent(a, sizeof(T));
  const ai::Footprint rows = ai::cube::FixpipeDstFootprint(a, sizeof(T));
  uint8_t* d = extent == 0 ? nullptr
                           : ai::cube::GmWrite(dst, call, extent, ascsim::trace::Pipe::kFix, &rows);
  ai::cube::FixpipeToGm(call, d, ascsim::simd::DTypeOf<T>(), s, a, ai::GmSideOf(dst));
}

template <typename T, typename U, const FixpipeConfig& config = CFG_ROW_MAJOR>
void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src,
             const FixpipeParamsV220& intriParams) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const char* call = "Fixpipe";
  static_assert(config.format != CO2Layout::COLUMN_MAJOR,
                "ascsim: Fixpipe with CFG_COLUMN_MAJOR is not simulated; use CFG_ROW_MAJOR or "
                "CFG_NZ");
  ai::cube::FixpipeArgs a;
  ai::cube::FixpipeFromV220(a, intriParams, config.format == CO2Layout::ROW_MAJOR);
  ai::cube::FixpipeToLocal(call, ai::cube::Local(dst, call, "dst"),
                           ai::cube::Local(src, call, "src"), a);
}

// The older FixpipeParams<T> form.
template <typename T, typename U, typename S = U,
          typename std::enable_if<std::is_same<U, S>::value, bool>::type = true>
void Fixpipe(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
             const FixpipeParams<S>& intriParams) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const char* call = "Fixpipe";
  const ai::cube::Operand s = ai::cube::Local(src, call, "src");
  ai::cube::FixpipeArgs a;
  ai::cube::FixpipeFromLegacy(a, intriParams.cburstNum, intriParams.burstLen, intriParams.srcStride,
                              intriParams.dstStride, intriParams.quantParams, intriParams.reluEn,
                              intriParams.nz2ndParams, sizeof(T), sizeof(U));
  ai::cube::FixpipeCheck(call, s, ascsim::simd::DTypeOf<T>(), a, true);
  const uint64_t extent = ai::cube::FixpipeDstExtent(a, sizeof(T));
  const ai::Footprint rows = ai::cube::FixpipeDstFootprint(a, sizeof(T));
  uint8_t* d = extent == 0 ? nullptr
                           : ai::cube::GmWrite(dst, call, extent, ascsim::trace::Pipe::kFix, &rows);
  ai::cube::FixpipeToGm(call, d, ascsim::simd::DTypeOf<T>(), s, a, ai::GmSideOf(dst));
}

template <typename T, typename U, typename S = U,
          typename std::enable_if<std::is_same<U, S>::value, bool>::type = true>
void Fixpipe(const LocalTensor<T>& dst, const LocalTensor<U>& src,
             const FixpipeParams<S>& intriParams) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const char* call = "Fixpipe";
  ai::cube::FixpipeArgs a;
  ai::cube::FixpipeFromLegacy(a, intriParams.cburstNum, intriParams.burstLen, intriParams.srcStride,
                              intriParams.dstStride, intriParams.quantParams, intriParams.reluEn,
                              intriParams.nz2ndParams, sizeof(T), sizeof(U));
  ai::cube::FixpipeToLocal(call, ai::cube::Local(dst, call, "dst"),
                           ai::cube::Local(src, call, "src"), a);
}

// The NZ2ND / quant registers the older DataCopy L0C->GM form reads.
inline void SetFixpipeNz2ndFlag(uint16_t ndNum, uint16_t srcNdStride, uint16_t dstNdStride) {
  ascsim::aicore::CurrentCore().cube.fixpipe_nd_para =
      (uint64_t{dstNdStride} << 32) | (uint64_t{srcNdStride} << 16) | ndNum;
}
inline void SetFixpipePreQuantFlag(uint64_t config) {
  ascsim::aicore::CurrentCore().cube.fixpipe_quant_scalar = config;
}

// ---- DataCopy out of L0C with DataCopyCO12DstParams ----
// The same FIX pipe copy as Fixpipe with FixpipeParamsV220 (asc-devkit dav_c220
// kernel_operator_data_copy_impl.h: both issue copy_matrix_cc_to_gm / copy_matrix_cc_to_cbuf with
// nSize, mSize, dstStride, srcStride, quantPre, reluPre, channelSplit, nz2ndEn). What Fixpipe
// passes as fields, this copy reads from the registers: the NZ2ND matrix count and strides from
// SetFixpipeNz2ndFlag (one matrix when never set) and the scalar of DEQF16 / QF322B8_PRE / REQ8
// from SetFixpipePreQuantFlag. A vector quantPre (VDEQF16, VQF322B8_PRE, VREQ8), clipReluPre and
// eltWiseOp are not simulated.
namespace detail {
inline ascsim::aicore::cube::FixpipeArgs CO12Args(const char* call,
                                                  const DataCopyCO12DstParams& p) {
  namespace ai = ascsim::aicore;
  if (p.quantPre == QuantMode_t::VDEQF16 || p.quantPre == QuantMode_t::VQF322B8_PRE ||
      p.quantPre == QuantMode_t::VREQ8 || p.clipReluPre != 0 || p.eltWiseOp != 0) {
    ai::Fault(ascsim::ErrorKind::kInvalidArgument,
              ai::Str(call, ": a per-channel quantPre (VDEQF16 / VQF322B8_PRE / VREQ8), clipReluPre "
                            "and eltWiseOp are not simulated"));
  }
  const ai::CoreContext& core = ai::CurrentCore();
  ai::cube::FixpipeArgs a;
  a.n = p.nSize;
  a.m = p.mSize;
  a.src_stride = p.srcStride;
  a.dst_stride = p.dstStride;
  a.nd = p.nz2ndEn;
  if (p.nz2ndEn) {
    const uint64_t nd = core.cube.fixpipe_nd_para;
    const uint32_t nd_num = static_cast<uint32_t>(nd & 0xFFFF);
    a.nd_num = nd_num == 0 ? 1 : nd_num;
    a.src_nd_stride = ((nd >> 16) & 0xFFFF) * 256;  // 16 x 16 fractals, as FixpipeParamsV220's
    a.dst_nd_stride = (nd >> 32) & 0xFFFF;
  }
  a.quant = p.quantPre;
  a.deq_scalar = core.cube.fixpipe_quant_scalar;
  a.relu = p.reluPre != 0;
  a.channel_split = p.channelSplit;
  return a;
}
}  // namespace detail

template <typename T, typename U>
void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<U>& src,
              const DataCopyCO12DstParams& intriParams) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const char* call = "DataCopy (DataCopyCO12DstParams)";
  const ai::cube::Operand s = ai::cube::Local(src, call, "src");
  const ai::cube::FixpipeArgs a = detail::CO12Args(call, intriParams);
  ai::cube::FixpipeCheck(call, s, ascsim::simd::DTypeOf<T>(), a, true);
  const uint64_t extent = ai::cube::FixpipeDstExtent(a, sizeof(T));
  const ai::Footprint rows = ai::cube::FixpipeDstFootprint(a, sizeof(T));
  uint8_t* d = extent == 0 ? nullptr
                           : ai::cube::GmWrite(dst, call, extent, ascsim::trace::Pipe::kFix, &rows);
  ai::cube::FixpipeToGm(call, d, ascsim::simd::DTypeOf<T>(), s, a, ai::GmSideOf(dst));
}
template <typename T, typename U>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src,
              const DataCopyCO12DstParams& intriParams) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const char* call = "DataCopy (DataCopyCO12DstParams)";
  ai::cube::FixpipeToLocal(call, ai::cube::Local(dst, call, "dst"),
                           ai::cube::Local(src, call, "src"), detail::CO12Args(call, intriParams));
}

// ---- local copies of the cube side ----
// Between two local memories with DataCopyParams: L1 -> BiasTable (C1 -> C2, blockLen in 64 B
// on A2), UB <-> L1 on a coupled core, UB -> UB (vector pipe, 32 B units).
template <typename T>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src,
              const DataCopyParams& intriParams) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  ai::CheckBlockCount("DataCopy (DataCopyParams)", intriParams.blockCount);
  ai::cube::CopyLocal("DataCopy (DataCopyParams)",
                      ai::cube::Local(dst, "DataCopy (DataCopyParams)", "dst"),
                      ai::cube::Local(src, "DataCopy (DataCopyParams)", "src"), &intriParams, 0);
}

// L1 -> BiasTable with conversion (C1 half -> C2 float; asc-devkit "DataCopy（L1ToBiasTable-Buffer
// 数据搬运）", the form with src and dst types that differ): blockLen counts 64 B of the source,
// so each block writes twice as many bytes of float.
template <typename T, typename U, std::enable_if_t<!std::is_same_v<T, U>, int> = 0>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src,
              const DataCopyParams& repeatParams) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  ai::CheckBlockCount("DataCopy (DataCopyParams)", repeatParams.blockCount);
  ai::cube::CopyLocal("DataCopy (DataCopyParams)",
                      ai::cube::Local(dst, "DataCopy (DataCopyParams)", "dst"),
                      ai::cube::Local(src, "DataCopy (DataCopyParams)", "src"), &repeatParams, 0);
}

template <class T, class U>
void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyParams& params,
              const DataCopyEnhancedParams& enhanced) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const char* call = "DataCopy CO1->CO2 (DataCopyEnhancedParams)";
  ai::CheckBlockCount(call, params.blockCount);
  ai::cube::CopyL0cToUb(call, ai::cube::Local(dst, call, "dst"), ai::cube::Local(src, call, "src"),
                        params.blockCount, params.blockLen, params.srcStride, params.dstStride,
                        enhanced);
}

// ---- Fill / InitConstValue: L1, L0A, L0B initialised with a value ----
template <typename T, typename U = T>
void Fill(const LocalTensor<T>& dst, const InitConstValueParams<U>& p) {
  namespace ai = ascsim::aicore;
  ai::CoreContext& core = ai::CurrentCore();
  ai::EnterApiCall(core);
  const T value = static_cast<T>(p.initValue);
  ai::cube::Fill("Fill", ai::cube::Local(dst, "Fill", "dst"), &value, p.repeatTimes, p.blockNum,
                 p.dstGap);
}
template <typename T, typename U = T>
void InitConstValue(const LocalTensor<T>& dst, const InitConstValueParams<U>& p) {
  Fill(dst, p);
}

// Padding value of img2col loads; recorded (LoadData 3D is not simulated yet).
template <typename T>
void SetLoadDataPaddingValue(const T padValue) {
  uint64_t bits = 0;
  static_assert(sizeof(T) <= sizeof(bits), "padding value");
  std::memcpy(&bits, &padValue, sizeof(T));
  ascsim::aicore::CurrentCore().cube.load_pad_value = bits;
}
inline void SetLoadDataBoundary(uint32_t) {}
inline void SetFmatrix(uint16_t, uint16_t, const uint8_t[4], const FmatrixMode&) {}

// HF32 rounding of float Mmad inputs: A2 rounds float operands to HF32 when enabled. The
// simulator computes float Mmad in full float precision and rejects HF32 mode so that no result
// silently differs from the device.
inline void SetHF32Mode(bool enable) {
  if (enable) {
    ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                          "SetHF32Mode(true): HF32 Mmad is not simulated");
  }
}
inline void SetHF32TransMode(bool) {}  // only matters with HF32 on, which is rejected above
// The transformed Mmad output order is not simulated: refused rather than silently ignored.
inline void SetMMLayoutTransform(bool enable) {
  if (enable) {
    ascsim::aicore::Fault(
        ascsim::ErrorKind::kInvalidArgument,
        "SetMMLayoutTransform(true): the transformed Mmad layout is not simulated");
  }
}

}  // namespace AscendC
