// _core.Profile: the profiler (ascsim/profile.h) as a Python object; summary() as dicts, the
// table, the Chrome trace JSON. The public face (context manager, plot) is python/ascsim.
#include "profile_bindings.h"

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
      d["task_duration_us"] = e.task_duration_us;
      py::dict mem;
      mem["mte2_transfers"] = e.memory.mte2_transfers;
      mem["mte3_transfers"] = e.memory.mte3_transfers;
      mem["mte2_bytes"] = e.memory.mte2_bytes;
      mem["mte3_bytes"] = e.memory.mte3_bytes;
      mem["l2_hit_bytes"] = e.memory.l2_hit_bytes;
      mem["bypass_bytes"] = e.memory.bypass_bytes;
      mem["write_back_bytes"] = e.memory.write_back_bytes;
      mem["unaligned_rows"] = e.memory.unaligned_rows;
      mem["unaligned_head_bytes"] = e.memory.unaligned_head_bytes;
      mem["same_address_bytes"] = e.memory.same_address_bytes;
      mem["l2_thrashing"] = e.memory.l2_thrashing;
      mem["hbm_busy_us"] = e.memory.hbm_busy_us;
      mem["port_busy_us"] = e.memory.port_busy_us;
      mem["vector_conflict_us"] = e.memory.vector_conflict_us;
      mem["vector_head_us"] = e.memory.vector_head_us;
      d["memory"] = mem;
      d["explanation"] = ascsim::ExplainEstimate(e);
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
  void SaveOpSummary(const std::string& path) const {
    py::gil_scoped_release release;
    profiler_->SaveOpSummary(path);
  }
  std::string OpSummary() const { return ascsim::OpSummaryCsv(profiler_->Summary()); }
  std::string TraceJson() const { return ascsim::ChromeTraceJson(profiler_->Summary()); }

 private:
  std::unique_ptr<ascsim::Profiler> profiler_;
};

}  // namespace

namespace ascsim_py {

void RegisterProfile(py::module_& m) {
  py::class_<PyProfile>(
      m, "Profile", "Collects the launches made while it is active (ascsim.profile() wraps it).")
      .def(py::init<>())
      .def("stop", &PyProfile::Stop)
      .def_property_readonly("active", &PyProfile::Active)
      .def("summary", &PyProfile::Summary)
      .def("table", &PyProfile::Table)
      .def("trace_json", &PyProfile::TraceJson)
      .def("save_trace", &PyProfile::SaveTrace, py::arg("path"))
      .def("op_summary", &PyProfile::OpSummary)
      .def("save_op_summary", &PyProfile::SaveOpSummary, py::arg("path"));
}

}  // namespace ascsim_py
