// add_custom.profile(): the profiler (ascsim/profile.h) as a context manager. The plot runs a
// small matplotlib snippet (Agg backend) over the same Chrome trace JSON that save_trace writes.
#include "profile_bindings.h"

#include <pybind11/eval.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>

#include "ascsim/error.h"
#include "ascsim/profile.h"

namespace py = pybind11;

namespace {

// The Python object: profiling starts when it is created, stops at `with` exit or stop().
class PyProfile {
 public:
  PyProfile() : profiler_(std::make_unique<ascsim::Profiler>()) {}
  void Stop() { profiler_->Stop(); }
  bool Active() const { return profiler_->active(); }

  py::list Summary() const {
    py::list out;
    for (const ascsim::LaunchEstimate& e : profiler_->Summary()) {
      py::dict d;
      d["kernel"] = e.kernel;
      d["block_dim"] = e.block_dim;
      d["soc"] = e.soc;
      d["estimated_us"] = e.estimated_us;
      d["launch_overhead_us"] = e.launch_overhead_us;
      d["waves"] = e.waves;
      d["bound"] = e.bound;
      d["pipes"] = e.pipes;
      d["gm_bytes"] = e.gm_bytes;
      d["wall_us"] = e.wall_us;
      d["failed"] = e.failed;
      py::list cores;
      for (const ascsim::CoreEstimate& c : e.cores) {
        py::dict cd;
        cd["block"] = c.block;
        cd["core"] = c.core;
        cd["wave"] = c.wave;
        cd["end_us"] = c.end_us;
        cd["busy_us"] = c.busy_us;
        cd["utilisation"] = c.utilisation;
        cores.append(cd);
      }
      d["cores"] = cores;
      out.append(d);
    }
    return out;
  }

  std::string Table() const { return profiler_->ToTable(); }
  void SaveTrace(const std::string& path) const {
    py::gil_scoped_release release;
    profiler_->SaveTrace(path);
  }
  std::string TraceJson() const { return ascsim::ChromeTraceJson(profiler_->Summary()); }

  void Plot(const std::string& path, int max_cores, py::object launch) const {
    py::dict scope;
    scope["launch"] = launch;
    scope["trace_json"] = TraceJson();
    scope["path"] = path;
    scope["max_cores"] = max_cores;
    py::exec(R"PY(
import json
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

events = json.loads(trace_json)["traceEvents"]
pipe_names = {}
for e in events:
    if e["ph"] == "M" and e["name"] == "thread_name":
        pipe_names[(e["pid"], e["tid"])] = e["args"]["name"]
spans = {}
for e in events:
    if e["ph"] == "X" and e["pid"] < max_cores and launch in (None, e["args"]["launch"]):
        spans.setdefault((e["pid"], e["tid"]), []).append((e["ts"], e["dur"]))
rows = sorted(spans)
t0 = min((ts for v in spans.values() for ts, _ in v), default=0.0)
colors = {"MTE2": "tab:blue", "V": "tab:orange", "MTE3": "tab:green", "S": "tab:red"}
fig, ax = plt.subplots(figsize=(12, 0.4 * len(rows) + 1.5))
for i, key in enumerate(rows):
    name = pipe_names.get(key, str(key[1]))
    ax.broken_barh([(ts - t0, d) for ts, d in spans[key]], (i - 0.4, 0.8),
                   facecolors=colors.get(name, "tab:gray"), edgecolor="white", linewidth=0.6)
ax.set_yticks(range(len(rows)))
ax.set_yticklabels(["core %d %s" % (k[0], pipe_names.get(k, k[1])) for k in rows])
ax.invert_yaxis()
ax.set_xlabel("estimated device time since the first call shown (us)")
kernels = sorted({e["args"]["kernel"] for e in events if e["ph"] == "X"
                  and launch in (None, e["args"]["launch"])})
ax.set_title("ascsim estimated timeline: %s (first %d cores)" % (", ".join(kernels), max_cores))
ax.grid(axis="x", alpha=0.3)
fig.tight_layout()
fig.savefig(path, dpi=110)
plt.close(fig)
)PY",
             scope);
  }

 private:
  std::unique_ptr<ascsim::Profiler> profiler_;
};

}  // namespace

void RegisterProfile(py::module_& m) {
  py::class_<PyProfile>(m, "Profile", R"doc(
Profiles the launches made while it is active: the cost model's estimate of each launch on the
device (time, per-pipe busy time, bound, waves) and a per-core, per-pipe timeline.

    with add_custom.profile() as prof:
        add_custom.run_add_custom(x, y, block_dim=8)
    print(prof)                     # one line per launch
    prof.summary()                  # list of dicts
    prof.save_trace("trace.json")   # Chrome trace: Perfetto / chrome://tracing
    prof.plot("timeline.png")       # matplotlib, one row per core and pipe

The profiler is process-wide: while it is active it records the launches of every thread and
stream of the process, not only the ones made inside the ``with`` block's thread. A stopped
profile cannot be re-entered (InvalidArgumentError); create a new one.
)doc")
      .def(
          "__enter__",
          [](PyProfile& self) -> PyProfile& {
            // A stopped profile records nothing more: entering it again would silently profile
            // nothing, so it is refused.
            if (!self.Active()) {
              throw ascsim::InvalidArgument(
                  "add_custom.Profile: this profile was stopped; start a new one with "
                  "add_custom.profile()");
            }
            return self;
          },
          py::return_value_policy::reference)
      .def("__exit__", [](PyProfile& self, py::args) { self.Stop(); })
      .def("stop", &PyProfile::Stop, "Stop collecting; what was collected stays.")
      .def_property_readonly("active", &PyProfile::Active)
      .def("summary", &PyProfile::Summary, R"doc(
One dict per launch: kernel, block_dim, soc, estimated_us (device execution time),
launch_overhead_us, waves, bound ('GM bandwidth', 'vector', 'scalar' or 'latency'), pipes
(pipe name -> busy microseconds summed over cores), gm_bytes, wall_us (the simulator's own run
time), failed, and cores (per block: core, wave, end_us, busy_us and utilisation per pipe).
)doc")
      .def("table", &PyProfile::Table, "The summary as a text table.")
      .def("__str__", &PyProfile::Table)
      .def("__repr__", &PyProfile::Table)
      .def("trace_json", &PyProfile::TraceJson, "The Chrome trace event JSON as a string.")
      .def("save_trace", &PyProfile::SaveTrace, py::arg("path"),
           "Write the Chrome trace event JSON (pid = core, tid = pipe) to `path`.")
      .def("plot", &PyProfile::Plot, py::arg("path"), py::arg("max_cores") = 4,
           py::arg("launch") = py::none(),
           "Draw the timeline of the first `max_cores` cores (one row per core and pipe) to an "
           "image file (matplotlib, Agg backend); `launch` picks one launch by index (default: "
           "all, one after the other).");
  m.def(
      "profile", [] { return std::make_unique<PyProfile>(); }, R"doc(
Start profiling launches; use as `with add_custom.profile() as prof:`. Launches record their
API calls (results are unchanged) and are estimated on the current SoC profile. Every launch of
the process is recorded while the profile is active, from any thread.
)doc");
}
