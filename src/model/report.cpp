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

// The lanes of the Chrome trace, named as msprof op simulator's instruction pipeline chart
// (trace.json) names them: VECTOR, SCALAR, CUBE, MTE1, MTE2, MTE3, FIXP (CANN msprof
// "仿真指令流水图文件" field reference).
const char* LaneName(trace::Pipe pipe) {
  switch (pipe) {
    case trace::Pipe::kV:
      return "VECTOR";
    case trace::Pipe::kS:
      return "SCALAR";
    case trace::Pipe::kM:
      return "CUBE";
    case trace::Pipe::kFix:
      return "FIXP";
    default:
      return trace::PipeName(pipe);
  }
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
            << ",\"args\":{\"name\":\"" << LaneName(pipe) << "\"}}";
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
      sep() << "{\"name\":" << JsonString(call.name) << ",\"cat\":\"" << LaneName(ev.pipe)
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

namespace {

// Mean per-core figures of one kind of core (aic or aiv) of a launch.
struct UnitFigures {
  int cores = 0;
  double time = 0;                      // mean run time of a core of this kind (us)
  std::map<std::string, double> pipes;  // mean busy time per pipe (us)
};

UnitFigures Unit(const LaunchEstimate& e, bool cube) {
  UnitFigures u;
  for (const CoreEstimate& c : e.cores) {
    if (c.cube != cube) continue;
    ++u.cores;
    // A core runs from its wave's start to its last call; one wave: its end time.
    double wave_start = 0;
    for (const CoreEstimate& d : e.cores) {
      if (d.wave + 1 == c.wave) wave_start = std::max(wave_start, d.end_us);
    }
    u.time += c.end_us - wave_start;
    for (const auto& [pipe, busy] : c.busy_us) u.pipes[pipe] += busy;
  }
  if (u.cores > 0) {
    u.time /= u.cores;
    for (auto& [pipe, busy] : u.pipes) busy /= u.cores;
  }
  return u;
}

std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

}  // namespace

// Column names: msprof op_summary_*.csv (CANN "op_summary" field reference and PipeUtilization
// metrics; the aic_mac_* spelling as the asc-devkit matmul best-practice tables print it).
std::string OpSummaryCsv(const std::vector<LaunchEstimate>& launches) {
  static const char* const kAic[][2] = {
      {"M", "mac"}, {"S", "scalar"}, {"MTE1", "mte1"}, {"MTE2", "mte2"}, {"FIX", "fixpipe"}};
  static const char* const kAiv[][2] = {
      {"V", "vec"}, {"S", "scalar"}, {"MTE2", "mte2"}, {"MTE3", "mte3"}};
  std::ostringstream out;
  out << "Op Name,OP Type,Task Type,Task Start Time(us),Task Duration(us),Task Wait Time(us),"
         "Block Dim,Mix Block Dim";
  for (const char* kind : {"aic", "aiv"}) {
    out << ',' << kind << "_time(us)," << kind << "_total_cycles";
    for (const auto& p :
         (kind[2] == 'c'
              ? std::vector<const char* const*>({kAic[0], kAic[1], kAic[2], kAic[3], kAic[4]})
              : std::vector<const char* const*>({kAiv[0], kAiv[1], kAiv[2], kAiv[3]}))) {
      out << ',' << kind << '_' << p[1] << "_time(us)," << kind << '_' << p[1] << "_ratio";
    }
  }
  out << '\n';
  double start = 0;
  for (const LaunchEstimate& e : launches) {
    const UnitFigures aic = Unit(e, true), aiv = Unit(e, false);
    const bool mix = aic.cores > 0 && aiv.cores > 0;
    const char* type = mix ? "MIX_AIC" : aic.cores > 0 ? "AI_CORE" : "AI_VECTOR_CORE";
    start += e.launch_overhead_us;
    out << CsvField(e.kernel) << ',' << CsvField(e.kernel) << ',' << type << ',' << Fixed(start, 3)
        << ',' << Fixed(e.task_duration_us, 3) << ',' << Fixed(e.launch_overhead_us, 3) << ','
        << e.block_dim << ',' << (mix ? std::to_string(aiv.cores) : std::string("N/A"));
    for (int k = 0; k < 2; ++k) {
      const UnitFigures& u = k == 0 ? aic : aiv;
      const auto& pipes =
          k == 0 ? std::vector<const char* const*>({kAic[0], kAic[1], kAic[2], kAic[3], kAic[4]})
                 : std::vector<const char* const*>({kAiv[0], kAiv[1], kAiv[2], kAiv[3]});
      if (u.cores == 0) {
        out << ",N/A,N/A";
        for (size_t i = 0; i < pipes.size(); ++i) out << ",N/A,N/A";
        continue;
      }
      out << ',' << Fixed(u.time, 3) << ',' << static_cast<uint64_t>(u.time * e.clock_ghz * 1e3);
      for (const auto& p : pipes) {
        auto it = u.pipes.find(p[0]);
        const double busy = it == u.pipes.end() ? 0.0 : it->second;
        out << ',' << Fixed(busy, 3) << ',' << Fixed(u.time > 0 ? busy / u.time : 0.0, 3);
      }
    }
    out << '\n';
    start += e.task_duration_us;
  }
  return out.str();
}

std::string ExplainEstimate(const LaunchEstimate& e) {
  const UnitFigures aic = Unit(e, true), aiv = Unit(e, false);
  // The kind of core that works the most (a mix Matmul's AIVs may only wait).
  auto work = [](const UnitFigures& f) {
    double sum = 0;
    for (const auto& [pipe, busy] : f.pipes) sum += busy;
    return f.cores > 0 ? sum : -1.0;
  };
  const bool cube = work(aic) > work(aiv);
  const UnitFigures& u = cube ? aic : aiv;
  const char* kind = cube ? "aic" : "aiv";
  std::ostringstream out;
  out << e.kernel << " on " << e.soc << ", Block Dim " << e.block_dim << ": Task Duration "
      << Fixed(e.task_duration_us, 2) << " us (" << kind << "_time " << Fixed(u.time, 2) << " us";
  if (e.waves > 1) out << ", " << e.waves << " waves";
  out << ").\n";
  // The busiest pipe of the cores, by msprof's name.
  struct PipeName {
    const char* pipe;
    const char* name;
  };
  static const PipeName kNames[] = {{"MTE2", "mte2"},  {"MTE3", "mte3"}, {"V", "vec"},
                                    {"S", "scalar"},   {"M", "mac"},     {"MTE1", "mte1"},
                                    {"FIX", "fixpipe"}};
  const PipeName* top = &kNames[0];
  double top_busy = -1;
  for (const PipeName& p : kNames) {
    auto it = u.pipes.find(p.pipe);
    const double busy = it == u.pipes.end() ? 0 : it->second;
    if (busy > top_busy) {
      top_busy = busy;
      top = &p;
    }
  }
  const double ratio = u.time > 0 ? top_busy / u.time : 0;
  out << "Busiest pipe: " << kind << '_' << top->name << "_time " << Fixed(top_busy, 2) << " us ("
      << kind << '_' << top->name << "_ratio " << Fixed(ratio, 2) << "); bound: " << e.bound
      << ".\n";
  const TransferStats& m = e.memory;
  const double run = e.estimated_us > 0 ? e.estimated_us : 1;
  std::vector<std::string> todo;
  if (m.mte2_transfers > 0) {
    const double per = static_cast<double>(m.mte2_bytes) / static_cast<double>(m.mte2_transfers);
    const double mte2 = u.pipes.count("MTE2") ? u.pipes.at("MTE2") : 0;
    // As the best-practice documents compute it: bytes read over the mean aiv/aic_mte2_time.
    const double read_tbs = mte2 > 0 ? static_cast<double>(m.mte2_bytes) / mte2 / 1e6 : 0;
    out << "MTE2 " << (e.bound == "GM bandwidth" ? "bound " : "") << "at " << Fixed(per / 1024.0, 1)
        << " KB per transfer: reads at " << Fixed(read_tbs, 2) << " TB/s over " << kind
        << "_mte2_time (HBM " << Fixed(m.hbm_busy_us / run * 100, 0) << "% busy).\n";
    if (per < 16 * 1024 && e.bound == "GM bandwidth") {
      todo.push_back(
          "copy at least 16 KB per DataCopy: each transfer costs HBM a fixed "
          "overhead, so small copies lose bandwidth");
    }
  }
  if (m.l2_thrashing && m.write_back_bytes > 0) {
    const double written = static_cast<double>(m.mte3_bytes);
    const double share = written > 0 ? static_cast<double>(m.write_back_bytes) / written : 1;
    out << "L2: the cacheable traffic exceeds L2, so "
        << (share > 0.995 ? std::string("every write pushes")
                          : Fixed(share * 100, 0) + "% of the writes push")
        << " a dirty line out to HBM ("
        << Fixed(static_cast<double>(m.write_back_bytes) / 1048576.0, 1)
        << " MB of write-backs share HBM with the reads).\n";
    if (m.bypass_bytes == 0) {
      todo.push_back(
          "SetL2CacheHint(CACHE_MODE_DISABLE) on the inputs read once keeps L2 for "
          "the output and saves its write-backs");
    }
  } else if (m.bypass_bytes > 0) {
    out << "L2: " << Fixed(static_cast<double>(m.bypass_bytes) / 1048576.0, 1)
        << " MB read around L2 (CACHE_MODE_DISABLE); the written data stays in L2.\n";
  }
  if (m.l2_hit_bytes * 100 > m.mte2_bytes) {
    out << "L2 hits: " << Fixed(static_cast<double>(m.l2_hit_bytes) / 1048576.0, 1) << " MB of "
        << Fixed(static_cast<double>(m.mte2_bytes) / 1048576.0, 1) << " MB read.\n";
  }
  // Rows off 512 B lines: worth saying once their head lines are a twentieth of what is read.
  if (m.unaligned_head_bytes * 20 > m.mte2_bytes) {
    out << "Rows off 512 B boundaries: " << m.unaligned_rows
        << " of the rows read start inside a 512 B line and run past it; each fetches that line "
        << "from HBM in full, even when L2 holds it ("
        << Fixed(static_cast<double>(m.unaligned_head_bytes) / 1048576.0, 1) << " MB).\n";
    todo.push_back(
        "start each row read on a 512 B boundary (row lengths and tile offsets in multiples of "
        "512 B): rows at 2 B alignment take 1.28x (into UB) to 1.97x (into L1) the MTE2 time of "
        "aligned ones");
  }
  // Bypassed reads of the lines other cores read at the same moment, once a tenth of the reads.
  if (m.same_address_bytes * 10 > static_cast<double>(m.mte2_bytes)) {
    out << "Reads of the same lines at once: " << Fixed(m.same_address_bytes / 1048576.0, 1)
        << " MB were read around L2 while another core read the same lines; HBM serves such "
        << "reads in turn.\n";
    todo.push_back(
        "stagger the cores over data they all read (core b starting at block (i + b) % n), or "
        "let L2 serve the re-reads (no CACHE_MODE_DISABLE on it)");
  }
  const double vec = e.pipes.count("V") ? e.pipes.at("V") : 0;
  if (vec > 0 && m.vector_conflict_us > 0.05 * vec) {
    out << "UB bank conflicts: " << Fixed(100 * m.vector_conflict_us / vec, 0) << "% of " << kind
        << "_vec_time (operands of one instruction in the same bank group, or a read "
        << "and a write in the same bank).\n";
    todo.push_back(
        "place the operands of each vector instruction in different bank groups "
        "(e.g. offset one input by 256 B: 16 groups of 32 B rows)");
  }
  if (vec > 0 && m.vector_head_us > 0.3 * vec) {
    out << "Vector instruction start-up: " << Fixed(100 * m.vector_head_us / vec, 0) << "% of "
        << kind << "_vec_time (short instructions).\n";
    todo.push_back("process more elements per vector instruction");
  }
  if (e.block_dim == 1 && m.mte2_transfers > 0) {
    todo.push_back(
        "spread the work over the cores: one core's MTE2 reaches ~43 GB/s of the "
        "HBM's 1.7 TB/s");
  }
  // Copies that never overlap the compute on the first core: one buffer.
  double v_total = 0, overlap = 0;
  std::vector<std::pair<double, double>> loads;
  for (const TimelineEvent& ev : e.events) {
    if (ev.block == 0 && ev.pipe == trace::Pipe::kMte2)
      loads.push_back({ev.start_us, ev.start_us + ev.dur_us});
  }
  for (const TimelineEvent& ev : e.events) {
    if (ev.block != 0 || ev.pipe != trace::Pipe::kV) continue;
    v_total += ev.dur_us;
    for (const auto& [a, b] : loads) {
      overlap += std::max(0.0, std::min(b, ev.start_us + ev.dur_us) - std::max(a, ev.start_us));
    }
  }
  if (loads.size() > 2 && v_total > 0 && overlap < 0.05 * v_total) {
    todo.push_back(
        "double-buffer (BUFFER_NUM 2, ping-pong with two event ids) so that the "
        "copies of one tile overlap the compute of the other");
  }
  if (!todo.empty()) {
    out << "What to try here:";
    for (const std::string& t : todo) out << "\n  - " << t;
    out << '\n';
  }
  return out.str();
}

void WriteOpSummary(const std::vector<LaunchEstimate>& launches, const std::string& path) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) throw InvalidArgument("SaveOpSummary: cannot open '" + path + "' for writing");
  file << OpSummaryCsv(launches);
  if (!file) throw InvalidArgument("SaveOpSummary: writing '" + path + "' failed");
}

void WriteChromeTrace(const std::vector<LaunchEstimate>& launches, const std::string& path) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) throw InvalidArgument("SaveTrace: cannot open '" + path + "' for writing");
  file << ChromeTraceJson(launches);
  if (!file) throw InvalidArgument("SaveTrace: writing '" + path + "' failed");
}

}  // namespace ascsim
