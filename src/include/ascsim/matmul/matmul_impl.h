// The Matmul API (AscendC::MatmulImpl, aliased as Matmul by lib/matmul_intf.h) written on the
// low-level cube API of kernel_operator.h, so that every step is checked, recorded and profiled
// like kernel code: DataCopy GM -> L1 with Nd2NzParams (MTE2), LoadData L1 -> L0A/L0B (MTE1),
// Mmad into L0C (M), Fixpipe L0C -> GM (FIX), with TQue hand-overs and SetFlag/WaitFlag between
// the pipes as a kernel would write them.
//
// Interface: asc-devkit include/adv_api/matmul/matmul.h (member functions and their defaults)
// and docs/zh/api/SIMD-API/高阶API/矩阵计算/Matmul-Kernel侧接口/*.md. Iteration order, tail
// handling, GetTensorC placement (non-sequential: the tile's place in singleCoreM x singleCoreN;
// sequential: a dense baseM x baseN tile) follow those pages. docs/cube.md ("Matmul API") lists
// what is simulated and what faults as not simulated.
//
// Resources per object, as CANN's Matmul takes them from the TPipe: depthA1 A1 tiles, depthB1 B1
// tiles, a C1 bias row and one CO1 (L0C) tile of baseM x baseN. Under CFG_MDL (doMultiDataLoad)
// one GM -> L1 copy carries several base blocks: A1 holds one or two tiles of stepM x stepKa base
// blocks, B1 of stepKb x stepN, and the Mmads of the blocks inside a tile read it from L1 (see
// MdlTile below). L0A, L0B and the BiasTable are
// used whole and shared by every Matmul object of the core (ping-pong halves of L0A/L0B when
// dbL0A/dbL0B is 2).
//
// Where the cube work runs (docs/cube.md, "Matmul in mix kernels"): on the calling core when it
// has a cube unit; on an AIV of a mix kernel the object is a client and each request runs on the
// AIC side of its block (ascsim/matmul/matmul_server.h).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>

#include "ascsim/aicore/atomic.h"
#include "ascsim/aicore/checks.h"
#include "ascsim/aicore/cube.h"
#include "ascsim/aicore/data_copy.h"
#include "ascsim/aicore/internal.h"
#include "ascsim/aicore/kernel_type.h"
#include "ascsim/aicore/sync.h"
#include "ascsim/aicore/tensor_access.h"
#include "ascsim/aicore/tpipe.h"
#include "ascsim/ceil_align.h"
#include "ascsim/matmul/matmul_config.h"
#include "ascsim/matmul/matmul_server.h"

namespace ascsim::matmul {

// The whole L0A, L0B and BiasTable of the current core, as fixed buffers shared by its Matmul
// objects (made on first use). Faults when `pipe` already holds buffers in those memories (the
// Matmul would overwrite them). Out of line: src/aicore/matmul_server.cpp.
struct L0Buffers {
  aicore::BufferSlot* a2;
  aicore::BufferSlot* b2;
  aicore::BufferSlot* bt;
};
L0Buffers MatmulL0Buffers(const AscendC::TPipe& pipe);
// A registered device buffer for C tiles bound for a Unified Buffer (zero-filled), and its
// release.
uint8_t* ScratchAlloc(uint64_t bytes);
void ScratchFree(uint8_t* buffer);
// Fault with "Matmul::<call>: <detail>".
[[noreturn]] void MatmulFault(const char* call, std::string_view detail);
// The profile's name and whether it has split AIC/AIV cores (the Matmul API is simulated there).
bool CurrentArchHasSplitCores();

inline int32_t Align(int32_t v, int32_t a) { return ascsim::AlignUp(v, a); }
inline int32_t CeilDiv(int32_t a, int32_t b) { return ascsim::CeilDiv(a, b); }
constexpr int32_t kFractalBytes = 512;
constexpr uint32_t kMaxRepeat = 255;  // LoadData2DParams::repeatTimes is 8 bits

}  // namespace ascsim::matmul

namespace AscendC {

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE,
          const auto& MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<nullptr, nullptr, nullptr>,
          MATMUL_POLICY_DEFAULT_OF(MatmulPolicy), typename = void>
class MatmulImpl {
 public:
  using AType = A_TYPE;
  using BType = B_TYPE;
  using CType = C_TYPE;
  using BiasType = BIAS_TYPE;
  using CallBack = MM_CB;

 private:
  using SrcAT = typename A_TYPE::T;
  using SrcBT = typename B_TYPE::T;
  using SrcT = SrcAT;
  using DstT = typename C_TYPE::T;
  using BiasT = typename BIAS_TYPE::T;
  using L0cT = std::conditional_t<sizeof(SrcAT) == 1, int32_t, float>;
  static constexpr MatmulConfig kCfg = ToMatmulConfig(MM_CFG);
  // MM_CFG is a constant tiling (GetMatmulApiTiling) rather than a MatmulConfig.
  static constexpr bool kStaticTiling =
      std::is_same<std::remove_cv_t<std::remove_reference_t<decltype(MM_CFG)>>,
                   MatmulApiStaticTiling>::value;
  static constexpr int32_t kC0A = 32 / static_cast<int32_t>(sizeof(SrcAT));  // K0 of A
  static constexpr int32_t kC0B = 32 / static_cast<int32_t>(sizeof(SrcBT));
  static constexpr int32_t kC0C = 32 / static_cast<int32_t>(sizeof(DstT));  // 32 B of C
  static constexpr bool kB8 = sizeof(SrcAT) == 1;                            // int8_t inputs

 public:
  MatmulImpl() = default;
  ~MatmulImpl() {
    if (scratch_ != nullptr) ascsim::matmul::ScratchFree(scratch_);
  }
  MatmulImpl(const MatmulImpl&) = delete;
  MatmulImpl& operator=(const MatmulImpl&) = delete;

  void Init(const TCubeTiling* __restrict cubeTiling, TPipe* tpipe = nullptr) {
    namespace ai = ascsim::aicore;
    const char* call = "Init";
    ai::CoreContext& core = ai::CurrentCore();
    // An AIV object is the client of a mix kernel (the runtime's probe learns it here when the
    // kernel declares no type and calls Init without REGIST_MATMUL_OBJ).
    if (core.unit == ai::CoreUnit::kAiv) ai::RevealMatmul(false);
    if (!ascsim::matmul::CurrentArchHasSplitCores()) {
      ascsim::matmul::MatmulFault(
          call,
          ai::Str("the Matmul API is simulated on the A2 profiles (split AIC/AIV cores) only; ",
                  core.launch->soc->name,
                  " runs Matmul through the Unified Buffer (SetLocalWorkspace), which ascsim "
                  "does not model yet: use the low-level LoadData/Mmad path there"));
    }
    if (cubeTiling != nullptr) {
      tiling_ = *cubeTiling;
    } else if constexpr (!kStaticTiling) {
      ascsim::matmul::MatmulFault(call, "the tiling pointer is null");
    } else {
      tiling_ = TCubeTiling{};
    }
    if constexpr (kStaticTiling) ApplyStaticTiling(call, cubeTiling == nullptr);
    CheckTiling(call);
    CheckTypes(call);
    if (tpipe != nullptr) pipe_ = tpipe;
    client_ = core.unit == ai::CoreUnit::kAiv;
    server_ = client_ ? ai::MatmulServerFor(core, "Matmul::Init") : nullptr;
    if (!client_ && pipe_ == nullptr) pipe_ = GetTPipePtr();
    orgM_ = tiling_.M;
    orgN_ = tiling_.N;
    orgKa_ = tiling_.Ka;
    orgKb_ = tiling_.Kb;
    orgKc_ = 0;
    singleM_ = tiling_.singleCoreM;
    singleN_ = tiling_.singleCoreN;
    singleK_ = tiling_.singleCoreK;
    biasEnabled_ = tiling_.isBias != 0;
    inited_ = true;
    ResetIteration();
    // A core with its own cube unit takes its buffers now, as CANN's Init does (capacity faults
    // show at REGIST_MATMUL_OBJ); a client's server takes them at the first request.
    if (!client_) EnsureResources();
  }

  void SetOrgShape(int orgM, int orgN, int orgK) { SetOrgShape(orgM, orgN, orgK, orgK); }
  void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0) {
    RequireInit("SetOrgShape");
    if (orgM <= 0 || orgN <= 0 || orgKa <= 0 || orgKb <= 0 || orgKc < 0) {
      ascsim::matmul::MatmulFault(
          "SetOrgShape", ascsim::aicore::Str("shape (", orgM, ", ", orgN, ", ", orgKa, ", ", orgKb,
                                             ", ", orgKc, ") must be positive"));
    }
    orgM_ = orgM;
    orgN_ = orgN;
    orgKa_ = orgKa;
    orgKb_ = orgKb;
    orgKc_ = orgKc;
    ResetIteration();
  }
  void SetSingleShape(int singleM, int singleN, int singleK) {
    SetShape("SetSingleShape", singleM, singleN, singleK);
  }
  void SetTail(int tailM = -1, int tailN = -1, int tailK = -1) {
    SetShape("SetTail", tailM, tailN, tailK);
  }

  void SetTensorA(const GlobalTensor<SrcAT>& gm, bool isTransposeA = false) {
    RequireInit("SetTensorA");
    aGm_ = gm;
    aSet_ = true;
    // The call decides; MatmulType's ISTRANS only enables it (Matmul使用说明, ISTRANS; asc-devkit
    // impl/adv_api/detail/matmul/param/matmul_tensor_info.h SetGlobalTensor passes the argument
    // alone to matmul_shape_info.h SetTransposeA/B).
    transA_ = isTransposeA;
    ResetIteration();
  }
  void SetTensorB(const GlobalTensor<SrcBT>& gm, bool isTransposeB = false) {
    RequireInit("SetTensorB");
    bGm_ = gm;
    bSet_ = true;
    transB_ = isTransposeB;
    ResetIteration();
  }
  void SetBias(const GlobalTensor<BiasT>& biasGlobal) {
    RequireInit("SetBias");
    biasGm_ = biasGlobal;
    biasSet_ = true;
    biasEnabled_ = true;
    ResetIteration();
  }
  void SetTensorA(const LocalTensor<SrcAT>&, bool = false) {
    NotSimulated("SetTensorA", "A in a local buffer (TSCM/VECOUT)");
  }
  void SetTensorB(const LocalTensor<SrcBT>&, bool = false) {
    NotSimulated("SetTensorB", "B in a local buffer (TSCM/VECOUT)");
  }
  void SetTensorA(SrcAT) { NotSimulated("SetTensorA", "a scalar A"); }
  void SetTensorB(SrcBT) { NotSimulated("SetTensorB", "a scalar B"); }
  void SetBias(const LocalTensor<BiasT>&) { NotSimulated("SetBias", "a bias in a local buffer"); }
  void DisableBias() {
    biasEnabled_ = false;
    ResetIteration();
  }
  void ClearBias() { DisableBias(); }
  template <class T>
  void SetSelfDefineData(T) {}
  void SetUserDefInfo(const uint64_t) {}
  void SetSparseIndex(const GlobalTensor<uint8_t>&) {
    NotSimulated("SetSparseIndex", "sparse Matmul");
  }
  void SetAntiQuantScalar(const SrcT, const SrcT) {
    NotSimulated("SetAntiQuantScalar", "anti-quantisation");
  }
  void SetAntiQuantVector(const LocalTensor<SrcT>&, const LocalTensor<SrcT>&) {
    NotSimulated("SetAntiQuantVector", "anti-quantisation");
  }
  // int8 inputs with a half (DEQF16) or int8 (REQ8) result: the scale Fixpipe applies.
  void SetQuantScalar(const uint64_t quantScalar) {
    quantScalar_ = quantScalar;
    quantSet_ = true;
  }
  void SetQuantVector(const GlobalTensor<uint64_t>&) {
    NotSimulated("SetQuantVector", "per-channel quantisation");
  }
  void SetQuantVector(const LocalTensor<uint64_t>&) {
    NotSimulated("SetQuantVector", "per-channel quantisation");
  }
  void SetBatchNum(int32_t, int32_t) { NotSimulated("SetBatchNum", "batch Matmul"); }
  // The number of batches IterateBatch keeps in L0C before one copy out; 1 unless the config's
  // bmmOutMode asks for several (asc-devkit impl/adv_api/detail/matmul/batch_matmul_impl.h).
  // Kernels call it before Init; batch Matmul itself faults at Init (batch layouts) and
  // IterateBatch.
  void SetNBatchOutNum(int32_t nBatchOutNumIn) {
    nBatchOutNum_ = kCfg.bmmOutMode != BatchOutMode::SINGLE_BATCH ? nBatchOutNumIn : 1;
  }
  void SetHF32(bool enableHF32 = false, int32_t = 0) {
    if (enableHF32) NotSimulated("SetHF32", "HF32 mode");
  }
  void SetSubBlockIdx(uint8_t subBlockIdx) { subBlockIdx_ = subBlockIdx; }
  uint8_t GetSubBlockIdx() { return subBlockIdx_; }
  template <class T>
  void SetWorkspace(__gm__ const T* addr, int size) {
    workspace_ = reinterpret_cast<__gm__ uint8_t*>(const_cast<T*>(addr));
    workspaceBytes_ = static_cast<uint64_t>(size) * sizeof(T);
  }
  template <class T>
  void SetWorkspace(GlobalTensor<T>& addr) {
    workspace_ = reinterpret_cast<__gm__ uint8_t*>(addr.GetPhyAddr());
    workspaceBytes_ = addr.GetSize() * sizeof(T);
  }
  // The Unified Buffer scratch of the 310P path; the A2 path needs none.
  void SetLocalWorkspace(const LocalTensor<uint8_t>&) {}

  // One baseM x baseN block of C into L0C (the next in iterateOrder); false when all are done.
  template <bool sync = true>
  bool Iterate(bool enPartialSum = false) {
    ServerScope scope(this);
    const bool more = IterateOnCube("Iterate", enPartialSum, nullptr);
    asyncPending_ = !sync && more;  // GetTensorC<false> takes this block first
    return more;
  }
  template <bool sync = true, typename T>
  bool Iterate(bool enPartialSum, const LocalTensor<T>& localCmatrix) {
    static_assert(std::is_same<T, L0cT>::value, "Iterate: the CO1 tensor holds the L0C type");
    if (client_) NotSimulated("Iterate", "a CO1 tensor of the kernel on an AIV client");
    ServerScope scope(this);
    return IterateOnCube("Iterate", enPartialSum, &localCmatrix);
  }

  template <bool sync = true>
  void IterateAll(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0,
                  bool enSequentialWrite = false, bool waitIterateAll = false,
                  bool fakeMsg = false) {
    (void)enSequentialWrite;
    (void)waitIterateAll;
    (void)fakeMsg;
    // A and B both ibShare ("sameab"): sub-block 1's client posts no message, so the AIC computes
    // and writes C once, for sub-block 0, and sub-block 1 waits for that result (asc-devkit
    // 82b89a15f include/adv_api/matmul/matmul_client.h PostMessage: "Do not send v1's message to
    // cube"; IterateAll waits on devEvtID - 1 there).
    constexpr bool kSharedResult = A_TYPE::ibShare && B_TYPE::ibShare;
    if constexpr (kSharedResult) {
      if (client_ && ascsim::aicore::CurrentCore().sub_block_idx == 1) {
        RequireInit("IterateAll");
        ascsim::aicore::MatmulAwaitSharedResult(server_, ++sharedResults_);
        return;
      }
    }
    {
      ServerScope scope(this);
      ResetIteration();
      while (IterateOnCube("IterateAll", false, nullptr)) {
        CopyOutGm("IterateAll", gm, enAtomic, false);
      }
    }
    if constexpr (kSharedResult) {
      if (client_) ascsim::aicore::MatmulSharedResultDone(server_);
    }
  }
  template <bool sync = true>
  void IterateAll(const LocalTensor<DstT>& ubCmatrix, uint8_t enAtomic = 0) {
    ResetIteration();
    while (Iterate<true>(false)) GetTensorC<true>(ubCmatrix, enAtomic, false);
  }
  void WaitIterateAll() {}
  void WaitIterateBatch() {}
  void IterateBatch(const GlobalTensor<DstT>&, bool, uint8_t, bool, const uint32_t = 0,
                    const uint32_t = 0, const uint32_t = 0) {
    NotSimulated("IterateBatch", "batch Matmul");
  }
  void IterateBatch(const LocalTensor<DstT>&, bool, uint8_t, bool, const uint32_t = 0,
                    const uint32_t = 0, const uint32_t = 0) {
    NotSimulated("IterateBatch", "batch Matmul");
  }
  template <bool sync = true, bool waitIterateBatch = false>
  void IterateNBatch(const uint32_t, uint32_t, uint32_t, bool, const uint32_t = 0,
                     const uint32_t = 0, const uint32_t = 0) {
    NotSimulated("IterateNBatch", "batch Matmul");
  }

  // The block of the last Iterate out of L0C. Asynchronous forms (sync = false) compute their
  // block here: Iterate<false> only starts the sequence (docs/cube.md).
  template <bool sync = true>
  void GetTensorC(const GlobalTensor<DstT>& gm, uint8_t enAtomic = 0,
                  bool enSequentialWrite = false) {
    ServerScope scope(this);
    if (!sync && !AsyncStep("GetTensorC")) return;
    CopyOutGm("GetTensorC", gm, enAtomic, enSequentialWrite);
  }
  template <bool sync = true, bool doPad = false>
  void GetTensorC(const LocalTensor<DstT>& co2Local, uint8_t enAtomic = 0,
                  bool enSequentialWrite = false, uint32_t = 0, uint32_t = 0, uint32_t = 0,
                  uint32_t = 0) {
    CopyOutUb<sync>(nullptr, co2Local, enAtomic, enSequentialWrite);
  }
  template <bool sync = true>
  void GetTensorC(const GlobalTensor<DstT>& gm, const LocalTensor<DstT>& co2Local,
                  uint8_t enAtomic = 0, bool enSequentialWrite = false) {
    CopyOutUb<sync>(&gm, co2Local, enAtomic, enSequentialWrite);
  }
  // Asynchronous: the block lands in the workspace (SetWorkspace), tile i at i * baseM * baseN.
  template <bool sync = true>
  GlobalTensor<DstT> GetTensorC(uint8_t enAtomic = 0, bool enSequentialWrite = false) {
    (void)enSequentialWrite;
    GlobalTensor<DstT> out;
    ServerScope scope(this);
    if (workspace_ == nullptr) {
      ascsim::matmul::MatmulFault("GetTensorC",
                                  "the workspace form needs SetWorkspace before Iterate");
    }
    if (!sync && !AsyncStep("GetTensorC")) return out;
    const uint64_t tile = uint64_t(tiling_.baseM) * uint64_t(tiling_.baseN);
    const uint64_t index = static_cast<uint64_t>(iterIndex_ - 1);
    out.SetGlobalBuffer(reinterpret_cast<__gm__ DstT*>(workspace_) + index * tile, tile);
    CopyOutGm("GetTensorC", out, enAtomic, true);
    return out;
  }
  template <bool isTurnOnDebug = true>
  MatrixOffset GetOffsetC() {
    MatrixOffset o{};
    o.row = curRow0_;
    o.col = curCol0_;
    o.height = curRows_;
    o.width = curCols_;
    o.offset = curRow0_ * CStride() + curCol0_;
    return o;
  }

  // Releases the block in L0C and the L0 flags (the next object may use the cube).
  void End() {
    if (!inited_ || !resources_) return;
    ServerScope scope(this);
    DropC();
    DropTiles();
    ResetIteration();
  }

  // ascsim: REGIST_MATMUL_OBJ without a tiling gives the object its TPipe for a later Init.
  void SetTPipeForInit(TPipe* tpipe) { pipe_ = tpipe; }
  // ascsim: whether Init may be given a null tiling (a fully constant MM_CFG), as
  // REGIST_MATMUL_OBJ(&pipe, workspace, mm, nullptr) then initialises the object.
  static constexpr bool InitsWithoutTiling() {
    if constexpr (kStaticTiling) {
      return MM_CFG.singleCoreM != -1 && MM_CFG.baseM != -1;
    } else {
      return false;
    }
  }

 private:
  // Runs a request on the AIC side of the block when this object is a mix-kernel client.
  class ServerScope {
   public:
    explicit ServerScope(MatmulImpl* mm) {
      mm->RequireInit("Iterate");
      if (mm->client_) {
        scope_ = std::make_unique<ascsim::aicore::MatmulServerScope>(mm->server_);
        // The AIC takes the client's request before it issues any of its work.
        ScalarWork("Matmul::Message", &ascsim::SocProfile::matmul_message_scalar_cycles, true);
        mm->EnsureResources();
      }
    }

   private:
    std::unique_ptr<ascsim::aicore::MatmulServerScope> scope_;
  };

  [[noreturn]] void NotSimulated(const char* call, const char* what) const {
    ascsim::matmul::MatmulFault(call, ascsim::aicore::Str(what, " is not simulated yet"));
  }
  void RequireInit(const char* call) const {
    if (!inited_) {
      ascsim::matmul::MatmulFault(
          call,
          "the object has no tiling: call REGIST_MATMUL_OBJ(&pipe, workspace, mm, &tiling) "
          "or mm.Init(&tiling) first");
    }
  }

  void SetShape(const char* call, int m, int n, int k) {
    RequireInit(call);
    if (m == 0 || n == 0 || k == 0 || m < -1 || n < -1 || k < -1) {
      ascsim::matmul::MatmulFault(call, ascsim::aicore::Str("shape (", m, ", ", n, ", ", k,
                                                            ") must be positive (-1 keeps one)"));
    }
    if (m > 0) singleM_ = m;
    if (n > 0) singleN_ = n;
    if (k > 0) singleK_ = k;
    ResetIteration();
  }

  // Every field of the constant tiling that is not -1 overrides the runtime tiling's (CANN's
  // MatmulTiling<MM_CFG> getters, impl/adv_api/tiling/matmul/matmul_constant_tiling_struct.h).
  // Without a runtime tiling, the fields the Matmul reads must all be constant.
  void ApplyStaticTiling(const char* call, bool noRuntimeTiling) {
    if constexpr (kStaticTiling) {
      using ascsim::aicore::Str;
      const MatmulApiStaticTiling& s = MM_CFG;
      std::string missing;
#define ASCSIM_STATIC_FIELD(name, required)                           \
  if (s.name != -1) {                                                 \
    tiling_.name = s.name;                                            \
  } else if (noRuntimeTiling && (required)) {                         \
    missing += missing.empty() ? #name : Str(", ", #name);            \
  }
      ASCSIM_STATIC_FIELD(usedCoreNum, false)
      ASCSIM_STATIC_FIELD(M, true)
      ASCSIM_STATIC_FIELD(N, true)
      ASCSIM_STATIC_FIELD(Ka, true)
      ASCSIM_STATIC_FIELD(Kb, true)
      ASCSIM_STATIC_FIELD(singleCoreM, true)
      ASCSIM_STATIC_FIELD(singleCoreN, true)
      ASCSIM_STATIC_FIELD(singleCoreK, true)
      ASCSIM_STATIC_FIELD(baseM, true)
      ASCSIM_STATIC_FIELD(baseN, true)
      ASCSIM_STATIC_FIELD(baseK, true)
      ASCSIM_STATIC_FIELD(depthA1, true)
      ASCSIM_STATIC_FIELD(depthB1, true)
      ASCSIM_STATIC_FIELD(stepM, true)
      ASCSIM_STATIC_FIELD(stepN, true)
      ASCSIM_STATIC_FIELD(isBias, true)
      ASCSIM_STATIC_FIELD(transLength, false)
      ASCSIM_STATIC_FIELD(iterateOrder, false)
      ASCSIM_STATIC_FIELD(shareMode, false)
      ASCSIM_STATIC_FIELD(shareL1Size, false)
      ASCSIM_STATIC_FIELD(shareL0CSize, false)
      ASCSIM_STATIC_FIELD(shareUbSize, false)
      ASCSIM_STATIC_FIELD(stepKa, true)
      ASCSIM_STATIC_FIELD(stepKb, true)
      ASCSIM_STATIC_FIELD(depthAL1CacheUB, false)
      ASCSIM_STATIC_FIELD(depthBL1CacheUB, false)
      ASCSIM_STATIC_FIELD(dbL0A, false)
      ASCSIM_STATIC_FIELD(dbL0B, false)
      ASCSIM_STATIC_FIELD(dbL0C, false)
      ASCSIM_STATIC_FIELD(ALayoutInfoB, false)
      ASCSIM_STATIC_FIELD(ALayoutInfoS, false)
      ASCSIM_STATIC_FIELD(ALayoutInfoN, false)
      ASCSIM_STATIC_FIELD(ALayoutInfoG, false)
      ASCSIM_STATIC_FIELD(ALayoutInfoD, false)
      ASCSIM_STATIC_FIELD(BLayoutInfoB, false)
      ASCSIM_STATIC_FIELD(BLayoutInfoS, false)
      ASCSIM_STATIC_FIELD(BLayoutInfoN, false)
      ASCSIM_STATIC_FIELD(BLayoutInfoG, false)
      ASCSIM_STATIC_FIELD(BLayoutInfoD, false)
      ASCSIM_STATIC_FIELD(CLayoutInfoB, false)
      ASCSIM_STATIC_FIELD(CLayoutInfoS1, false)
      ASCSIM_STATIC_FIELD(CLayoutInfoN, false)
      ASCSIM_STATIC_FIELD(CLayoutInfoG, false)
      ASCSIM_STATIC_FIELD(CLayoutInfoS2, false)
      ASCSIM_STATIC_FIELD(BatchNum, false)
      ASCSIM_STATIC_FIELD(mxTypePara, false)
#undef ASCSIM_STATIC_FIELD
      if (!missing.empty()) {
        ascsim::matmul::MatmulFault(
            call, Str("the tiling pointer is null and the constant tiling leaves ", missing,
                      " open (-1): only a fully constant tiling (GetMatmulApiTiling of a "
                      "MatmulConfig with singleCoreM/N/K and basicM/N/K) runs without the "
                      "runtime TCubeTiling"));
      }
    }
  }

  void CheckTiling(const char* call) const {
    const TCubeTiling& t = tiling_;
    using ascsim::aicore::Str;
    if (t.M <= 0 || t.N <= 0 || t.Ka <= 0 || t.Kb <= 0 || t.singleCoreM <= 0 ||
        t.singleCoreN <= 0 || t.singleCoreK <= 0) {
      ascsim::matmul::MatmulFault(
          call, Str("tiling shape M ", t.M, ", N ", t.N, ", Ka ", t.Ka, ", Kb ", t.Kb,
                    ", singleCore ", t.singleCoreM, " x ", t.singleCoreN, " x ", t.singleCoreK,
                    " must be positive (was GetTiling's result checked for -1?)"));
    }
    if (t.baseM <= 0 || t.baseN <= 0 || t.baseK <= 0 || t.baseM % 16 != 0 || t.baseN % 16 != 0 ||
        t.baseK % kC0A != 0) {
      ascsim::matmul::MatmulFault(
          call, Str("tiling base block ", t.baseM, " x ", t.baseN, " x ", t.baseK,
                    ": baseM and baseN must be positive multiples of 16 and baseK of ", kC0A,
                    " (one fractal of the input type)"));
    }
    if (t.depthA1 <= 0 || t.depthB1 <= 0) {
      ascsim::matmul::MatmulFault(
          call, Str("tiling depthA1 ", t.depthA1, " / depthB1 ", t.depthB1, " must be >= 1"));
    }
  }

  void CheckTypes(const char* call) const {
    using ascsim::aicore::Str;
    constexpr bool b16 = std::is_same<SrcAT, half>::value || std::is_same<SrcAT, bfloat16_t>::value;
    constexpr bool i8 = std::is_same<SrcAT, int8_t>::value;
    constexpr bool f32 = std::is_same<SrcAT, float>::value;
    static_assert(std::is_same<SrcAT, SrcBT>::value,
                  "Matmul: A and B of different types (anti-quantisation) are not simulated yet");
    static_assert(b16 || i8 || f32, "Matmul: A must be half, bfloat16_t, float or int8_t");
    static_assert(i8 ? (std::is_same<DstT, int32_t>::value || std::is_same<DstT, half>::value ||
                        std::is_same<DstT, int8_t>::value)
                     : (std::is_same<DstT, float>::value || std::is_same<DstT, half>::value ||
                        std::is_same<DstT, bfloat16_t>::value),
                  "Matmul: C type does not match A (float/half/bfloat16_t for floating inputs, "
                  "int32_t/half/int8_t for int8_t)");
    if (A_TYPE::pos != TPosition::GM || B_TYPE::pos != TPosition::GM) {
      NotSimulated(call, "A or B at a position other than GM");
    }
    if ((A_TYPE::format != CubeFormat::ND && A_TYPE::format != CubeFormat::NZ) ||
        (B_TYPE::format != CubeFormat::ND && B_TYPE::format != CubeFormat::NZ)) {
      NotSimulated(call, "A or B in a format other than ND or NZ");
    }
    if (C_TYPE::format != CubeFormat::ND &&
        !(C_TYPE::format == CubeFormat::NZ && sizeof(DstT) == 2)) {
      NotSimulated(call, "C in a format other than ND (or NZ of a 16-bit type)");
    }
    if (A_TYPE::layout != LayoutMode::NONE) NotSimulated(call, "batch layouts");
    if (tiling_.isBias != 0 &&
        !(std::is_same<BiasT, float>::value || (i8 && std::is_same<BiasT, int32_t>::value))) {
      ascsim::matmul::MatmulFault(
          call, Str("the bias must be ", i8 ? "int32_t" : "float",
                    " (the BiasTable holds the L0C type; a half bias is not simulated yet)"));
    }
  }

  void ResetIteration() {
    started_ = false;
    asyncPending_ = false;
    iterIndex_ = 0;
  }

  int32_t CStride() const { return orgKc_ > 0 ? orgKc_ : orgN_; }

  // The buffers of this object, on the core that runs its cube work.
  void EnsureResources() {
    if (resources_) return;
    TPipe* pipe = pipe_;
    if (client_) {
      serverPipe_ = std::make_unique<TPipe>();
      pipe = serverPipe_.get();
    }
    if (pipe == nullptr) pipe = GetTPipePtr();
    const int32_t bm = tiling_.baseM, bn = tiling_.baseN, bk = tiling_.baseK;
    using ascsim::matmul::Align;
    // A tile: Align16(m) rows x K padded to C0 (or K x M when transposed).
    const uint32_t aTile = static_cast<uint32_t>(
        std::max(Align(bm, 16) * Align(bk, kC0A), Align(bk, 16) * Align(bm, kC0A)) * sizeof(SrcAT));
    const uint32_t bTile = static_cast<uint32_t>(
        std::max(Align(bk, 16) * Align(bn, kC0B), Align(bn, 16) * Align(bk, kC0B)) * sizeof(SrcBT));
    if constexpr (kMdl) {
      // CANN's MDL CubeInBuffer: buffers of stepM x stepKa (stepKb x stepN) base blocks, two of
      // them when depthA1 (depthB1) holds two such tiles, else one (asc-devkit impl/adv_api/
      // detail/matmul/resource/cube_in_buffer/cube_in_buffer_double_buffer.h, Init).
      const int32_t stepA = StepM() * StepKa(), stepB = StepN() * StepKb();
      pipe->InitBuffer(qA1_, tiling_.depthA1 / stepA >= 2 ? 2 : 1,
                       aTile * static_cast<uint32_t>(stepA));
      pipe->InitBuffer(qB1_, tiling_.depthB1 / stepB >= 2 ? 2 : 1,
                       bTile * static_cast<uint32_t>(stepB));
    } else {
      pipe->InitBuffer(qA1_, static_cast<uint8_t>(tiling_.depthA1), aTile);
      pipe->InitBuffer(qB1_, static_cast<uint8_t>(tiling_.depthB1), bTile);
    }
    if (tiling_.isBias != 0 || biasEnabled_) {
      pipe->InitBuffer(qBias1_, 1, static_cast<uint32_t>(Align(bn * 4, 64)));
      biasBuffer_ = true;
    }
    pipe->InitBuffer(qCO1_, 1, static_cast<uint32_t>(bm * bn * sizeof(L0cT)));
    l0_ = ascsim::matmul::MatmulL0Buffers(*pipe);
    CheckL0(bm, bn, bk);
    resources_ = true;
    ScalarWork("Matmul::Init", &ascsim::SocProfile::matmul_init_scalar_cycles, false);
  }

  // The Matmul API's own scalar work on the core that runs its cube work (tiling fields, loop
  // bounds and addresses, the mix kernel's messages), as the profile's figure gives it: CANN's
  // Matmul spends it on pipe S, which msprof reports as aic_scalar_time.
  static void ScalarWork(const char* name, double ascsim::SocProfile::*cycles, bool blocking) {
    ascsim::aicore::CoreContext& core = ascsim::aicore::CurrentCore();
    if (core.trace == nullptr || !(core.launch->soc->*cycles > 0)) return;
    ascsim::aicore::Record(core, [&] {
      return ascsim::trace::ScalarWorkCall(
          name, static_cast<uint32_t>(std::max(0.0, core.launch->soc->*cycles)), blocking);
    });
  }

  void CheckL0(int32_t bm, int32_t bn, int32_t bk) const {
    using ascsim::aicore::Str;
    using ascsim::matmul::Align;
    const uint64_t aNeed = uint64_t(Align(bm, 16)) * Align(bk, kC0A) * sizeof(SrcAT);
    const uint64_t bNeed = uint64_t(Align(bk, kC0B)) * Align(bn, 16) * sizeof(SrcBT);
    const uint64_t aHave = l0_.a2->bytes / static_cast<uint32_t>(DbA());
    const uint64_t bHave = l0_.b2->bytes / static_cast<uint32_t>(DbB());
    if (aNeed > aHave || bNeed > bHave) {
      ascsim::matmul::MatmulFault(
          "Init", Str("base block ", bm, " x ", bn, " x ", bk, " needs ", aNeed, " B of L0A and ",
                      bNeed, " B of L0B per buffer; the core has ", aHave, " B and ", bHave,
                      " B per buffer (dbL0A ", DbA(), ", dbL0B ", DbB(),
                      "): choose a smaller baseM/baseN/baseK"));
    }
    if (biasBuffer_ && uint64_t(bn) * 4 > l0_.bt->bytes) {
      ascsim::matmul::MatmulFault(
          "Init", Str("baseN ", bn, " needs ", bn * 4, " B of BiasTable; the core has ",
                      l0_.bt->bytes, " B"));
    }
  }
  int32_t DbA() const { return tiling_.dbL0A == 2 ? 2 : 1; }
  int32_t DbB() const { return tiling_.dbL0B == 2 ? 2 : 1; }

  // Iterate on the cube core (the caller holds the server scope).
  bool IterateOnCube(const char* call, bool enPartialSum, const LocalTensor<L0cT>* userC) {
    using ascsim::matmul::CeilDiv;
    if (!aSet_ || !bSet_) {
      ascsim::matmul::MatmulFault(
          call, aSet_ ? "SetTensorB was not called" : "SetTensorA was not called");
    }
    if (biasEnabled_ && !biasSet_) {
      ascsim::matmul::MatmulFault(
          call,
          "the tiling enables a bias (isBias) but SetBias was not called (DisableBias "
          "turns it off)");
    }
    if (!started_) {
      CheckNzInputs(call);
      DropTiles();  // a new sequence: the inputs or shapes may have changed since
      mIter_ = CeilDiv(singleM_, tiling_.baseM);
      nIter_ = CeilDiv(singleN_, tiling_.baseN);
      iterIndex_ = 0;
      started_ = true;
    }
    if (iterIndex_ >= mIter_ * nIter_) {
      started_ = false;
      iterIndex_ = 0;
      return false;
    }
    const bool orderN = kCfg.iterateOrder == IterateOrder::ORDER_N ||
                        (kCfg.iterateOrder == IterateOrder::UNDEF && tiling_.iterateOrder == 1);
    const int32_t mi = orderN ? iterIndex_ / nIter_ : iterIndex_ % mIter_;
    const int32_t ni = orderN ? iterIndex_ % nIter_ : iterIndex_ / mIter_;
    ++iterIndex_;
    curRow0_ = mi * tiling_.baseM;
    curCol0_ = ni * tiling_.baseN;
    curRows_ = std::min(tiling_.baseM, singleM_ - curRow0_);
    curCols_ = std::min(tiling_.baseN, singleN_ - curCol0_);
    ScalarWork("Matmul::Iterate", &ascsim::SocProfile::matmul_block_scalar_cycles, false);
    if (userC != nullptr) {
      ComputeBlock(*userC, enPartialSum);
      return true;
    }
    if (!haveC_) {
      co1_ = qCO1_.template AllocTensor<L0cT>();
    } else {
      co1_ = qCO1_.template DeQue<L0cT>();  // the previous block's L0C is reused
    }
    ComputeBlock(co1_, enPartialSum);
    qCO1_.EnQue(co1_);
    haveC_ = true;
    return true;
  }

  // A and B in CubeFormat::NZ: column stripes of C0 elements (32 B), Align16(rows) rows each.
  // The Matmul docs require the outer axis (rows) to be a multiple of 16 and the inner one
  // (columns) of C0 (Matmul使用说明, 表3 "CubeFormat::NZ格式的矩阵对齐要求"); CANN's copy
  // addresses a block's first column as the start of a stripe (CopyNZ2NZImpl), so a block must
  // not start inside one either.
  void CheckNzInputs(const char* call) const {
    if constexpr (A_TYPE::format == CubeFormat::NZ) {
      CheckNz(call, "A", transA_ ? "Ka" : "M", transA_ ? orgKa_ : orgM_, transA_ ? "M" : "Ka",
              transA_ ? orgM_ : orgKa_, transA_ ? "baseM" : "baseK",
              transA_ ? tiling_.baseM : tiling_.baseK, kC0A);
    }
    if constexpr (B_TYPE::format == CubeFormat::NZ) {
      CheckNz(call, "B", transB_ ? "N" : "Kb", transB_ ? orgN_ : orgKb_, transB_ ? "Kb" : "N",
              transB_ ? orgKb_ : orgN_, transB_ ? "baseK" : "baseN",
              transB_ ? tiling_.baseK : tiling_.baseN, kC0B);
    }
  }
  static void CheckNz(const char* call, const char* name, const char* rowsName, int32_t rows,
                      const char* colsName, int32_t cols, const char* baseName, int32_t base,
                      int32_t c0) {
    using ascsim::aicore::Str;
    if (rows % 16 != 0 || cols % c0 != 0) {
      ascsim::matmul::MatmulFault(
          call, Str(name, " in CubeFormat::NZ is ", rows, " x ", cols, " (", rowsName, " x ",
                    colsName, "): NZ needs the rows a multiple of 16 and the columns a multiple "
                    "of C0 = ", c0, " elements (32 B)"));
    }
    if (base % c0 != 0) {
      ascsim::matmul::MatmulFault(
          call, Str(name, " in CubeFormat::NZ (", rowsName, " x ", colsName, ") with ", baseName,
                    " ", base, ": each block must start at a column stripe of ", c0,
                    " elements, so ", baseName, " must be a multiple of ", c0));
    }
  }

  // The next block of an asynchronous sequence (Iterate<false> then GetTensorC<false>).
  bool AsyncStep(const char* call) {
    if (haveC_ && asyncPending_) {
      asyncPending_ = false;  // the Iterate<false> call computed the first block
      return true;
    }
    if (!IterateOnCube(call, false, nullptr)) {
      ascsim::matmul::MatmulFault(
          call,
          "no block left: GetTensorC<false> was called more often than there are blocks "
          "(ceil(singleCoreM / baseM) * ceil(singleCoreN / baseN))");
    }
    return true;
  }

  void DropC() {
    if (haveC_) {
      LocalTensor<L0cT> c = qCO1_.template DeQue<L0cT>();
      qCO1_.FreeTensor(c);
      haveC_ = false;
    }
  }

  // C (curRows_ x curCols_) = A block x B block (+ bias), over singleK in baseK steps.
  void ComputeBlock(const LocalTensor<L0cT>& co1, bool enPartialSum) {
    using ascsim::matmul::Align;
    using ascsim::matmul::CeilDiv;
    const int32_t m = curRows_, n = curCols_, bk = tiling_.baseK;
    const int32_t kIter = CeilDiv(singleK_, bk);
    const bool bias = biasEnabled_ && !enPartialSum;
    for (int32_t kk = 0; kk < kIter; ++kk) {
      const int32_t k0 = kk * bk;
      const int32_t k = std::min(bk, singleK_ - k0);
      // The L1 tiles this step reads and where its block lies in them (NORM: the block itself).
      LocalTensor<SrcAT> a1;
      LocalTensor<SrcBT> b1;
      TileSpot spotA{m, k, 0, 0}, spotB{k, n, 0, 0};
      if constexpr (kMdl) {
        MdlLoadA(k0, k, kIter);
        MdlLoadB(k0, k, kIter);
        a1 = tileA_.t;
        b1 = tileB_.t;
        spotA = {tileA_.rows, tileA_.cols, curRow0_ - tileA_.row0, k0 - tileA_.col0};
        spotB = {tileB_.rows, tileB_.cols, k0 - tileB_.row0, curCol0_ - tileB_.col0};
      } else {
        a1 = qA1_.template AllocTensor<SrcAT>();
        CopyA(a1, curRow0_, m, k0, k);
        qA1_.EnQue(a1);
        b1 = qB1_.template AllocTensor<SrcBT>();
        CopyB(b1, k0, k, curCol0_, n);
        qB1_.EnQue(b1);
      }
      const bool withBias = bias && kk == 0;
      if (withBias) {
        LocalTensor<BiasT> c1 = qBias1_.template AllocTensor<BiasT>();
        DataCopy(c1, biasGm_[curCol0_],
                 Nd2NzParams(1, 1, static_cast<uint16_t>(n), 0, static_cast<uint16_t>(n), 1, 1, 0));
        qBias1_.EnQue(c1);
      }
      if constexpr (!kMdl) {
        a1 = qA1_.template DeQue<SrcAT>();
        b1 = qB1_.template DeQue<SrcBT>();
      }
      const int32_t pp = ping_;
      if (l0Pending_[pp]) {
        WaitFlag<HardEvent::M_MTE1>(pp);
        l0Pending_[pp] = false;
      }
      LocalTensor<SrcAT> a2 = L0Half<SrcAT>(l0_.a2, pp, DbA());
      LocalTensor<SrcBT> b2 = L0Half<SrcBT>(l0_.b2, pp, DbB());
      LoadA(a2, a1, spotA, m, k);
      LoadB(b2, b1, spotB, k, n);
      if constexpr (!kMdl) {
        qA1_.FreeTensor(a1);
        qB1_.FreeTensor(b1);
      }
      LocalTensor<L0cT> bt;
      if (withBias) {
        LocalTensor<BiasT> c1 = qBias1_.template DeQue<BiasT>();
        bt = ascsim::aicore::TensorAccess::Bind<L0cT>(l0_.bt, l0_.bt->bytes / sizeof(L0cT));
        if constexpr (std::is_same<BiasT, L0cT>::value) {  // CheckTypes allows no other
          DataCopy(bt, c1, DataCopyParams(1, static_cast<uint16_t>(CeilDiv(n * 4, 64)), 0, 0));
        }
        qBias1_.FreeTensor(c1);
      }
      SetFlag<HardEvent::MTE1_M>(pp);
      WaitFlag<HardEvent::MTE1_M>(pp);
      MmadParams mp;
      // A one-row A would select the GEMV mode, which reads L0A as a plain row; the Matmul
      // computes a whole fractal row band instead (CANN's Matmul does the same).
      mp.m = static_cast<uint16_t>(m == 1 ? 16 : m);
      mp.n = static_cast<uint16_t>(n);
      mp.k = static_cast<uint16_t>(k);
      mp.cmatrixInitVal = kk == 0 && !enPartialSum && !withBias;
      mp.cmatrixSource = withBias;
      if (withBias) {
        Mmad(co1, a2, b2, bt, mp);
      } else {
        Mmad(co1, a2, b2, mp);
      }
      SetFlag<HardEvent::M_MTE1>(pp);
      l0Pending_[pp] = true;
      ping_ = (DbA() == 2 && DbB() == 2) ? 1 - pp : 0;
    }
    for (int32_t pp = 0; pp < 2; ++pp) {
      if (l0Pending_[pp]) {
        WaitFlag<HardEvent::M_MTE1>(pp);
        l0Pending_[pp] = false;
      }
    }
    ping_ = 0;
    if constexpr (kMdl) {
      // A tile that covers only part of K serves no other block (CANN clears it after each
      // K step of the block); one that holds the whole K stays for the blocks it covers.
      if (tileA_.held && !tileA_.wholeK) FreeTile(qA1_, tileA_);
      if (tileB_.held && !tileB_.wholeK) FreeTile(qB1_, tileB_);
    }
  }

  // ---- CFG_MDL: multi-block copies into L1 ----
  // asc-devkit impl/adv_api/detail/matmul/scheduler/iterator/k_loop/k_loop_mdl_base.h (K in
  // steps of stepKa * baseK for A, stepKb * baseK for B; a tile holds the whole singleCoreK when
  // stepKa >= kIter, "isA1KFullLoad"), m_loop_mdl_base.h / n_loop (stepM * baseM rows of A,
  // stepN * baseN columns of B per tile), scheduler/base/scheduler_mdl_base.h (CopyIn: one
  // LoadData per tile, kept while the iteration stays inside it) and stage/copy_cube_in/base/
  // copy_cube_in_mdl_base.h (a tile already in L1 is not copied again). CANN requires stepM = 1
  // (stepN = 1) when A's (B's) K does not fit one tile; such a tiling loads one base block of M
  // (N) per tile here.
  static constexpr bool kMdl = kCfg.doMultiDataLoad && !kCfg.doSpecialMDL;
  int32_t StepM() const { return std::max(1, tiling_.stepM); }
  int32_t StepN() const { return std::max(1, tiling_.stepN); }
  int32_t StepKa() const { return std::max(1, tiling_.stepKa); }
  int32_t StepKb() const { return std::max(1, tiling_.stepKb); }

  // A tile in L1: rows [row0, row0 + rows) x columns [col0, col0 + cols) of the single-core A
  // (M x K) or B (K x N), NZ as CopyA / CopyB lay it out.
  template <class T>
  struct MdlTile {
    LocalTensor<T> t;
    bool held = false;
    bool wholeK = false;
    int32_t row0 = 0, col0 = 0, rows = 0, cols = 0;
  };
  template <class T>
  bool Covers(const MdlTile<T>& tile, int32_t r0, int32_t rows, int32_t c0, int32_t cols) const {
    return tile.held && tile.row0 <= r0 && r0 + rows <= tile.row0 + tile.rows && tile.col0 <= c0 &&
           c0 + cols <= tile.col0 + tile.cols;
  }
  template <class Q, class T>
  void FreeTile(Q& q, MdlTile<T>& tile) {
    q.FreeTensor(tile.t);
    tile.held = false;
  }
  void DropTiles() {
    if constexpr (kMdl) {
      if (tileA_.held) FreeTile(qA1_, tileA_);
      if (tileB_.held) FreeTile(qB1_, tileB_);
    }
  }
  // Replaces `tile` by a new one (the new buffer first when the queue has two, so that its copy
  // may overlap the old one's last loads into L0).
  template <class Q, class T, class Copy>
  void Reload(Q& q, MdlTile<T>& tile, int32_t r0, int32_t rows, int32_t c0, int32_t cols,
              bool wholeK, Copy copy) {
    const bool two = !tile.held || q.HasIdleBuffer();
    MdlTile<T> old = tile;
    if (!two) FreeTile(q, tile);
    LocalTensor<T> t = q.template AllocTensor<T>();
    copy(t);
    q.EnQue(t);
    t = q.template DeQue<T>();
    if (two && old.held) q.FreeTensor(old.t);
    tile.t = t;
    tile.held = true;
    tile.wholeK = wholeK;
    tile.row0 = r0;
    tile.rows = rows;
    tile.col0 = c0;
    tile.cols = cols;
  }
  void MdlLoadA(int32_t k0, int32_t k, int32_t kIter) {
    const int32_t bm = tiling_.baseM, bk = tiling_.baseK;
    const bool wholeK = StepKa() >= kIter;
    int32_t r0 = curRow0_, rows = curRows_;
    if (wholeK) {  // the stepM blocks of M around this one
      r0 = curRow0_ / (bm * StepM()) * (bm * StepM());
      rows = std::min(bm * StepM(), singleM_ - r0);
    }
    if (Covers(tileA_, curRow0_, curRows_, k0, k)) return;
    const int32_t kc = std::min(bk * StepKa(), singleK_ - k0);
    Reload(qA1_, tileA_, r0, rows, k0, kc, wholeK,
           [&](const LocalTensor<SrcAT>& t) { CopyA(t, r0, rows, k0, kc); });
  }
  void MdlLoadB(int32_t k0, int32_t k, int32_t kIter) {
    const int32_t bn = tiling_.baseN, bk = tiling_.baseK;
    const bool wholeK = StepKb() >= kIter;
    int32_t c0 = curCol0_, cols = curCols_;
    if (wholeK) {
      c0 = curCol0_ / (bn * StepN()) * (bn * StepN());
      cols = std::min(bn * StepN(), singleN_ - c0);
    }
    if (Covers(tileB_, k0, k, curCol0_, curCols_)) return;
    const int32_t kr = std::min(bk * StepKb(), singleK_ - k0);
    Reload(qB1_, tileB_, k0, kr, c0, cols, wholeK,
           [&](const LocalTensor<SrcBT>& t) { CopyB(t, k0, kr, c0, cols); });
  }

  template <class T>
  LocalTensor<T> L0Half(ascsim::aicore::BufferSlot* slot, int32_t pp, int32_t db) {
    const uint32_t half = slot->bytes / static_cast<uint32_t>(db);
    LocalTensor<T> whole = ascsim::aicore::TensorAccess::Bind<T>(slot, slot->bytes / sizeof(T));
    LocalTensor<T> part = whole[static_cast<uint32_t>(pp) * half / sizeof(T)];
    part.SetSize(half / sizeof(T));
    return part;
  }

  static uint16_t U16(const char* what, int64_t v, const char* params = "Nd2NzParams") {
    if (v < 0 || v > 65535) {
      ascsim::matmul::MatmulFault(
          "Iterate", ascsim::aicore::Str(what, " ", v, " does not fit the 16-bit field of ",
                                         params,
                                         " (rows longer than 65535 elements are not simulated "
                                         "yet)"));
    }
    return static_cast<uint16_t>(v);
  }

  // The rows of each column stripe of an L1 tile whose rows run along K (A transposed, B not):
  // int8_t pads K to C0 = 32 there, so that LoadDataWithTranspose finds whole 32 x 32 squares
  // (CANN's kAlignToC0Size = IsKRowDirec: asc-devkit impl/adv_api/detail/matmul/stage/
  // copy_cube_in/base/copy_cube_in_params_base.h, copy_tile_to_cube/data_copy_wrapper_nd.h
  // CopyND2NZ dstNzC0Stride, data_copy_wrapper_utils.h CopyNZ2NZImpl dstStride).
  static int32_t KRows(int32_t k) { return ascsim::matmul::Align(k, kB8 ? 32 : 16); }

  // A block rows [r0, r0 + m) x K columns [k0, k0 + k) into A1 (NZ).
  void CopyA(const LocalTensor<SrcAT>& a1, int32_t r0, int32_t m, int32_t k0, int32_t k) {
    using ascsim::matmul::Align;
    if constexpr (A_TYPE::format == CubeFormat::NZ) {
      if (!transA_) {
        CopyNz(a1, aGm_, r0, k0, m, k, orgM_, Align(m, 16));
      } else {
        CopyNz(a1, aGm_, k0, r0, k, m, orgKa_, KRows(k));
      }
      return;
    }
    if (!transA_) {  // GM: M x Ka, row-major
      DataCopy(a1, aGm_[uint64_t(r0) * orgKa_ + k0],
               Nd2NzParams(1, U16("m", m), U16("k", k), 0, U16("orgKa", orgKa_),
                           U16("m", Align(m, 16)), 1, 0));
    } else {  // GM: K x M (A transposed)
      DataCopy(a1, aGm_[uint64_t(k0) * orgM_ + r0],
               Nd2NzParams(1, U16("k", k), U16("m", m), 0, U16("orgM", orgM_), U16("k", KRows(k)),
                           1, 0));
    }
  }
  // B block K rows [k0, k0 + k) x columns [c0, c0 + n) into B1 (NZ).
  void CopyB(const LocalTensor<SrcBT>& b1, int32_t k0, int32_t k, int32_t c0, int32_t n) {
    using ascsim::matmul::Align;
    if constexpr (B_TYPE::format == CubeFormat::NZ) {
      if (!transB_) {
        CopyNz(b1, bGm_, k0, c0, k, n, orgKb_, KRows(k));
      } else {
        CopyNz(b1, bGm_, c0, k0, n, k, orgN_, Align(n, 16));
      }
      return;
    }
    if (!transB_) {  // GM: Kb x N
      DataCopy(b1, bGm_[uint64_t(k0) * orgN_ + c0],
               Nd2NzParams(1, U16("k", k), U16("n", n), 0, U16("orgN", orgN_), U16("k", KRows(k)),
                           1, 0));
    } else {  // GM: N x Kb (B transposed)
      DataCopy(b1, bGm_[uint64_t(c0) * orgKb_ + k0],
               Nd2NzParams(1, U16("n", n), U16("k", k), 0, U16("orgKb", orgKb_),
                           U16("n", Align(n, 16)), 1, 0));
    }
  }

  // Rows [row, row + height) x columns [col, col + width) of an NZ matrix of gRows rows in GM
  // (column stripes of C0 elements, Align16(gRows) rows of 32 B each) into L1 stripes of l1Rows
  // rows: one burst of Align16(height) rows per stripe, as CANN's CopyNZ2NZImpl does (asc-devkit
  // impl/adv_api/detail/matmul/stage/copy_cube_in/copy_tile_to_cube/data_copy_wrapper_utils.h;
  // stripe by stripe when the source gap exceeds 16 bits). `col` is a multiple of C0
  // (CheckNzInputs).
  template <class T>
  void CopyNz(const LocalTensor<T>& dst, const GlobalTensor<T>& gm, int32_t row, int32_t col,
              int32_t height, int32_t width, int32_t gRows, int32_t l1Rows) {
    using ascsim::matmul::Align;
    using ascsim::matmul::CeilDiv;
    constexpr int32_t c0 = 32 / static_cast<int32_t>(sizeof(T));
    if (height > gRows) {
      ascsim::matmul::MatmulFault(
          "Iterate", ascsim::aicore::Str("a block of ", height,
                                         " rows of an NZ input is taller than the matrix (",
                                         gRows, " rows): check SetOrgShape and SetSingleShape"));
    }
    const uint64_t gmRows = static_cast<uint64_t>(Align(gRows, 16));
    const int32_t rows = Align(height, 16);
    const uint64_t offset = uint64_t(row) * c0 + uint64_t(col) * gmRows;
    const int32_t stripes = CeilDiv(width, c0);
    const uint64_t gap = gmRows - static_cast<uint64_t>(rows);
    const char* params = "DataCopyParams";
    if (gap >= 65535) {
      for (int32_t i = 0; i < stripes; ++i) {
        DataCopy(dst[uint64_t(i) * l1Rows * c0], gm[offset + uint64_t(i) * gmRows * c0],
                 DataCopyParams(1, U16("rows", rows, params), 0, 0));
      }
      return;
    }
    DataCopy(dst, gm[offset],
             DataCopyParams(U16("stripes", stripes, params), U16("rows", rows, params),
                            static_cast<uint16_t>(gap), U16("rows", l1Rows - rows, params)));
  }

  // Fractal loads of `count` consecutive destination fractals in chunks of 255 repeats.
  template <class T>
  void LoadRun(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t dstFrac,
               uint32_t srcFrac, uint32_t count, uint32_t srcStride, bool transpose) {
    const uint32_t fe = ascsim::matmul::kFractalBytes / sizeof(T);
    for (uint32_t done = 0; done < count;) {
      const uint32_t rep = std::min(count - done, ascsim::matmul::kMaxRepeat);
      LoadData2DParams p;
      p.startIndex = static_cast<uint16_t>(srcFrac + done * srcStride);
      p.repeatTimes = static_cast<uint8_t>(rep);
      p.srcStride = static_cast<uint16_t>(srcStride);
      p.ifTranspose = transpose;
      LoadData(dst[(dstFrac + done) * fe], src, p);
      done += rep;
    }
  }

  // Where a block lies in the L1 tile it is read from: the tile's rows x cols (A: M x K; B:
  // K x N) and the block's first row and column in it.
  struct TileSpot {
    int32_t rows, cols, row0, col0;
  };

  // A1 (NZ) -> L0A (Zz: fractal mi * K1 + ki, 16 rows of m x K0 columns of k).
  void LoadA(const LocalTensor<SrcAT>& a2, const LocalTensor<SrcAT>& a1, const TileSpot& at,
             int32_t m, int32_t k) {
    using ascsim::matmul::CeilDiv;
    const uint32_t m1 = static_cast<uint32_t>(CeilDiv(m, 16));
    const uint32_t r1 = static_cast<uint32_t>(at.row0 / 16);
    if (!transA_) {  // A1: fractal (mi, ki) at ki * M1 + mi, M1 the tile's row fractals
      const uint32_t k1 = static_cast<uint32_t>(CeilDiv(k, kC0A));
      const uint32_t tileM1 = static_cast<uint32_t>(CeilDiv(at.rows, 16));
      const uint32_t first = static_cast<uint32_t>(at.col0 / kC0A) * tileM1 + r1;
      for (uint32_t mi = 0; mi < m1; ++mi) LoadRun(a2, a1, mi * k1, first + mi, k1, tileM1, false);
      return;
    }
    if constexpr (kB8) {
      LoadInt8Transposing(a2, a1, "A", at.cols, at.row0, at.col0, m, k);
      return;
    }
    if (sizeof(SrcAT) != 2) NotSimulated("Iterate", "a transposed A of float");
    // A1 holds A^T (K x M): fractal (ki, mi) at mi * K1 + ki; transposing each gives Zz order.
    const uint32_t k1 = static_cast<uint32_t>(CeilDiv(k, 16));
    const uint32_t tileK1 = static_cast<uint32_t>(CeilDiv(at.cols, 16));
    const uint32_t c1 = static_cast<uint32_t>(at.col0 / 16);
    if (tileK1 == k1) {  // the block's fractals are consecutive in the tile
      LoadRun(a2, a1, 0, r1 * tileK1, m1 * k1, 1, true);
      return;
    }
    for (uint32_t mi = 0; mi < m1; ++mi) {
      LoadRun(a2, a1, mi * k1, (r1 + mi) * tileK1 + c1, k1, 1, true);
    }
  }

  // B1 (NZ) -> L0B (Zn: fractal ki * N1 + ni, 16 columns of n x K0 rows of k, stored n-major).
  void LoadB(const LocalTensor<SrcBT>& b2, const LocalTensor<SrcBT>& b1, const TileSpot& at,
             int32_t k, int32_t n) {
    using ascsim::matmul::CeilDiv;
    const uint32_t n1 = static_cast<uint32_t>(CeilDiv(n, 16));
    const uint32_t c1 = static_cast<uint32_t>(at.col0 / 16);
    if (transB_) {  // B1 holds B^T (N x K): fractal (ni, ki) at ki * N1 + ni, already Zn
      const uint32_t k1 = static_cast<uint32_t>(CeilDiv(k, kC0B));
      const uint32_t tileN1 = static_cast<uint32_t>(CeilDiv(at.cols, 16));
      const uint32_t kFirst = static_cast<uint32_t>(at.row0 / kC0B);
      if (tileN1 == n1) {
        LoadRun(b2, b1, 0, kFirst * tileN1, k1 * n1, 1, false);
        return;
      }
      for (uint32_t ki = 0; ki < k1; ++ki) {
        LoadRun(b2, b1, ki * n1, (kFirst + ki) * tileN1 + c1, n1, 1, false);
      }
      return;
    }
    if constexpr (kB8) {
      LoadInt8Transposing(b2, b1, "B", at.rows, at.col0, at.row0, n, k);
      return;
    }
    if (sizeof(SrcBT) != 2) {
      NotSimulated("Iterate",
                   "a B that is not transposed for float inputs (pass B as N x K with "
                   "isTransposeB = true)");
    }
    // B1 holds B (K x N): fractal (ki, ni) at ni * K1 + ki; transposing each gives Zn.
    const uint32_t k1 = static_cast<uint32_t>(CeilDiv(k, 16));
    const uint32_t tileK1 = static_cast<uint32_t>(CeilDiv(at.rows, 16));
    const uint32_t first = c1 * tileK1 + static_cast<uint32_t>(at.row0 / 16);
    for (uint32_t ki = 0; ki < k1; ++ki) LoadRun(b2, b1, ki * n1, first + ki, n1, tileK1, true);
  }

  // int8_t with K down the rows of the L1 tile (A transposed: K x M; B not: K x N): column stripes
  // of 32 elements of M (N), KRows(tileK) rows each. LoadDataWithTranspose turns each 32 x 32
  // square (two fractals of a stripe) into two 16 x 32 fractals along K of the L0A Zz (L0B Zn)
  // layout, as CANN's LOAD2DTRANSPOSE path does (asc-devkit impl/adv_api/detail/matmul/stage/
  // split/load_to_l0a/load_to_l0a_loadInstr.h TransLoadDataToL0: loop over M squares, repeats
  // along K, dstFracGap K1 - 1; load_to_l0b/load_to_l0b_loadInstr.h LoadDataToL0: loop over K
  // squares, repeats along N at srcStride tileK / 32, dstGap 1). `mn0` / `k0` are the block's
  // offsets in the tile, `mn` x `k` its extent.
  template <class T>
  void LoadInt8Transposing(const LocalTensor<T>& l0, const LocalTensor<T>& l1, const char* name,
                        int32_t tileK, int32_t mn0, int32_t k0, int32_t mn, int32_t k) {
    using ascsim::aicore::Str;
    using ascsim::matmul::Align;
    using ascsim::matmul::CeilDiv;
    const bool isA = name[0] == 'A';
    const char* axis = isA ? "M" : "N";
    if (mn0 % 32 != 0) {
      ascsim::matmul::MatmulFault(
          "Iterate", Str("an int8_t ", name, isA ? " (transposed)" : " (not transposed)",
                         " block starts at ", axis, " offset ", mn0,
                         " of its L1 tile, inside a 32 x 32 square of the transposing load: base",
                         axis, " must be a multiple of 32 when a tile holds several blocks"));
    }
    const int32_t l1K = KRows(tileK);
    const int32_t squaresMn = CeilDiv(mn, 32), squaresK = CeilDiv(k, 32);
    // Whole squares land in L0: up to 16 rows past Align16(mn) (CANN's tiling sizes L0 with
    // mn aligned to 32 for these loads, matmul_tiling_algorithm.cpp).
    const uint64_t need = (isA ? uint64_t(squaresMn) * 32 * squaresK * 32
                               : uint64_t(squaresK - 1) * Align(mn, 16) * 32 +
                                     uint64_t(squaresMn) * 32 * 32);
    if (need > l0.GetSize()) {
      ascsim::matmul::MatmulFault(
          "Iterate",
          Str("the transposing load of an int8_t ", name, " block of ", mn, " x ", k,
              " writes whole 32 x 32 squares, ", need, " B of ", isA ? "L0A" : "L0B",
              ", more than its buffer's ", l0.GetSize(), " B: choose base", axis,
              " a multiple of 32 or a smaller baseK"));
    }
    if (squaresK > 255 || squaresMn > 255) NotSimulated("Iterate", "more than 255 squares");
    LoadData2dTransposeParams p;
    uint64_t src = 0, dst = 0, srcStep = 0, dstStep = 0;
    int32_t loops = 0;
    if (isA) {
      loops = squaresMn;
      p = LoadData2dTransposeParams(0, static_cast<uint8_t>(squaresK), 1, 0,
                                    static_cast<uint16_t>(squaresK - 1));
      src = uint64_t(mn0) * l1K + uint64_t(k0) * 32;
      srcStep = uint64_t(l1K) * 32;
      dstStep = uint64_t(squaresK) * 32 * 32;
    } else {
      loops = squaresK;
      p = LoadData2dTransposeParams(0, static_cast<uint8_t>(squaresMn),
                                    static_cast<uint16_t>(l1K / 32), 1, 0);
      src = uint64_t(mn0) * l1K + uint64_t(k0) * 32;
      srcStep = 32 * 32;
      dstStep = uint64_t(Align(mn, 16)) * 32;
    }
    for (int32_t i = 0; i < loops; ++i) {
      LoadDataWithTranspose(l0[dst], l1[src], p);
      src += srcStep;
      dst += dstStep;
    }
  }

  QuantMode_t QuantFor(const char* call) const {
    if constexpr (std::is_same<L0cT, int32_t>::value) {
      if constexpr (std::is_same<DstT, int32_t>::value) {
        return QuantMode_t::NoQuant;
      } else {
        if (!quantSet_) {
          ascsim::matmul::MatmulFault(call,
                                      "an int8_t Matmul with a half or int8_t C needs "
                                      "SetQuantScalar (the Fixpipe scale)");
        }
        return std::is_same<DstT, half>::value ? QuantMode_t::DEQF16 : QuantMode_t::REQ8;
      }
    } else {
      if constexpr (std::is_same<DstT, half>::value) return QuantMode_t::F322F16;
      if constexpr (std::is_same<DstT, bfloat16_t>::value) return QuantMode_t::F322BF16;
      return QuantMode_t::NoQuant;
    }
  }

  void RequireC(const char* call) const {
    if (!haveC_) {
      ascsim::matmul::MatmulFault(call,
                                  "no block in L0C: call Iterate first (and check that it "
                                  "returned true)");
    }
  }

  // The block in L0C to GM: at its place in the singleCoreM x singleCoreN result, or dense
  // (curRows_ x curCols_, row stride curCols_) with enSequentialWrite.
  void CopyOutGm(const char* call, const GlobalTensor<DstT>& gm, uint8_t enAtomic,
                 bool sequential) {
    RequireC(call);
    LocalTensor<L0cT> co1 = qCO1_.template DeQue<L0cT>();
    haveC_ = false;
    FixpipeOut(call, gm, co1, enAtomic, sequential);
    qCO1_.FreeTensor(co1);
  }

  void FixpipeOut(const char* call, const GlobalTensor<DstT>& gm, const LocalTensor<L0cT>& co1,
                  uint8_t enAtomic, bool sequential) {
    FixpipeParamsV220 fp;
    fp.nSize = static_cast<uint16_t>(curCols_);
    fp.mSize = static_cast<uint16_t>(curRows_);
    fp.srcStride = static_cast<uint16_t>(ascsim::matmul::Align(curRows_ == 1 ? 16 : curRows_, 16));
    fp.quantPre = QuantFor(call);
    fp.deqScalar = quantScalar_;
    fp.reluEn = kCfg.enableRelu;
    SetAtomic(call, enAtomic);
    if constexpr (C_TYPE::format == CubeFormat::NZ) {
      // NZ C (16-bit): fractal columns of 16, Align16(orgM) rows each.
      const uint64_t alignM = static_cast<uint64_t>(ascsim::matmul::Align(orgM_, 16));
      const uint64_t offset =
          sequential ? 0 : uint64_t(curCol0_) / 16 * alignM * 16 + uint64_t(curRow0_) * 16;
      const uint64_t stripe =
          sequential ? uint64_t(ascsim::matmul::Align(curRows_, 16)) : alignM;  // rows
      fp.dstStride = static_cast<uint32_t>(stripe * 16 * sizeof(DstT) / 32);
      Fixpipe<DstT, L0cT, CFG_NZ>(gm[offset], co1, fp);
    } else {
      const uint64_t stride = sequential ? uint64_t(curCols_) : uint64_t(CStride());
      const uint64_t offset = sequential ? 0 : uint64_t(curRow0_) * stride + curCol0_;
      fp.dstStride = static_cast<uint32_t>(stride);
      Fixpipe<DstT, L0cT, CFG_ROW_MAJOR>(gm[offset], co1, fp);
    }
    if (enAtomic != 0) SetAtomicNone();
  }

  void SetAtomic(const char* call, uint8_t enAtomic) {
    switch (enAtomic) {
      case 0:
        return;
      case 1:
        SetAtomicAdd<DstT>();
        return;
      case 2:
        SetAtomicMax<DstT>();
        return;
      case 3:
        SetAtomicMin<DstT>();
        return;
      default:
        ascsim::matmul::MatmulFault(
            call, ascsim::aicore::Str("enAtomic ", int(enAtomic), " is not 0, 1, 2 or 3"));
    }
  }

  // The block to a Unified Buffer tensor of the calling AIV (and to `gm` when given): Fixpipe to
  // a device buffer on the AIC side, DataCopy GM -> UB on the AIV, as the device's AIC server
  // hands C to its client through the workspace.
  template <bool sync>
  void CopyOutUb(const GlobalTensor<DstT>* gm, const LocalTensor<DstT>& ub, uint8_t enAtomic,
                 bool sequential) {
    const char* call = "GetTensorC";
    namespace ai = ascsim::aicore;
    if (!client_) {
      ascsim::matmul::MatmulFault(
          call, ai::Str("C to a local tensor: this core (",
                        ai::CurrentCore().unit == ai::CoreUnit::kAic ? "an AIC" : "an AI core",
                        ") has no Unified Buffer for the Matmul API; call it from the AIVs of a "
                        "mix kernel or write C to GM"));
    }
    if (enAtomic != 0) {
      ascsim::matmul::MatmulFault(call, "enAtomic with a local C is not supported (GM only)");
    }
    using ascsim::matmul::Align;
    int32_t rows = 0, cols = 0, row0 = 0, col0 = 0;
    GlobalTensor<DstT> scratch;
    {
      ServerScope scope(this);
      if (!sync && !AsyncStep(call)) return;
      rows = curRows_;
      cols = curCols_;
      row0 = curRow0_;
      col0 = curCol0_;
      const int32_t width = Align(cols, kC0C);
      const uint64_t bytes =
          uint64_t(Align(tiling_.baseM, 16)) * Align(tiling_.baseN, kC0C) * sizeof(DstT);
      if (scratch_ == nullptr) scratch_ = ascsim::matmul::ScratchAlloc(bytes);
      scratch.SetGlobalBuffer(reinterpret_cast<__gm__ DstT*>(scratch_), bytes / sizeof(DstT));
      RequireC(call);
      LocalTensor<L0cT> co1 = qCO1_.template DeQue<L0cT>();
      haveC_ = false;
      if (gm != nullptr) FixpipeOut(call, *gm, co1, 0, sequential);  // both destinations
      FixpipeParamsV220 fp;
      fp.nSize = static_cast<uint16_t>(cols);
      fp.mSize = static_cast<uint16_t>(rows);
      fp.srcStride = static_cast<uint16_t>(Align(rows == 1 ? 16 : rows, 16));
      fp.dstStride = static_cast<uint32_t>(width);
      fp.quantPre = QuantFor(call);
      fp.deqScalar = quantScalar_;
      fp.reluEn = kCfg.enableRelu;
      Fixpipe<DstT, L0cT, CFG_ROW_MAJOR>(scratch, co1, fp);
      qCO1_.FreeTensor(co1);
    }
    // On the AIV: rows of Align(cols, 32 B) elements into the tile (sequential) or into the
    // singleCoreM x Align(singleCoreN, 32 B) result.
    const int32_t width = Align(cols, kC0C);
    const int32_t ubStride = sequential ? width : Align(singleN_, kC0C);
    if (!sequential && col0 % kC0C != 0) {
      ascsim::matmul::MatmulFault(
          call, ai::Str("block column ", col0, " is not 32-byte aligned in the local C"));
    }
    const uint64_t offset = sequential ? 0 : uint64_t(row0) * ubStride + col0;
    DataCopyParams p(static_cast<uint16_t>(rows), static_cast<uint16_t>(width * sizeof(DstT) / 32),
                     0, static_cast<uint16_t>((ubStride - width) * sizeof(DstT) / 32));
    // CANN's client posts the request with CrossCoreSetFlag<INTRA_MODE, PIPE_V> (once its vector
    // pipe has drained) and waits for the AIC's answer before it copies C in (asc-devkit
    // 82b89a15f include/adv_api/matmul/matmul_client.h, GetTensorC): the copy into UB comes after
    // everything the V pipe was given, such as an AllocTensor's wait for the buffer's last reader.
    const event_t handed = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE2));
    SetFlag<HardEvent::V_MTE2>(handed);
    WaitFlag<HardEvent::V_MTE2>(handed);
    DataCopy(ub[offset], scratch, p);
    // The client waits for its copy before it returns, so vector work on C may follow at once
    // (asc-devkit 82b89a15f include/adv_api/matmul/matmul_client.h: CopyToUB<T, U, sync = true>
    // ends with SetFlag / WaitFlag<HardEvent::MTE2_V>).
    const event_t copied = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
    SetFlag<HardEvent::MTE2_V>(copied);
    WaitFlag<HardEvent::MTE2_V>(copied);
  }

  TCubeTiling tiling_{};
  bool inited_ = false;
  bool client_ = false;
  uint64_t sharedResults_ = 0;  // sub-block 1 under A + B ibShare: the results it took
  bool resources_ = false;
  bool biasBuffer_ = false;
  TPipe* pipe_ = nullptr;
  ascsim::aicore::CoreContext* server_ = nullptr;
  std::unique_ptr<TPipe> serverPipe_;
  TQue<TPosition::A1, 1> qA1_;
  TQue<TPosition::B1, 1> qB1_;
  TQue<TPosition::C1, 1> qBias1_;
  TQue<TPosition::CO1, 1> qCO1_;
  ascsim::matmul::L0Buffers l0_{};
  LocalTensor<L0cT> co1_;
  MdlTile<SrcAT> tileA_;
  MdlTile<SrcBT> tileB_;
  bool l0Pending_[2] = {false, false};
  int32_t ping_ = 0;

  GlobalTensor<SrcAT> aGm_;
  GlobalTensor<SrcBT> bGm_;
  GlobalTensor<BiasT> biasGm_;
  bool aSet_ = false, bSet_ = false, biasSet_ = false, biasEnabled_ = false;
  bool transA_ = false, transB_ = false;
  int32_t orgM_ = 0, orgN_ = 0, orgKa_ = 0, orgKb_ = 0, orgKc_ = 0;
  int32_t singleM_ = 0, singleN_ = 0, singleK_ = 0;
  uint64_t quantScalar_ = 0;
  bool quantSet_ = false;
  int32_t nBatchOutNum_ = 1;
  uint8_t subBlockIdx_ = 0;
  __gm__ uint8_t* workspace_ = nullptr;
  uint64_t workspaceBytes_ = 0;
  uint8_t* scratch_ = nullptr;

  // Iteration state.
  bool started_ = false;
  bool asyncPending_ = false;
  bool haveC_ = false;
  int32_t mIter_ = 0, nIter_ = 0, iterIndex_ = 0;
  int32_t curRow0_ = 0, curCol0_ = 0, curRows_ = 0, curCols_ = 0;
};

}  // namespace AscendC
