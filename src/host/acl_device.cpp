// Device queries (aclrtGetSocName, aclrtGetRunMode, aclrtGetDevice) and the toolkit's SoC choice.
#include <strings.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include "acl/acl.h"
#include "ascsim/soc.h"
#include "ascsim/toolkit.h"
#include "host/acl_state.h"

namespace ascsim::toolkit {

void SelectSoc(const char* requested, const char* profile, const char* reason) {
  if (requested == nullptr || profile == nullptr) return;
  const char* env = std::getenv("ASCSIM_SOC");
  if (env != nullptr && *env != '\0') return;  // the user's explicit choice wins
  host::AclState::SocRequest& soc = host::AclState::Get().soc;
  std::lock_guard<std::mutex> lock(soc.mu);
  try {
    SetSoc(profile);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ascsim: cannot simulate %s: %s\n", requested, e.what());
    return;
  }
  const char* previous = soc.requested.load();
  if (previous != nullptr && std::strcmp(previous, requested) == 0) return;
  soc.requested.store(strdup(requested));
  if (strcasecmp(requested, profile) != 0) {  // "ascend910b1" is the 910B1
    std::fprintf(stderr, "ascsim: %s is not modelled; simulating it as %s (%s)\n", requested,
                 profile, reason != nullptr && *reason != '\0' ? reason : "nearest profile");
  }
}

const char* RequestedSoc() { return host::AclState::Get().soc.requested.load(); }

}  // namespace ascsim::toolkit

const char* aclrtGetSocName(void) {
  if (const char* requested = ascsim::toolkit::RequestedSoc()) return requested;
  return ascsim::CurrentSoc().name;
}

aclError aclrtGetRunMode(aclrtRunMode* runMode) {
  if (runMode == nullptr) return ascsim::acl::RecordError("aclrtGetRunMode: runMode is null");
  *runMode = ACL_HOST;  // the program runs on the host; the simulated device is separate
  return ACL_SUCCESS;
}
