// Out-of-line parts of ascsim/aicore/workspace.h: the workspace checks and InitOutput's.
#include "ascsim/aicore/workspace.h"

#include "ascsim/aicore/tpipe.h"

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

}  // namespace ascsim::aicore
