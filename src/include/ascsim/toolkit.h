// Entry points for code the CANN-shaped toolkit (toolkit/, installed by `cmake --install`) compiles
// into a user's project. Users do not call these; they are public so that the installed CMake
// functions (ascendc_library, the tikicpulib targets) can reach libascsim from generated sources.
#pragma once

#include <string>

namespace ascsim::toolkit {

// The SoC a project was built for (SOC_VERSION, run.sh -v) and the simulator profile it maps to.
// Unless ASCSIM_SOC is set in the environment (which then wins, untouched), makes `profile` the
// default for launches and makes aclrtGetSocName() report `requested`; when the two differ, says
// once on stderr that `requested` is simulated as `profile` and why (`reason`). Never throws: an
// unknown profile is reported on stderr and the default is left alone. Safe to call from static
// initialisers, any number of times.
void SelectSoc(const char* requested, const char* profile, const char* reason);

// The name aclrtGetSocName() reports (null until SelectSoc applied one).
const char* RequestedSoc();

// Run mode `sim` (run.sh -r sim): the npu path with the cost model on. Records every launch from
// now on and, at exit, writes the Chrome trace (ascsim_trace.json) and the estimate table
// (ascsim_summary.txt) into $CAMODEL_LOG_PATH (the directory CANN's CAModel simulator dumps to),
// default ./sim_log, relative to the working directory at the time of this call. Calling it again
// does nothing.
void EnableSimMode();

// Profiles every launch from now on and, at exit, writes into `dir` (created if needed):
// op_summary.csv (msprof's op_summary columns: ascsim/profile.h OpSummaryCsv),
// ascsim_trace.json (Chrome trace, a row per core and pipe) and ascsim_summary.txt. For
// msprof stand-ins and sim mode; ASCSIM_PROFILE_DIR=dir does the same for any program. Only the
// first call in a process takes effect (false after that). `label` names it in the one-line
// report on stderr ("sim", "msprof").
bool ProfileToDirectoryAtExit(const std::string& dir, const char* label = "profile");

}  // namespace ascsim::toolkit
