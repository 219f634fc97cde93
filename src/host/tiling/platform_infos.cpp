// fe::PlatFormInfos over ascsim's SoC profiles (platform/platform_infos_def.h).
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "ascsim/error.h"
#include "ascsim/runtime.h"
#include "ascsim/soc.h"
#include "platform/platform_infos_def.h"

namespace fe {
namespace {

// The short names CANN's platform configs give each family ("ascend910b"), by arch.
const char* ShortSocVersion(const ascsim::SocProfile& p) {
  return p.arch == 2002 ? "Ascend310P" : "Ascend910B";
}

struct PlatformTables {
  std::mutex mu;
  std::map<const ascsim::SocProfile*, std::unique_ptr<PlatFormInfos>> infos;
  std::map<const ascsim::SocProfile*, std::map<std::string, std::string>> values;
};
PlatformTables& Tables() {
  static PlatformTables* tables = new PlatformTables;  // never destroyed: handed-out pointers live
  return *tables;
}

std::map<std::string, std::string> ValuesOf(const ascsim::SocProfile& p) {
  std::map<std::string, std::string> v;
  v["version/SoC_version"] = p.name;
  v["version/Short_SoC_version"] = ShortSocVersion(p);
  const int ai_cores = p.split_cores ? p.cube_cores : p.vector_cores;
  v["SoCInfo/ai_core_cnt"] = std::to_string(ai_cores);
  v["SoCInfo/cube_core_cnt"] = std::to_string(p.cube_cores);
  v["SoCInfo/vector_core_cnt"] = std::to_string(p.split_cores ? p.vector_cores : 0);
  v["AICoreSpec/ub_size"] = std::to_string(ascsim::MemoryBytes(p, ascsim::Memory::kUb));
  v["AICoreSpec/l1_size"] = std::to_string(ascsim::MemoryBytes(p, ascsim::Memory::kL1));
  v["AICoreSpec/l0_a_size"] = std::to_string(ascsim::MemoryBytes(p, ascsim::Memory::kL0A));
  v["AICoreSpec/l0_b_size"] = std::to_string(ascsim::MemoryBytes(p, ascsim::Memory::kL0B));
  v["AICoreSpec/l0_c_size"] = std::to_string(ascsim::MemoryBytes(p, ascsim::Memory::kL0C));
  return v;
}

}  // namespace

PlatFormInfos* PlatFormInfos::ForSoc(const char* soc_name) {
  const ascsim::SocProfile* profile = nullptr;
  for (const ascsim::SocProfile& p : ascsim::SocProfiles()) {
    if (soc_name != nullptr && std::strcmp(p.name, soc_name) == 0) profile = &p;
  }
  if (profile == nullptr) return nullptr;
  PlatformTables& t = Tables();
  std::lock_guard<std::mutex> lock(t.mu);
  std::unique_ptr<PlatFormInfos>& slot = t.infos[profile];
  if (!slot) {
    slot.reset(new PlatFormInfos(profile));
    t.values[profile] = ValuesOf(*profile);
  }
  return slot.get();
}

PlatFormInfos* PlatFormInfos::ForActiveSoc() { return ForSoc(ascsim::GetSettings().soc->name); }

const char* PlatFormInfos::GetPlatformResRaw(const char* label, const char* key) const {
  if (label == nullptr || key == nullptr) return nullptr;
  PlatformTables& t = Tables();
  std::lock_guard<std::mutex> lock(t.mu);
  const auto& values = t.values[profile_];
  const auto it = values.find(std::string(label) + "/" + key);
  return it == values.end() ? nullptr : it->second.c_str();
}

uint32_t PlatFormInfos::GetCoreNum() const {
  if (!profile_->split_cores) return static_cast<uint32_t>(profile_->vector_cores);
  return static_cast<uint32_t>(vector_cores_ ? profile_->vector_cores : profile_->cube_cores);
}

void PlatFormInfos::SetCoreType(const char* core_type) {
  vector_cores_ = core_type == nullptr || std::strcmp(core_type, "AiCore") != 0;
}

}  // namespace fe
