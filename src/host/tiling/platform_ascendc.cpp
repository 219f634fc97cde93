// platform_ascendc::PlatformAscendC answered from ascsim's SoC profiles (tiling/platform/
// platform_ascendc.h). Figures: the profile table (src/base/soc.cpp); the library workspace size
// is the system workspace the device reserves (ascsim::LibApiWorkspaceBytes: 16 MiB on A2).
#include "tiling/platform/platform_ascendc.h"

#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "ascsim/error.h"
#include "ascsim/soc.h"
#include "platform/platform_infos_def.h"

namespace platform_ascendc {
const ascsim::SocProfile& PlatformAscendC::Profile() const {
  if (profile_ != nullptr) return *profile_;
  // A TilingContext's platform (context->GetPlatformInfo()) names the SoC the operator runs on.
  if (platformInfo_ != nullptr && platformInfo_->Profile() != nullptr)
    return *platformInfo_->Profile();
  return ascsim::CurrentSoc();
}

uint32_t PlatformAscendC::GetCoreNum(void) const {
  return static_cast<uint32_t>(Profile().vector_cores);
}
uint32_t PlatformAscendC::GetCoreNumAic(void) const {
  return static_cast<uint32_t>(Profile().cube_cores);
}
uint32_t PlatformAscendC::GetCoreNumAiv(void) const {
  return static_cast<uint32_t>(Profile().vector_cores);
}
uint32_t PlatformAscendC::GetCoreNumVector(void) const { return 0; }

uint32_t PlatformAscendC::CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum,
                                           uint32_t aivCoreNum) const {
  // A mix kernel is launched per AIC: each takes aiv / aic slices.
  if (aicCoreNum == 0 || aivCoreNum == 0 || !Profile().split_cores) return sliceNum;
  const uint32_t ratio = aivCoreNum >= aicCoreNum ? aivCoreNum / aicCoreNum : 1;
  return (sliceNum + ratio - 1) / ratio;
}
uint32_t PlatformAscendC::CalcTschNumBlocks(uint32_t sliceNum, uint32_t aicCoreNum,
                                            uint32_t aivCoreNum) const {
  return CalcTschBlockDim(sliceNum, aicCoreNum, aivCoreNum);
}

uint32_t PlatformAscendC::GetLibApiWorkSpaceSize(void) const {
  return static_cast<uint32_t>(ascsim::LibApiWorkspaceBytes(Profile()));
}
uint32_t PlatformAscendC::GetResCubeGroupWorkSpaceSize(void) const { return 0; }
uint32_t PlatformAscendC::GetResGroupBarrierWorkSpaceSize(void) const { return 0; }

void PlatformAscendC::GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const {
  const ascsim::SocProfile& p = Profile();
  switch (memType) {
    case CoreMemType::L0_A:
      size = ascsim::MemoryBytes(p, ascsim::Memory::kL0A);
      return;
    case CoreMemType::L0_B:
      size = ascsim::MemoryBytes(p, ascsim::Memory::kL0B);
      return;
    case CoreMemType::L0_C:
      size = ascsim::MemoryBytes(p, ascsim::Memory::kL0C);
      return;
    case CoreMemType::L1:
      size = ascsim::MemoryBytes(p, ascsim::Memory::kL1);
      return;
    case CoreMemType::UB:
      size = ascsim::MemoryBytes(p, ascsim::Memory::kUb) - reservedMemSize_;
      return;
    case CoreMemType::FB:
      size = ascsim::MemoryBytes(p, ascsim::Memory::kFb);
      return;
    case CoreMemType::BT:
      size = ascsim::MemoryBytes(p, ascsim::Memory::kBt);
      return;
    case CoreMemType::L2:
      size = p.split_cores ? 192ull << 20 : 96ull << 20;
      return;
    case CoreMemType::HBM:
      size = p.split_cores ? 64ull << 30 : 24ull << 30;
      return;
    case CoreMemType::RESERVED:
      break;
  }
  size = 0;
}

void PlatformAscendC::GetCoreMemBw(const CoreMemType& memType, uint64_t& bwSize) const {
  const ascsim::SocProfile& p = Profile();
  // Bytes per cycle of the whole device (GM) or of one core's path.
  switch (memType) {
    case CoreMemType::HBM:
    case CoreMemType::L2:
      bwSize = static_cast<uint64_t>(p.gm_bandwidth_gbps / p.clock_ghz);
      return;
    case CoreMemType::L0_A:
      bwSize = static_cast<uint64_t>(p.mte1_l0a_bytes_per_cycle);
      return;
    case CoreMemType::L0_B:
      bwSize = static_cast<uint64_t>(p.mte1_l0b_bytes_per_cycle);
      return;
    case CoreMemType::UB:
      bwSize = static_cast<uint64_t>(p.vector_bytes_per_cycle);
      return;
    default:
      bwSize = 0;
      return;
  }
}

void PlatformAscendC::ReserveLocalMemory(ReservedSize size) {
  reservedMemSize_ = size == ReservedSize::RESERVED_SIZE_8K    ? 8u * 1024u
                     : size == ReservedSize::RESERVED_SIZE_16K ? 16u * 1024u
                                                               : 32u * 1024u;
}

SocVersion PlatformAscendC::GetSocVersion(void) const {
  return Profile().arch == 2002 ? SocVersion::ASCEND310P : SocVersion::ASCEND910B;
}
NpuArch PlatformAscendC::GetCurNpuArch(void) const { return static_cast<NpuArch>(Profile().arch); }
uint32_t PlatformAscendC::GetVecRegLen(void) const { return 256; }

PlatformAscendC* PlatformAscendCManager::GetInstance() {
  static PlatformAscendC* const active = new PlatformAscendC(
      static_cast<const ascsim::SocProfile*>(nullptr));  // follows the active profile
  return active;
}

PlatformAscendC* PlatformAscendCManager::GetInstance(const char* customSocVersion) {
  if (customSocVersion == nullptr) return GetInstance();
  static std::mutex mu;
  static auto* const named = new std::map<std::string, std::unique_ptr<PlatformAscendC>>();
  std::lock_guard<std::mutex> lock(mu);
  auto it = named->find(customSocVersion);
  if (it != named->end()) return it->second.get();
  const ascsim::SocProfile* profile = nullptr;
  try {
    profile = &ascsim::FindSocProfile(customSocVersion);
  } catch (const ascsim::Error&) {
    // A SoC ascsim has no profile of (say Ascend910B4): answer from the active profile, as the
    // kernels of this process will run on it, and say so once.
    std::fprintf(stderr,
                 "ascsim: PlatformAscendCManager::GetInstance(\"%s\"): no profile of that name; "
                 "answering from the active profile (set ASCSIM_SOC to choose one of those "
                 "ascsim has)\n",
                 customSocVersion);
  }
  auto inserted = named->emplace(customSocVersion, std::make_unique<PlatformAscendC>(profile));
  return inserted.first->second.get();
}

}  // namespace platform_ascendc
