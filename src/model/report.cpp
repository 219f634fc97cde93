// What the profiler shows: the summary table and the Chrome trace event JSON.
#include <cstdio>
#include <fstream>
#include <sstream>

#include "ascsim/error.h"
#include "ascsim/profile.h"

namespace ascsim {
namespace {

// Thread ids of the pipes in the trace, in the order the rows should appear.
int PipeTid(trace::Pipe pipe) {
  switch (pipe) {
    case trace::Pipe::kMte2:
      return 1;
    case trace::Pipe::kV:
      return 2;
    case trace::Pipe::kMte3:
      return 3;
    case trace::Pipe::kS:
      return 4;
    case trace::Pipe::kMte1:
      return 5;
    case trace::Pipe::kM:
      return 6;
    case trace::Pipe::kFix:
      return 7;
    case trace::Pipe::kNone:
      break;
  }
  return 8;
}

std::string Fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.*f", digits, v);
  return buf;
}

std::string JsonString(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

void AppendBuffer(std::ostringstream& out, const char* key, uint32_t id) {
  if (id != trace::kNoBuffer) out << ",\"" << key << "\":" << id;
}

}  // namespace

std::string FormatEstimateTable(const std::vector<LaunchEstimate>& launches) {
  std::ostringstream out;
  char line[384];
  std::snprintf(line, sizeof(line),
                "%-20s %6s %-12s %12s %5s %-13s %10s %10s %10s %10s %10s %10s %10s\n", "kernel",
                "blocks", "soc", "estimate_us", "waves", "bound", "MTE2_us", "V_us", "MTE3_us",
                "S_us", "MTE1_us", "M_us", "FIX_us");
  out << line;
  for (const LaunchEstimate& e : launches) {
    auto pipe = [&](const char* name) {
      auto it = e.pipes.find(name);
      return it == e.pipes.end() ? 0.0 : it->second;
    };
    std::snprintf(line, sizeof(line),
                  "%-20s %6u %-12s %12.2f %5u %-13s %10.2f %10.2f %10.2f %10.2f %10.2f %10.2f "
                  "%10.2f%s\n",
                  e.kernel.c_str(), e.block_dim, e.soc.c_str(), e.estimated_us, e.waves,
                  e.bound.c_str(), pipe("MTE2"), pipe("V"), pipe("MTE3"), pipe("S"), pipe("MTE1"),
                  pipe("M"), pipe("FIX"), e.failed ? "  (failed)" : "");
    out << line;
  }
  out << "(estimate: device execution time; each launch adds ~"
      << (launches.empty() ? 0.0 : launches.front().launch_overhead_us)
      << " us launch overhead; pipe times are summed over cores)\n";
  return out.str();
}

std::string ChromeTraceJson(const std::vector<LaunchEstimate>& launches) {
  std::ostringstream out;
  out << "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[";
  bool first = true;
  auto sep = [&]() -> std::ostringstream& {
    if (!first) out << ",\n";
    first = false;
    return out;
  };
  // Metadata: one process per core, one thread per pipe seen on it.
  std::map<uint32_t, std::map<int, trace::Pipe>> rows;
  std::map<uint32_t, uint8_t> units;  // 1: an AIC, 2: an AIV of a mix launch, 0: a core
  for (const LaunchEstimate& e : launches) {
    for (const TimelineEvent& ev : e.events) {
      rows[ev.core][PipeTid(ev.pipe)] = ev.pipe;
      units[ev.core] = (*e.traces)[ev.block].unit;
    }
  }
  for (const auto& [core, pipes] : rows) {
    const uint8_t unit = units[core];
    sep() << "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" << core << ",\"args\":{\"name\":\""
          << (unit == 1   ? "AIC "
              : unit == 2 ? "AIV "
                          : "core ")
          << core << "\"}}";
    sep() << "{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":" << core
          << ",\"args\":{\"sort_index\":" << core << "}}";
    for (const auto& [tid, pipe] : pipes) {
      sep() << "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" << core << ",\"tid\":" << tid
            << ",\"args\":{\"name\":\"" << trace::PipeName(pipe) << "\"}}";
      sep() << "{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":" << core << ",\"tid\":" << tid
            << ",\"args\":{\"sort_index\":" << tid << "}}";
    }
  }
  double offset = 0;
  for (size_t k = 0; k < launches.size(); ++k) {
    const LaunchEstimate& e = launches[k];
    offset += e.launch_overhead_us;  // each launch starts after its launch overhead
    for (const TimelineEvent& ev : e.events) {
      const trace::ApiCall& call = (*e.traces)[ev.block].calls[ev.call_index];
      sep() << "{\"name\":" << JsonString(call.name) << ",\"cat\":\"" << trace::PipeName(ev.pipe)
            << "\",\"ph\":\"X\",\"ts\":" << Fixed(offset + ev.start_us, 4)
            << ",\"dur\":" << Fixed(ev.dur_us, 4) << ",\"pid\":" << ev.core
            << ",\"tid\":" << PipeTid(ev.pipe) << ",\"args\":{\"kernel\":" << JsonString(e.kernel)
            << ",\"launch\":" << k << ",\"block\":" << ev.block << ",\"wave\":" << ev.wave;
      if (call.elements) out << ",\"elements\":" << call.elements;
      if (call.bytes) out << ",\"bytes\":" << call.bytes;
      if (call.dtype_bytes) out << ",\"dtype_bytes\":" << unsigned{call.dtype_bytes};
      AppendBuffer(out, "dst_buffer", call.dst_buffer);
      AppendBuffer(out, "src_buffer0", call.src_buffers[0]);
      AppendBuffer(out, "src_buffer1", call.src_buffers[1]);
      if (ev.latency_us > 0) out << ",\"latency_us\":" << Fixed(ev.latency_us, 4);
      out << "}}";
    }
    offset += e.estimated_us;
  }
  out << "]}\n";
  return out.str();
}

void WriteChromeTrace(const std::vector<LaunchEstimate>& launches, const std::string& path) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) throw InvalidArgument("SaveTrace: cannot open '" + path + "' for writing");
  file << ChromeTraceJson(launches);
  if (!file) throw InvalidArgument("SaveTrace: writing '" + path + "' failed");
}

}  // namespace ascsim
