// libruntime_camodel: the name CANN's simulator runtime has. Build flows that pick the simulator
// by linking it (the CCE language's sim mode: -lruntime_camodel) get ascsim's sim mode by linking
// this: while it is loaded, every launch is recorded and, at exit, the Chrome trace and the
// estimate table are written into $CAMODEL_LOG_PATH (ascsim/toolkit.h EnableSimMode).
#include "ascsim/toolkit.h"

namespace {
struct EnableSimModeAtLoad {
  EnableSimModeAtLoad() { ascsim::toolkit::EnableSimMode(); }
};
const EnableSimModeAtLoad kEnable;
}  // namespace
