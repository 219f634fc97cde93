// ASCSIM_TRACE=path.json: traces every launch of an unmodified ACL or CPU-twin program (as msprof
// does) and writes the Chrome trace at exit. Coexists with Profilers: it is one more observer.
#pragma once

#include <string>

namespace ascsim::model {

// Called by the runtime before every launch; on the first call, installs the hook if
// ASCSIM_TRACE names a file. Costs one std::call_once check afterwards.
void InstallEnvTraceOnce();

// The hook itself (what InstallEnvTraceOnce does with the variable's value): collects every
// launch from now on and writes the trace to `path` at exit. A second call only changes the path.
void InstallEnvTrace(const std::string& path);

// Writes what the hook collected so far (the exit handler calls it); false when not installed.
bool FlushEnvTrace();

}  // namespace ascsim::model
