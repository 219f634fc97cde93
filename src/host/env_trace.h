// ASCSIM_TRACE=path.json: traces every launch of an unmodified ACL or CPU-twin program (as msprof
// does) and writes the Chrome trace at exit. Coexists with Profilers: it is one more observer.
// The entry points install it (ascsim::InstallTraceFromEnvironment: aclInit, ACL launches,
// ICPU_RUN_KF, the Python packages' import); the runtime itself does not know about it.
#pragma once

#include <string>

namespace ascsim::host {

// The hook itself (what InstallEnvTraceOnce does with the variable's value): collects every
// launch from now on and writes the trace to `path` at exit. A second call only changes the path.
void InstallEnvTrace(const std::string& path);

// Writes what the hook collected so far (the exit handler calls it); false when not installed.
bool FlushEnvTrace();

}  // namespace ascsim::host
