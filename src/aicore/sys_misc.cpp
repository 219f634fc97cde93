// Out-of-line parts of ascsim/aicore/sys_misc.h: workspace checks, the special registers,
// InitOutput's checks and records, the int32_t -> half Cast through DEQSCALE.
#include "ascsim/aicore/sys_misc.h"

#include "ascsim/aicore/simd/vector_math.h"
#include "ascsim/aicore/tpipe.h"
#include "ascsim/aicore/vector_ops.h"

namespace ascsim::aicore {

uint64_t ReservedWorkspaceBytes(const SocProfile& soc) { return LibApiWorkspaceBytes(soc); }

uint8_t* UserWorkspaceImpl(uint8_t* workspace) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  // The device ignores the argument and answers from the system workspace the framework (or the
  // kernel's SetSysWorkspace) set: __get_kfc_workspace_addr() + RESERVED_WORKSPACE (dav_c220
  // kernel_operator_common_impl.h). A custom operator's kernel receives the user workspace
  // itself, so GetUserWorkspace(workspace) there gives the same pointer back.
  if (core.sys_workspace != nullptr) workspace = core.sys_workspace;
  if (workspace == nullptr) {
    Fault(ErrorKind::kInvalidArgument,
          "GetUserWorkspace: workspace is nullptr (the host must pass the workspace it allocated: "
          "user bytes + GetLibApiWorkSpaceSize() of system workspace)");
  }
  const uint64_t reserved = ReservedWorkspaceBytes(*core.launch->soc);
  GmRange alloc;
  if (core.launch->find_gm == nullptr || !core.launch->find_gm(workspace, &alloc)) {
    Fault(ErrorKind::kOutOfBounds,
          Str("GetUserWorkspace: workspace ", Hex(reinterpret_cast<uintptr_t>(workspace)),
              " is not device memory (not from aclrtMalloc, GmAlloc or a launch argument)"));
  }
  const uint64_t have = static_cast<uint64_t>(alloc.end - workspace);
  if (have < reserved) {
    Warn(Str("GetUserWorkspace: the workspace allocation holds ", have,
             " B from the workspace pointer, less than the ", reserved >> 20,
             " MiB system workspace ", core.launch->soc->name,
             " reserves in front of the user workspace, so the user workspace lies outside it; "
             "size the workspace as user bytes + GetLibApiWorkSpaceSize()"),
         Str("GetUserWorkspace/", have));
  }
  return workspace + reserved;
}

void SetSysWorkspaceImpl(uint8_t* workspace, bool force) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  if (workspace == nullptr) {
    Fault(ErrorKind::kInvalidArgument, Str(force ? "SetSysWorkspaceForce" : "SetSysWorkspace",
                                           ": workspace can not be nullptr"));
  }
  if (force || core.sys_workspace == nullptr) core.sys_workspace = workspace;
}

void SetDeqScaleImpl(uint16_t half_bits) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  core.deq_scale = half_bits;
  core.deq_scale_set = true;
}

void CastInt32ToHalfDeq(CoreContext& core, half* dst, const int32_t* src, uint64_t n) {
  if (!core.deq_scale_set) {
    Warn(
        "Cast int32_t->half: the device scales by the DEQSCALE register, which this kernel never "
        "set (call SetDeqScale((half)1.0) before the Cast); ascsim uses 1.0",
        "Cast/deqscale");
  }
  const float scale =
      core.deq_scale_set ? HalfBitsToFloat(static_cast<uint16_t>(core.deq_scale)) : 1.0f;
  for (uint64_t i = 0; i < n; ++i) dst[i] = half(static_cast<float>(src[i]) * scale);
}

void RequireArch(const char* call, int arch, const char* what) {
  CoreContext& core = CurrentCore();
  if (core.launch->soc->arch != arch) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": ", what, " is not available on ", core.launch->soc->name, " (arch ",
              core.launch->soc->arch, "); it exists on arch ", arch, " (Atlas A2/A3)"));
  }
}

void SetCtrlBit48(int64_t value) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  if (value != 0 && value != 1) {
    Fault(ErrorKind::kInvalidArgument,
          Str("SetCtrlSpr<48, 48>: value ", value, " does not fit the 1-bit field CTRL[48]"));
  }
  if (value == 0) {
    Warn(
        "SetCtrlSpr<48, 48>(0): saturation mode (inf -> +-MAX, NaN -> 0 for half/bfloat16_t) is "
        "not simulated; ascsim keeps computing in inf/NaN mode",
        "CtrlSpr/48/0");
  }
  core.ctrl = (core.ctrl & ~(uint64_t{1} << 48)) | (static_cast<uint64_t>(value) << 48);
}

void ScalarCastValue(float value, bool to_half, AscendC::RoundMode mode, void* out) {
  simd::Cast(to_half ? simd::DType::kF16 : simd::DType::kI32, simd::DType::kF32, ToRounding(mode),
             out, &value, 1);
}

uint64_t InitOutputBurst(const char* call, uint64_t elem_bytes) {
  CoreContext& core = CurrentCore();
  RequireArch(call, 2201, call);
  const uint64_t used = core.pipe != nullptr ? core.pipe->used_bytes() : 0;
  if (used >= core.ub_size) {
    Fault(
        ErrorKind::kUbOverflow,
        Str(call, ": no free UB above the TPipe's buffers (", used, " of ", core.ub_size,
            " B in use); the device fills GM through that stack buffer (PopStackBuffer), so leave "
            "at least 32 B of UB unallocated"));
  }
  const uint64_t max_burst = uint64_t{kMaxRepeatTimes} * kBlockBytes / elem_bytes;
  const uint64_t free_elems = (core.ub_size - used) / elem_bytes;
  return free_elems < max_burst ? free_elems : max_burst;
}

void RecordInitOutput(CoreContext& core, uint64_t elem_bytes, uint64_t count, uint64_t burst) {
  Record(core, [&] {
    return VectorCall("InitOutput", trace::VectorClass::kSimple, static_cast<uint8_t>(elem_bytes),
                      burst, trace::kNoBuffer, trace::kNoBuffer, trace::kNoBuffer);
  });
  Record(core, [&] {
    return CopyCall("InitOutput", trace::Pipe::kMte3, count * elem_bytes,
                    static_cast<uint8_t>(elem_bytes), trace::kNoBuffer, trace::kNoBuffer);
  });
}

trace::ApiCall CacheCall(const char* name) {
  trace::ApiCall call = trace::ScalarCall(name, 0, true, true, trace::kNoBuffer);
  call.elements = 0;
  return call;
}

void WriteRawMask(uint64_t high, uint64_t low) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  core.mask_high = high;
  core.mask_low = low;
}

}  // namespace ascsim::aicore

namespace AscendC {

void Trap() {
  ascsim::aicore::CoreContext& core = ascsim::aicore::CurrentCore();
  ascsim::aicore::EnterApiCall(core);
  ascsim::aicore::Fault(ascsim::ErrorKind::kInvalidArgument,
                        "Trap(): the kernel trapped (the device raises an AI core exception)");
}

}  // namespace AscendC
