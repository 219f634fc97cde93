// fe::PlatFormInfos: the SoC description a TilingContext hands the TilingFunc
// (context->GetPlatformInfo()), read through platform_ascendc::PlatformAscendC or directly with
// GetPlatformRes(label, key, value) over CANN's platform config names (hicann/runtime
// src/platform/platform_info.cpp): "version" (SoC_version, Short_SoC_version), "SoCInfo"
// (ai_core_cnt, cube_core_cnt, vector_core_cnt), "AICoreSpec" (ub_size, l1_size, l0_a_size,
// l0_b_size, l0_c_size). In ascsim one object per SoC profile, owned by libascsim.
#ifndef ASCSIM_PLATFORM_PLATFORM_INFOS_DEF_H_
#define ASCSIM_PLATFORM_PLATFORM_INFOS_DEF_H_

#include <cstdint>
#include <string>

namespace ascsim {
struct SocProfile;
}  // namespace ascsim

namespace fe {

class PlatFormInfos {
 public:
  // The platform of a named SoC profile ("Ascend910B1"); nullptr for a name ascsim has none of.
  static PlatFormInfos* ForSoc(const char* soc_name);
  // The platform of the active SoC profile (ascsim::SetSoc / ASCSIM_SOC).
  static PlatFormInfos* ForActiveSoc();

  bool Init() { return true; }
  // The value of `key` under `label`; false when there is none. (Inline, so the std::string is
  // the caller's ABI.)
  bool GetPlatformRes(const std::string& label, const std::string& key, std::string& val) {
    const char* found = GetPlatformResRaw(label.c_str(), key.c_str());
    if (found == nullptr) return false;
    val = found;
    return true;
  }
  bool GetPlatformResWithLock(const std::string& label, const std::string& key, std::string& val) {
    return GetPlatformRes(label, key, val);
  }
  uint32_t GetCoreNum() const;
  void SetCoreNumByCoreType(const std::string& core_type) { SetCoreType(core_type.c_str()); }

  // ascsim: the answer behind GetPlatformRes (nullptr: none) and the profile described.
  const char* GetPlatformResRaw(const char* label, const char* key) const;
  const ascsim::SocProfile* Profile() const { return profile_; }

  PlatFormInfos(const PlatFormInfos&) = delete;
  PlatFormInfos& operator=(const PlatFormInfos&) = delete;

 private:
  explicit PlatFormInfos(const ascsim::SocProfile* profile) : profile_(profile) {}
  void SetCoreType(const char* core_type);
  const ascsim::SocProfile* profile_;
  bool vector_cores_ = true;  // SetCoreNumByCoreType("AiCore") picks the cube cores
};

}  // namespace fe

#endif  // ASCSIM_PLATFORM_PLATFORM_INFOS_DEF_H_
