// tiling/platform/platform_ascendc.h: the host's view of the AI processor for tiling code,
// answered from ascsim's SoC profile (ascsim/soc.h). Names and signatures follow asc-devkit
// include/utils/tiling/platform/platform_ascendc.h; GetInstance() follows the active profile
// (ascsim::SetSoc / ASCSIM_SOC) at each query, GetInstance("Ascend910B1") a named one.
#pragma once

#include <cstdint>
#include <mutex>

namespace fe {
class PlatFormInfos;
}
enum class NpuArch : uint32_t;

namespace ascsim {
struct SocProfile;
}

namespace platform_ascendc {

enum class CoreMemType {
  L0_A = 0,
  L0_B = 1,
  L0_C = 2,
  L1 = 3,
  L2 = 4,
  UB = 5,
  HBM = 6,
  FB = 7,
  BT = 8,
  RESERVED
};

enum class SocVersion {
  ASCEND910 = 0,
  ASCEND910B,
  ASCEND310P,
  ASCEND310B,
  ASCEND950,
  ASCEND910_55,
  ASCEND910_95 = ASCEND950,
  AS31XM1,
  ASCEND031,
  ASCEND035,
  ASCEND310,
  ASCEND610,
  ASCEND610Lite,
  ASCEND910_93,
  BS9SX1A,
  BS9SX2A,
  HI3796CV300CS,
  HI3796CV300ES,
  MC61AM21A,
  MC62,
  SD3403,
  KIRINX90,
  KIRIN9030,
  MC32DM11A,
  ASCEND350,
  RESERVED_VERSION = 99999
};

enum class ReservedSize { RESERVED_SIZE_8K, RESERVED_SIZE_16K, RESERVED_SIZE_32K };

class PlatformAscendC {
 public:
  PlatformAscendC() = delete;
  ~PlatformAscendC() = default;
  // CANN builds one from the runtime's platform infos; here it follows the active profile.
  explicit PlatformAscendC(fe::PlatFormInfos* platformInfo) : platformInfo_(platformInfo) {}
  uint32_t GetCoreNum(void) const;        // vector cores on a split arch, AI cores otherwise
  uint32_t GetCoreNumAic(void) const;     // cube cores (AIC)
  uint32_t GetCoreNumAiv(void) const;     // vector cores (AIV)
  uint32_t GetCoreNumVector(void) const;  // separate Vector Cores (0 on the profiles ascsim has)
  uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const;
  uint32_t CalcTschNumBlocks(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const;
  uint32_t GetLibApiWorkSpaceSize(void) const;
  uint32_t GetResCubeGroupWorkSpaceSize(void) const;
  uint32_t GetResGroupBarrierWorkSpaceSize(void) const;
  void GetCoreMemSize(const CoreMemType& memType, uint64_t& size) const;
  void GetCoreMemBw(const CoreMemType& memType, uint64_t& bwSize) const;
  void ReserveLocalMemory(ReservedSize size);
  SocVersion GetSocVersion(void) const;
  NpuArch GetCurNpuArch(void) const;
  uint32_t GetVecRegLen(void) const;

  // ascsim: an instance for one named profile (used by PlatformAscendCManager).
  explicit PlatformAscendC(const ascsim::SocProfile* profile)
      : platformInfo_(nullptr), profile_(profile) {}
  // The profile this instance answers from (the active one when none was named).
  const ascsim::SocProfile& Profile() const;

 private:
  fe::PlatFormInfos* platformInfo_;
  uint32_t reservedMemSize_ = 0;
  const ascsim::SocProfile* profile_ = nullptr;
};

class PlatformAscendCManager {
 public:
  // The platform of the active SoC profile.
  static PlatformAscendC* GetInstance();
  // The platform of a named profile ("Ascend910B1", "Ascend910B3", "Ascend310P3"); for a name
  // ascsim has no profile of, the active profile (with a note on stderr).
  static PlatformAscendC* GetInstance(const char* customSocVersion);

 private:
  PlatformAscendCManager();
  ~PlatformAscendCManager() = default;
};

}  // namespace platform_ascendc
