// Compiled into every program and kernel library the toolkit builds (the tikicpulib targets and
// ascendc_library add it): at start-up, makes the SoC the project was built for (SOC_VERSION,
// run.sh -v) the default for launches, unless ASCSIM_SOC is set in the environment; with
// ASCSIM_TOOLKIT_SIM_MODE (run.sh -r sim) it also turns the cost model on and has the estimate
// written to $CAMODEL_LOG_PATH at exit. See ascsim/toolkit.h.
#include "ascsim/toolkit.h"

#define ASCSIM_TOOLKIT_STR_(x) #x
#define ASCSIM_TOOLKIT_STR(x) ASCSIM_TOOLKIT_STR_(x)

#ifndef ASCSIM_TOOLKIT_SOC_WHY
#define ASCSIM_TOOLKIT_SOC_WHY ""
#endif

namespace {
struct AscsimToolkitStart {
  AscsimToolkitStart() {
#if defined(ASCSIM_TOOLKIT_SOC) && defined(ASCSIM_SOC)
    ascsim::toolkit::SelectSoc(ASCSIM_TOOLKIT_STR(ASCSIM_TOOLKIT_SOC),
                               ASCSIM_TOOLKIT_STR(ASCSIM_SOC), ASCSIM_TOOLKIT_SOC_WHY);
#endif
#if defined(ASCSIM_TOOLKIT_SIM_MODE) && ASCSIM_TOOLKIT_SIM_MODE
    ascsim::toolkit::EnableSimMode();
#endif
  }
};
const AscsimToolkitStart kAscsimToolkitStart;
}  // namespace
