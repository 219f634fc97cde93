// Out-of-line checks of ascsim/aicore/ub_movement.h.
#include "ascsim/aicore/ub_movement.h"

#include <cstring>
#include <string>

namespace ascsim::aicore {

void CheckCopyRepeatParams(const AscendC::CopyRepeatParams& p) {
  if (p.dstRepeatSize > kMaxCopyRepeatSize || p.srcRepeatSize > kMaxCopyRepeatSize) {
    Fault(ErrorKind::kInvalidArgument,
          Str("Copy: dstRepeatSize ", p.dstRepeatSize, " / srcRepeatSize ", p.srcRepeatSize,
              " is outside [0, ", kMaxCopyRepeatSize, "] (CopyRepeatParams)"));
  }
}

}  // namespace ascsim::aicore

namespace ascsim::aicore {

uint64_t GatherCountRepeats(const char* call, uint64_t count, uint64_t per_repeat) {
  const uint64_t repeats = count / per_repeat;
  if (repeats > kMaxRepeatTimes) {
    Warn(Str(call, ": count ", count, " needs ", repeats, " repeats of ", per_repeat,
             " elements; the device keeps the repeat count in 8 bits and gathers only ",
             repeats % 256, " of them plus the tail (split the call)"),
         Str(call, "/wrap/", count));
  }
  return repeats % 256;
}

void CheckGatherBase(const char* call, uint32_t base, uint64_t src_bytes, uint32_t elem) {
  if (base >= src_bytes || base % elem != 0) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": srcBaseAddr ", base, " B must lie inside src (", src_bytes,
              " B) and be a multiple of the element size ", elem));
  }
}

void FaultGatherOffset(const char* call, uint64_t i, uint32_t offset, uint32_t base,
                       uint64_t src_bytes, const char* type) {
  Fault(ErrorKind::kOutOfBounds, Str(call, ": srcOffset[", i, "] = ", offset, " B (+ srcBaseAddr ",
                                     base, ") reads past src (", src_bytes, " B of ", type, ")"));
}

void WarnGatherMisaligned(const char* call, uint32_t offset, uint32_t base, uint32_t elem) {
  Warn(Str(call, ": srcOffset ", offset, " B + srcBaseAddr ", base,
           " B is not a multiple of the element size ", elem,
           "; the device reads misplaced data (ascsim rounds the address down)"),
       Str(call, "/misaligned"));
}

void RequireGatherType(const char* call, bool is_bf16) {
  CoreContext& core = CurrentCore();
  if (is_bf16 && core.launch->soc->arch == 2002) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": bfloat16_t is not supported on ", core.launch->soc->name));
  }
}

BufferSlot* FindUbSlot(const AscendC::TPipe& pipe, uint64_t ub_offset) {
  for (uint32_t i = 0; i < pipe.slot_count_; ++i) {
    BufferSlot* slot = pipe.slots_[i];
    const uint64_t lo = static_cast<uint64_t>(slot->addr - pipe.core_->ub);
    if (ub_offset >= lo && ub_offset < lo + slot->bytes) return slot;
  }
  // The UB above the buffers that an advanced API computes in (PopStackBuffer / AdvStack).
  if (pipe.stack_slot_valid_) {
    BufferSlot* stack = const_cast<BufferSlot*>(&pipe.stack_slot_);
    const uint64_t lo = static_cast<uint64_t>(stack->addr - pipe.core_->ub);
    if (ub_offset >= lo && ub_offset < lo + stack->bytes) return stack;
  }
  return nullptr;
}

void NchwConvRepeat(uint32_t elem, uint8_t* const dst[16], const uint8_t* const src[16],
                    bool dst_high, bool src_high) {
  uint8_t tmp[16][kBlockBytes];
  for (int i = 0; i < 16; ++i) std::memcpy(tmp[i], src[i], kBlockBytes);
  if (elem == 2) {
    for (int j = 0; j < 16; ++j)
      for (int k = 0; k < 16; ++k) std::memcpy(dst[j] + 2 * k, tmp[k] + 2 * j, 2);
  } else if (elem == 4) {
    for (int j = 0; j < 8; ++j)
      for (int h = 0; h < 2; ++h)
        for (int k = 0; k < 8; ++k) std::memcpy(dst[2 * j + h] + 4 * k, tmp[8 * h + k] + 4 * j, 4);
  } else {
    const int so = src_high ? 16 : 0, dof = dst_high ? 16 : 0;
    for (int j = 0; j < 16; ++j)
      for (int k = 0; k < 16; ++k) dst[j][dof + k] = tmp[k][so + j];
  }
}

namespace {

struct ListEntry {
  uint64_t start = 0;  // UB offset of the first repeat's block
  BufferSlot* slot = nullptr;
};

ListEntry ResolveListEntry(const char* call, const char* list, int i, CoreContext& core,
                           uint64_t addr, uint64_t shift, uint32_t repeats, uint64_t stride) {
  ListEntry e;
  e.start = addr + shift;
  if (e.start % kBlockBytes != 0) {
    Fault(ErrorKind::kInvalidArgument,
          Str(call, ": ", list, "[", i, "] UB address ", Hex(e.start), " is not 32-byte aligned"));
  }
  const uint64_t end = e.start + uint64_t{repeats - 1} * stride + kBlockBytes;
  e.slot = core.queues.pipe != nullptr ? FindUbSlot(*core.queues.pipe, e.start) : nullptr;
  const uint64_t lo = e.slot ? static_cast<uint64_t>(e.slot->addr - core.ub) : 0;
  if (e.slot == nullptr || end > lo + e.slot->bytes) {
    Fault(ErrorKind::kOutOfBounds,
          Str(call, ": ", list, "[", i, "] = UB ", Hex(addr), " reaches [", Hex(e.start), ", ",
              Hex(end), ") over ", repeats, " repeats (repStride ", stride / kBlockBytes,
              " blocks), outside ",
              e.slot ? Str("its buffer [", Hex(lo), ", ", Hex(lo + e.slot->bytes), ")")
                     : std::string("every buffer of this core's TPipe")));
  }
  if (e.slot->state == BufferState::kFree) {
    Fault(ErrorKind::kQueueMisuse,
          Str(call, ": ", list, "[", i, "] = UB ", Hex(addr), " lies in ", DescribeSlot(*e.slot),
              ", which is not allocated (AllocTensor it first)"));
  }
  return e;
}

}  // namespace

void TransDataTo5HDRun(const char* call, uint32_t elem, const uint64_t dst_addr[16],
                       const uint64_t src_addr[16], const AscendC::TransDataTo5HDParams& p) {
  CoreContext& core = CurrentCore();
  EnterApiCall(core);
  const uint32_t repeats = p.repeatTimes;
  if (repeats == 0) return;  // a NOP, as documented
  const uint64_t ds = uint64_t{p.dstRepStride} * kBlockBytes;
  const uint64_t ss = uint64_t{p.srcRepStride} * kBlockBytes;
  // With one repeat the device starts at list + repStride (TransDataTo5HD.md, repeatTimes).
  const uint64_t dshift = repeats == 1 ? ds : 0, sshift = repeats == 1 ? ss : 0;
  if (repeats == 1 && (ds != 0 || ss != 0)) {
    Warn(Str(call, ": repeatTimes 1 with dstRepStride ", p.dstRepStride, " / srcRepStride ",
             p.srcRepStride,
             ": the device starts that many blocks past the listed addresses "
             "(set the strides to 0 for a single repeat)"),
         Str(call, "/single-repeat-stride"));
  }
  ListEntry d[16], s[16];
  for (int i = 0; i < 16; ++i) {
    d[i] = ResolveListEntry(call, "dstList", i, core, dst_addr[i], dshift, repeats, ds);
    s[i] = ResolveListEntry(call, "srcList", i, core, src_addr[i], sshift, repeats, ss);
  }
  const uint64_t dext = uint64_t{repeats - 1} * ds + kBlockBytes;
  const uint64_t sext = uint64_t{repeats - 1} * ss + kBlockBytes;
  for (int i = 0; i < 16; ++i) {
    for (int j = 0; j < 16; ++j) {
      CheckOverlap(call, "dstList", core.ub + d[i].start, dext, "srcList", core.ub + s[j].start,
                   sext);
    }
  }
  // Every block each repeat touches, through the operand helper (sanitizer records).
  for (int i = 0; i < 16; ++i) {
    for (int side = 0; side < 2; ++side) {
      const ListEntry& e = side ? s[i] : d[i];
      const uint64_t stride = side ? ss : ds;
      const auto whole = TensorAccess::Bind<uint8_t>(e.slot, e.slot->bytes);
      const uint64_t at = e.start - static_cast<uint64_t>(e.slot->addr - core.ub);
      for (uint32_t r = 0; r < repeats; ++r) {
        TensorAccess::Checked(whole, call, side ? "srcList" : "dstList", at + r * stride,
                              kBlockBytes);
      }
    }
  }
  for (uint32_t r = 0; r < repeats; ++r) {
    uint8_t* dp[16];
    const uint8_t* sp[16];
    for (int i = 0; i < 16; ++i) {
      dp[i] = core.ub + d[i].start + r * ds;
      sp[i] = core.ub + s[i].start + r * ss;
    }
    NchwConvRepeat(elem, dp, sp, p.dstHighHalf, p.srcHighHalf);
  }
  Record(core, [&] {
    return VectorCall(call, trace::VectorClass::kSimple, static_cast<uint8_t>(elem),
                      uint64_t{repeats} * 16 * kBlockBytes / elem, d[0].slot->id, s[0].slot->id,
                      trace::kNoBuffer);
  });
}

}  // namespace ascsim::aicore

namespace AscendC::detail {

void Transpose16x16(const char* call, uint8_t* d, const uint8_t* s) {
  (void)call;
  uint16_t tmp[256];
  std::memcpy(tmp, s, sizeof(tmp));
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) std::memcpy(d + 2 * (i * 16 + j), &tmp[j * 16 + i], 2);
}

uint64_t TransposeTmpBytes(const TransposeParamsExt& p, uint32_t elem) {
  const uint64_t h0 = elem == 1 ? 32 : 16, w0 = 32 / elem, c = p.cSize;
  const uint64_t blocks = p.transposeType == TransposeType::TRANSPOSE_NCHW2NHWC ? c + 2 : 2 * c + 1;
  return blocks * h0 * w0 * elem;
}

void CheckTransposeParams(const TransposeParamsExt& p, uint32_t elem) {
  using ascsim::aicore::Fault;
  using ascsim::aicore::Str;
  if (p.transposeType == TransposeType::TRANSPOSE_ND2ND_B16) {
    Fault(ascsim::ErrorKind::kInvalidArgument,
          Str("Transpose: TRANSPOSE_ND2ND_B16 takes 16-bit elements (uint16_t), not ", elem,
              "-byte ones"));
  }
  if (p.transposeType != TransposeType::TRANSPOSE_NCHW2NHWC &&
      p.transposeType != TransposeType::TRANSPOSE_NHWC2NCHW) {
    Fault(ascsim::ErrorKind::kInvalidArgument,
          Str("Transpose: TransposeType ", static_cast<int>(p.transposeType),
              " is not supported by the device's Transpose (TRANSPOSE_ND2ND_B16, "
              "TRANSPOSE_NCHW2NHWC, TRANSPOSE_NHWC2NCHW)"));
  }
  const uint64_t hw = uint64_t{p.hSize} * p.wSize;
  if (p.cSize > 4095 || hw > 4095 || hw * elem % ascsim::aicore::kBlockBytes != 0) {
    Fault(ascsim::ErrorKind::kInvalidArgument,
          Str("Transpose: cSize ", p.cSize, " must be <= 4095 and hSize * wSize ", hw,
              " <= 4095 with hSize * wSize * sizeof(T) a multiple of 32 B"));
  }
}

}  // namespace AscendC::detail
