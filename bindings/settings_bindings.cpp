#include "settings_bindings.h"

#include <string>
#include <utility>

#include "ascsim/error.h"
#include "ascsim/runtime.h"
#include "ascsim/soc.h"
#include "device_arrays.h"

namespace py = pybind11;

namespace ascsim_py {
namespace {

py::dict SocDict(const ascsim::SocProfile& p) {
  py::dict d;
  d["name"] = p.name;
  d["arch"] = p.arch;
  d["vector_cores"] = p.vector_cores;
  d["cube_cores"] = p.cube_cores;
  d["ub_bytes"] = ascsim::MemoryBytes(p, ascsim::Memory::kUb);
  d["l1_bytes"] = ascsim::MemoryBytes(p, ascsim::Memory::kL1);
  d["l0a_bytes"] = ascsim::MemoryBytes(p, ascsim::Memory::kL0A);
  d["l0b_bytes"] = ascsim::MemoryBytes(p, ascsim::Memory::kL0B);
  d["l0c_bytes"] = ascsim::MemoryBytes(p, ascsim::Memory::kL0C);
  d["max_buffers_per_position"] = p.max_buffers_per_position;
  d["has_data_copy_pad"] = p.has_data_copy_pad;
  d["clock_ghz"] = p.clock_ghz;
  d["gm_bandwidth_gbps"] = p.gm_bandwidth_gbps;
  d["launch_overhead_us"] = p.launch_overhead_us;
  d["dma_latency_us"] = p.dma_latency_us;
  return d;
}

std::string Shown(py::handle obj) {
  return py::str(py::type::handle_of(obj).attr("__name__")).cast<std::string>() + " " +
         py::repr(obj).cast<std::string>();
}

// A flag argument: bool or numpy.bool_ only (None, 2 or "false" are more likely mistakes than
// requests: bool("false") is True).
bool ToFlag(py::handle obj, const char* func, const char* name) {
  if (PyBool_Check(obj.ptr()) || IsNumpyBool(obj)) {
    return py::cast<bool>(py::bool_(py::reinterpret_borrow<py::object>(obj)));
  }
  throw ascsim::InvalidArgument(std::string(func) + ": " + name +
                                " must be a bool (True or False), got " + Shown(obj));
}

// A number of seconds: int, float or a NumPy number, not a bool or a string; the runtime checks
// the range.
double ToSeconds(py::handle obj, const char* func) {
  const bool number = !PyBool_Check(obj.ptr()) && !IsNumpyBool(obj) &&
                      (PyFloat_Check(obj.ptr()) || PyLong_Check(obj.ptr()) ||
                       py::isinstance(obj, py::module_::import("numpy").attr("number")));
  if (number) {
    const double v = PyFloat_AsDouble(obj.ptr());
    if (!(v == -1.0 && PyErr_Occurred())) return v;
    PyErr_Clear();
  }
  throw ascsim::InvalidArgument(std::string(func) +
                                ": timeout: expected seconds (a number >= 0), got " + Shown(obj));
}

// A SoC name: a str (FindSocProfile then says which names exist).
std::string ToName(py::handle obj, const char* func, const char* name, const char* what) {
  if (!PyUnicode_Check(obj.ptr())) {
    throw ascsim::InvalidArgument(std::string(func) + ": " + name + ": expected " + what +
                                  " (str), got " + Shown(obj));
  }
  return obj.cast<std::string>();
}

// The SanitizeFlag bits as the comma-separated names ParseSanitizeFlags reads ("" when off).
std::string SanitizeNames(uint32_t flags) {
  std::string out;
  const std::pair<uint32_t, const char*> names[] = {{ascsim::kSanitizeRace, "race"},
                                                    {ascsim::kSanitizeInit, "init"},
                                                    {ascsim::kSanitizeSync, "sync"}};
  for (const auto& [bit, name] : names) {
    if ((flags & bit) == 0) continue;
    if (!out.empty()) out += ",";
    out += name;
  }
  return out;
}

py::dict SettingsDict(const ascsim::Settings& s) {
  py::dict d;
  d["soc"] = s.soc->name;
  d["strict"] = s.strict;
  d["serial"] = s.serial;
  d["timeout"] = s.timeout_seconds;
  d["sanitize"] = SanitizeNames(s.sanitize);
  return d;
}

// Installs `values` (keys as SettingsDict makes them; absent keys keep their value) all at once:
// an invalid value changes nothing.
void SetSettingsDict(const py::dict& values) {
  ascsim::Settings s = ascsim::GetSettings();
  for (const auto& [key_obj, value] : values) {
    const std::string key = py::str(key_obj);
    if (key == "soc") {
      s.soc = &ascsim::FindSocProfile(ToName(value, "settings", "soc", "a SoC name"));
    } else if (key == "strict") {
      s.strict = ToFlag(value, "settings", "strict");
    } else if (key == "serial") {
      s.serial = ToFlag(value, "settings", "serial");
    } else if (key == "timeout") {
      s.timeout_seconds = ToSeconds(value, "settings");
    } else if (key == "sanitize") {
      s.sanitize = ascsim::ParseSanitizeFlags(
          ToName(value, "settings", "sanitize", "'race,init,sync' names"));
    } else {
      throw ascsim::InvalidArgument("settings: unknown setting '" + key +
                                    "' (known: soc, strict, serial, timeout, sanitize)");
    }
  }
  ascsim::SetSettings(s);
}

}  // namespace

void RegisterSettings(py::module_& m) {
  m.def(
      "set_strict", [](py::handle v) { ascsim::SetStrict(ToFlag(v, "set_strict", "strict")); },
      py::arg("strict"),
      "Strict mode turns simulator warnings into kernel errors (default: ASCSIM_STRICT=1).");
  m.def("get_strict", &ascsim::IsStrict);
  m.def(
      "set_serial", [](py::handle v) { ascsim::SetSerial(ToFlag(v, "set_serial", "serial")); },
      py::arg("serial"),
      "Serial mode runs the blocks of a launch in order on one thread, for debugging "
      "(default: ASCSIM_SERIAL=1).");
  m.def("get_serial", &ascsim::IsSerial);
  m.def(
      "set_timeout",
      [](py::handle seconds) { ascsim::SetLaunchTimeout(ToSeconds(seconds, "set_timeout")); },
      py::arg("seconds"),
      "Launch timeout in seconds, like the device's AI-core timeout: a launch still running "
      "after it fails with ascsim.TimeoutError (KernelError kind 'timeout') at its blocks' "
      "next kernel API call. 0 turns it off. Default: ASCSIM_TIMEOUT, else 300.");
  m.def("get_timeout", &ascsim::GetLaunchTimeout, "The launch timeout in seconds (0 = off).");
  m.def(
      "set_sanitize",
      [](const std::string& spec) { ascsim::SetSanitize(ascsim::ParseSanitizeFlags(spec)); },
      py::arg("spec"));
  m.def("get_sanitize", [] { return SanitizeNames(ascsim::GetSanitize()); });
  m.def("get_settings", [] { return SettingsDict(ascsim::GetSettings()); });
  m.def("set_settings", &SetSettingsDict, py::arg("values"));
  m.def("worker_count", &ascsim::WorkerCount, "Host threads that run blocks in parallel.");
  m.def(
      "set_soc",
      [](py::handle name) { ascsim::SetSoc(ToName(name, "set_soc", "name", "a SoC name")); },
      py::arg("name"),
      "Select the SoC profile new launches use (e.g. 'Ascend910B1', 'Ascend310P3'); an "
      "unknown name raises InvalidArgumentError listing the known ones.");
  m.def(
      "get_soc", [] { return SocDict(ascsim::CurrentSoc()); },
      "The current SoC profile as a dict (name, arch, vector_cores, ub_bytes, ...).");
  m.def(
      "list_socs",
      [] {
        py::list names;
        for (const ascsim::SocProfile& p : ascsim::SocProfiles()) names.append(p.name);
        return names;
      },
      "Names of the known SoC profiles.");
  m.def(
      "memory_stats",
      [] {
        const ascsim::MemoryStats s = ascsim::GetMemoryStats();
        py::dict d;
        d["in_use_bytes"] = s.in_use_bytes;
        d["cached_bytes"] = s.cached_bytes;
        d["peak_bytes"] = s.peak_bytes;
        d["allocations"] = s.allocations;
        return d;
      },
      "Device memory statistics: in_use_bytes, cached_bytes, peak_bytes, allocations.");
  m.def("release_cached_memory", &ascsim::ReleaseCachedMemory,
        "Return the device memory cached for reuse to the host.");
}

}  // namespace ascsim_py
