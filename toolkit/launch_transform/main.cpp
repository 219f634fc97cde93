// ascsim-launch-transform: the command-line front of launch_transform.h (docs/toolkit.md,
// "ascsim-launch-transform").
//
//   ascsim-launch-transform [options] INPUT
//     -o FILE             write the rewritten source to FILE (default: standard output)
//     --header-dir DIR    also write aclrtlaunch_<kernel>.h for every __global__ kernel defined
//                         in INPUT into DIR, and append the launcher definitions to the output
//                         (and the --cce-auto-sync declarations, compiled only under
//                         ASCSIM_CCE_AUTO_SYNC: AutoSyncDeclarations)
//     --fatbin-entries    append the entry of every non-template kernel INPUT defines, which
//                         aclrtBinaryGetFunction finds in an ascendc_fatbin_library binary
//     --display-name NAME the file name #line and messages use (default: INPUT's absolute path)
//     --list-kernels      print the kernels INPUT defines, one per line, and nothing else:
//                         name<TAB>qualified<TAB>template|function<TAB>param;param;...<TAB>line
//                         where a param is kind:type:name, kind is pointer|scalar|other
//                         (split at the first and the last colon: a type may hold "::"); a
//                         kernel defined per #if / #else branch is listed once per branch
//     --kernels FILE      also write that list into FILE (with the rewrite, in one pass: what
//                         ascsim.load() and ascsim_add_kernel_module() scan kernels with)
//     --no-line           leave out the #line directive
//     --version, --help
//
// Exit status: 0 done (notes may have been printed); 1 the input has errors, printed as
// "FILE:LINE:COL: error: ..." on standard error; 2 bad usage or a file that cannot be read or
// written. Files whose content would not change are not rewritten (so builds stay up to date).
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "launch_transform.h"

#ifndef ASCSIM_VERSION_STRING
#define ASCSIM_VERSION_STRING "unknown"
#endif

namespace {

using ascsim::toolkit::KernelParam;
using ascsim::toolkit::KernelSignature;

int Usage(const char* message) {
  if (message != nullptr) std::cerr << "ascsim-launch-transform: " << message << "\n";
  std::cerr << "usage: ascsim-launch-transform [-o FILE] [--header-dir DIR] [--fatbin-entries] "
               "[--display-name NAME] [--list-kernels] [--kernels FILE] [--no-line] INPUT\n";
  return 2;
}

bool ReadFile(const std::string& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  *out = s.str();
  return true;
}

// Writes only when the content differs, so make/ninja see unchanged outputs as unchanged.
bool WriteIfChanged(const std::string& path, const std::string& text) {
  std::string old;
  if (ReadFile(path, &old) && old == text) return true;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return false;
  out << text;
  return static_cast<bool>(out.flush());
}

std::string AbsolutePath(const std::string& path) {
  char resolved[PATH_MAX];
  if (::realpath(path.c_str(), resolved) != nullptr) return resolved;
  return path;
}

const char* KindName(KernelParam::Kind kind) {
  switch (kind) {
    case KernelParam::Kind::kPointer:
      return "pointer";
    case KernelParam::Kind::kScalar:
      return "scalar";
    default:
      return "other";
  }
}

std::string KernelList(const std::vector<KernelSignature>& kernels) {
  std::ostringstream out;
  for (const KernelSignature& k : kernels) {
    out << k.name << '\t' << k.qualified_name << '\t' << (k.is_template ? "template" : "function")
        << '\t';
    for (size_t i = 0; i < k.params.size(); ++i) {
      const KernelParam& p = k.params[i];
      out << (i ? ";" : "") << KindName(p.kind) << ':' << p.type << ':' << p.name;
    }
    out << '\t' << k.line << '\n';
  }
  return out.str();
}

int CountLines(const std::string& text) {
  int lines = 0;
  for (char c : text) lines += c == '\n';
  return lines;
}

}  // namespace

int main(int argc, char** argv) {
  std::string input, output, header_dir, display, kernels_file;
  bool list = false, line_directive = true, fatbin = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&](const char* what) -> const char* {
      if (i + 1 >= argc) return nullptr;
      (void)what;
      return argv[++i];
    };
    if (arg == "-o") {
      const char* v = value("-o");
      if (v == nullptr) return Usage("-o needs a file");
      output = v;
    } else if (arg == "--header-dir") {
      const char* v = value("--header-dir");
      if (v == nullptr) return Usage("--header-dir needs a directory");
      header_dir = v;
    } else if (arg == "--display-name") {
      const char* v = value("--display-name");
      if (v == nullptr) return Usage("--display-name needs a name");
      display = v;
    } else if (arg == "--fatbin-entries") {
      fatbin = true;
    } else if (arg == "--list-kernels") {
      list = true;
    } else if (arg == "--kernels") {
      const char* v = value("--kernels");
      if (v == nullptr) return Usage("--kernels needs a file");
      kernels_file = v;
    } else if (arg == "--no-line") {
      line_directive = false;
    } else if (arg == "--version") {
      std::cout << "ascsim-launch-transform " << ASCSIM_VERSION_STRING << "\n";
      return 0;
    } else if (arg == "-h" || arg == "--help") {
      Usage(nullptr);
      return 0;
    } else if (!arg.empty() && arg[0] == '-' && arg != "-") {
      return Usage(("unknown option " + arg).c_str());
    } else if (input.empty()) {
      input = arg;
    } else {
      return Usage("more than one INPUT");
    }
  }
  if (input.empty()) return Usage("no INPUT");
  std::string source;
  if (!ReadFile(input, &source)) {
    std::cerr << "ascsim-launch-transform: cannot read " << input << "\n";
    return 2;
  }
  ascsim::toolkit::TransformOptions options;
  options.display_path = display.empty() ? AbsolutePath(input) : display;
  options.line_directive = line_directive;
  ascsim::toolkit::TransformResult result = ascsim::toolkit::TransformSource(source, options);
  for (const auto& d : result.diagnostics) {
    std::cerr << ascsim::toolkit::FormatDiagnostic(options.display_path, d) << "\n";
  }
  if (!result.ok()) return 1;

  if (list) {
    std::cout << KernelList(result.kernels);
    return 0;
  }
  if (!kernels_file.empty() && !WriteIfChanged(kernels_file, KernelList(result.kernels))) {
    std::cerr << "ascsim-launch-transform: cannot write " << kernels_file << "\n";
    return 2;
  }

  std::string text = result.output;
  if (!header_dir.empty()) {
    std::set<std::string> written;
    for (const KernelSignature& k : result.kernels) {
      if (k.is_template || !written.insert(k.name).second) continue;  // first #if branch's
      const std::string path = header_dir + "/aclrtlaunch_" + k.name + ".h";
      if (!WriteIfChanged(path, ascsim::toolkit::LauncherHeader(k, options.display_path))) {
        std::cerr << "ascsim-launch-transform: cannot write " << path << "\n";
        return 2;
      }
    }
    const std::string out_name = output.empty() ? "<stdout>" : AbsolutePath(output);
    text += ascsim::toolkit::LauncherDefinitions(result.kernels, out_name, CountLines(text) + 1);
    text += ascsim::toolkit::AutoSyncDeclarations(result.kernels, out_name, CountLines(text) + 1);
  }
  if (fatbin) {
    const std::string out_name = output.empty() ? "<stdout>" : AbsolutePath(output);
    text += ascsim::toolkit::FatbinEntries(result.kernels, out_name, CountLines(text) + 1);
  }
  if (output.empty()) {
    std::cout << text;
    return std::cout.good() ? 0 : 2;
  }
  if (!WriteIfChanged(output, text)) {
    std::cerr << "ascsim-launch-transform: cannot write " << output << "\n";
    return 2;
  }
  return 0;
}
