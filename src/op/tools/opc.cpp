// opc (op_build.h): one kernel variant of a custom operator, compiled with the host C++ compiler
// against ascsim. Command line as CANN's scripts call opc (cmake/util/ascendc_bin_param_build.py):
//
//   opc <adapter.py | kernel.cpp> --main_func=<kernel> --input_param=<param.json>
//       --soc_version=<SoC> --output=<dir> [--tiling_key=1,2] [--op_debug_config=...] [...]
//
// plus --ascsim-host-lib=<library> (the op_host library; else found beside the build tree, then
// in the installed vendors), and for builds outside an installed toolkit (ascsim.load_op)
// --ascsim-include=<dir> (repeatable) / --ascsim-libdir=<dir> (default: the toolkit's include/ and
// lib/) and --ascsim-log=<file> (the compiler's output). The variant is compiled as CANN's kernel
// compile does it (asc-devkit compile_op.py): one translation unit per data-type combination with
// -DDTYPE_<IO>=<type> -DORIG_DTYPE_<IO>=DT_<TYPE> -DFORMAT_<IO>=FORMAT_<FMT>, the tiling structs
// force-included, and an entry that sets the system workspace before calling the kernel.
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <iostream>
#include <regex>
#include <set>
#include <sstream>

#include "ascsim/error.h"
#include "ascsim/op_tools.h"
#include "graph/utils/type_utils.h"
#include "op/aclnn/op_package.h"
#include "op/framework.h"
#include "op/tools/json.h"
#include "op/tools/kernel_tiling_header.h"
#include "op/tools/op_build.h"

extern char** environ;

#ifndef ASCSIM_OPC_DEFAULT_CXX
#define ASCSIM_OPC_DEFAULT_CXX "g++"
#endif

namespace ascsim::op {
namespace {

bool Exists(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0;
}
std::string Dirname(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}
std::string Absolute(const std::string& path) {
  char buf[PATH_MAX];
  return realpath(path.c_str(), buf) != nullptr ? std::string(buf) : path;
}
std::string Read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InvalidArgument("cannot read " + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
void Write(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) throw InvalidArgument("cannot write " + path);
}
std::string Upper(const std::string& s) {
  std::string out;
  for (char c : s) out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

// <P> from <P>/bin/opc.
std::string ToolkitRoot() {
  char self[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  std::string path = n > 0 ? std::string(self, static_cast<size_t>(n)) : std::string(".");
  return Dirname(Dirname(path));
}

// The kernel source: BUILD_KERNEL_SRC, the .cpp given, or the one the adapter names.
std::string KernelSource(const std::string& src, const std::string& main_func) {
  const char* env = std::getenv("BUILD_KERNEL_SRC");
  if (env != nullptr && *env != '\0' && Exists(env)) return Absolute(env);
  if (src.size() > 4 && src.compare(src.size() - 4, 4, ".cpp") == 0) return Absolute(src);
  const std::string dir = Dirname(src);
  if (Exists(src)) {
    // CANN's adapter (ascendc_impl_build.py) names it: ascendc_src_file = "add_custom.cpp".
    std::smatch m;
    const std::string py = Read(src);
    if (std::regex_search(py, m, std::regex("ascendc_src_file\\s*=\\s*\"([^\"]+)\""))) {
      if (Exists(dir + "/" + m[1].str())) return Absolute(dir + "/" + m[1].str());
    }
  }
  if (Exists(dir + "/" + main_func + ".cpp")) return Absolute(dir + "/" + main_func + ".cpp");
  throw InvalidArgument("no kernel source for " + main_func + " beside " + src);
}

bool TryHostLibrary(const std::string& path, const std::string& op_type) {
  if (!Exists(path)) return false;
  if (dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL) == nullptr) {
    const char* why = dlerror();
    std::cerr << "opc: cannot load " << path << ": " << (why ? why : "dlopen failed") << "\n";
    return false;
  }
  OpFramework::Get().TakeErrors();
  return OpFramework::Get().HasOpDef(op_type);
}

// The op_host library that registers `op_type`.
std::string LoadHostLibrary(const std::string& given, const std::string& op_type,
                            const std::string& output) {
  std::vector<std::string> candidates;
  if (!given.empty()) candidates.push_back(given);
  if (const char* env = std::getenv("ASCSIM_OP_HOST_LIB")) candidates.push_back(env);
  // The build tree: the directory holding CMakeCache.txt above the output.
  for (std::string dir = Absolute(output); dir.size() > 1; dir = Dirname(dir)) {
    if (Exists(dir + "/CMakeCache.txt")) {
      candidates.push_back(dir + "/autogen/libascend_all_ops.so");
      candidates.push_back(dir + "/op_host/libcust_opmaster_rt2.0.so");
      break;
    }
  }
  const std::string rel =
      "/op_impl/ai_core/tbe/op_tiling/lib/linux/x86_64/libcust_opmaster_rt2.0.so";
  if (const char* custom = std::getenv("ASCEND_CUSTOM_OPP_PATH")) {
    std::istringstream paths(custom);
    for (std::string p; std::getline(paths, p, ':');) {
      if (!p.empty()) candidates.push_back(p + rel);
    }
  }
  if (const char* opp = std::getenv("ASCEND_OPP_PATH")) {
    std::istringstream vendors(Exists(std::string(opp) + "/vendors/config.ini")
                                   ? Read(std::string(opp) + "/vendors/config.ini")
                                   : std::string());
    for (std::string line; std::getline(vendors, line);) {
      const size_t eq = line.find('=');
      if (line.rfind("load_priority", 0) != 0 || eq == std::string::npos) continue;
      std::istringstream names(line.substr(eq + 1));
      for (std::string v; std::getline(names, v, ',');) {
        candidates.push_back(std::string(opp) + "/vendors/" + v + rel);
      }
    }
  }
  for (const std::string& c : candidates) {
    if (OpFramework::Get().HasOpDef(op_type)) return c;
    if (TryHostLibrary(c, op_type)) return c;
  }
  std::string tried;
  for (const std::string& c : candidates) tried += "\n  " + c;
  throw InvalidArgument("no op_host library registering " + op_type +
                        " (give --ascsim-host-lib=<lib>); looked at:" + tried);
}

// The tiling keys of TILING_KEY_IS / TILING_KEY_LIST in the kernel source and the headers it
// includes from its own folder; empty (any key) when a key is not a literal or the kernel uses
// template tiling keys.
std::vector<uint64_t> TilingKeys(const std::string& source, bool* any) {
  std::set<uint64_t> keys;
  std::set<std::string> seen;
  std::vector<std::string> todo = {source};
  *any = false;
  bool found = false;
  while (!todo.empty()) {
    const std::string file = todo.back();
    todo.pop_back();
    if (!seen.insert(file).second || !Exists(file)) continue;
    const std::string text = Read(file);
    if (text.find("ASCENDC_TPL_") != std::string::npos ||
        text.find("GET_TPL_TILING_KEY") != std::string::npos) {
      *any = true;
    }
    static const std::regex is("TILING_KEY_(IS|LIST)\\s*\\(([^)]*)\\)");
    for (std::sregex_iterator it(text.begin(), text.end(), is), end; it != end; ++it) {
      std::istringstream args((*it)[2].str());
      for (std::string a; std::getline(args, a, ',');) {
        a.erase(0, a.find_first_not_of(" \t\n"));
        a.erase(a.find_last_not_of(" \t\nuUlL") + 1);
        char* endp = nullptr;
        const unsigned long long k = std::strtoull(a.c_str(), &endp, 0);
        if (a.empty() || *endp != '\0') {
          *any = true;
        } else {
          keys.insert(k);
          found = true;
        }
      }
    }
    static const std::regex inc("#\\s*include\\s*\"([^\"]+)\"");
    for (std::sregex_iterator it(text.begin(), text.end(), inc), end; it != end; ++it) {
      todo.push_back(Dirname(file) + "/" + (*it)[1].str());
    }
  }
  if (!found) *any = true;
  return std::vector<uint64_t>(keys.begin(), keys.end());
}

// Tiling template programming (Tiling模板编程, template_argument.h): the kernel is a function
// template whose arguments the tiling key encodes. The header holding ASCENDC_TPL_ARGS_DECL, among
// the kernel source and the headers it includes from its own folder; empty when there is none or
// `main_func` is not a template.
std::string TemplateTilingHeader(const std::string& source, const std::string& main_func) {
  const std::regex tpl_kernel(
      "template\\s*<[^{;]*>\\s*(?:(?:extern\\s*\"C\"|__global__|"
      "__aicore__|inline|static)\\s*)*void\\s+" +
      main_func + "\\s*\\(");
  if (!std::regex_search(Read(source), tpl_kernel)) return {};
  std::set<std::string> seen;
  std::vector<std::string> todo = {source};
  static const std::regex decl("ASCENDC_TPL_ARGS_DECL\\s*\\(\\s*[A-Za-z_]");
  static const std::regex inc("#\\s*include\\s*\"([^\"]+)\"");
  while (!todo.empty()) {
    const std::string file = todo.back();
    todo.pop_back();
    if (!seen.insert(file).second || !Exists(file)) continue;
    const std::string text = Read(file);
    if (std::regex_search(text, decl)) return file;
    for (std::sregex_iterator it(text.begin(), text.end(), inc), end; it != end; ++it) {
      todo.push_back(Dirname(file) + "/" + (*it)[1].str());
    }
  }
  return {};
}

// One tiling key of a template kernel and the template arguments it stands for.
struct TemplateKey {
  uint64_t key = 0;
  std::vector<std::string> args;
};

// The simulated profile a kernel for `soc_version` compiles for (ascsim/npu_arch.h names).
std::string ProfileFor(const std::string& soc_version) {
  const std::string s = ShortSocName(soc_version);
  if (s == "ascend910b" || s == "ascend910_93") return "Ascend910B1";
  if (s == "ascend910") return "Ascend910A";
  return "Ascend310P3";
}

// Runs `argv`; its output goes to `log` (appended) when given, else to opc's own.
int Run(const std::vector<std::string>& argv, const std::string& log = std::string()) {
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (!log.empty()) {
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
  }
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    std::cerr << "opc: cannot run " << argv[0] << ": " << std::strerror(spawned) << "\n";
    return 127;
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

struct Param {
  std::string name;
  ge::DataType type = ge::DT_UNDEFINED;
  ge::Format format = ge::FORMAT_ND;
};

std::vector<Param> Params(const Json& list, const std::string& where) {
  std::vector<Param> out;
  for (const Json& item : list.items()) {
    const Json& p = item.kind() == Json::Kind::kArray
                        ? (item.items().empty() ? Json() : item.items()[0])
                        : item;
    if (p.is_null()) continue;
    Param param;
    param.name = p["name"].as_string();
    param.type = FromIniTypeName(p["dtype"].as_string());
    if (param.type == ge::DT_UNDEFINED) {
      throw InvalidArgument(where + ": unknown dtype " + p["dtype"].as_string() + " of " +
                            param.name);
    }
    const std::string fmt = p["format"].as_string();
    param.format = fmt.empty() ? ge::FORMAT_ND : ge::TypeUtils::SerialStringToFormat(fmt);
    out.push_back(param);
  }
  return out;
}

}  // namespace

int OpcMain(int argc, char** argv) {
  std::string src, main_func, input_param, soc_version, output, host_lib, tiling_key_opt, lib_dir,
      log;
  std::string launch_transform;  // default: <P>/bin/ascsim-launch-transform
  std::vector<std::string> include_dirs;
  bool debug = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](const char* opt) -> bool {
      const std::string o = std::string(opt) + "=";
      return a.rfind(o, 0) == 0;
    };
    auto rest = [&]() { return a.substr(a.find('=') + 1); };
    if (value("--main_func")) {
      main_func = rest();
    } else if (value("--input_param")) {
      input_param = rest();
    } else if (value("--soc_version")) {
      soc_version = rest();
    } else if (value("--output")) {
      output = rest();
    } else if (value("--ascsim-host-lib")) {
      host_lib = rest();
    } else if (value("--ascsim-include")) {
      include_dirs.push_back(rest());
    } else if (value("--ascsim-libdir")) {
      lib_dir = rest();
    } else if (value("--ascsim-log")) {
      log = rest();
    } else if (value("--ascsim-launch-transform")) {
      launch_transform = rest();
    } else if (value("--tiling_key")) {
      tiling_key_opt = rest();
    } else if (value("--op_debug_config")) {
      debug = rest().find("oom") != std::string::npos || rest().find("dump") != std::string::npos ||
              rest().find("-g") != std::string::npos;
    } else if (a.rfind("--", 0) == 0) {
      // --impl_mode, --simplified_key_mode, --op_mode, ...: nothing to do for a simulated build.
    } else if (src.empty()) {
      src = a;
    }
  }
  if (src.empty() || main_func.empty() || input_param.empty() || output.empty()) {
    std::cerr << "usage: opc <adapter.py | kernel.cpp> --main_func=<kernel> "
                 "--input_param=<param.json> --soc_version=<SoC> --output=<dir> "
                 "[--ascsim-host-lib=<op_host library>]\n";
    return 2;
  }
  std::string tmp;
  try {
    const Json param = Json::Parse(Read(input_param), input_param);
    const std::string op_type = param["op_type"].as_string();
    if (param["op_list"].items().empty()) throw InvalidArgument(input_param + ": empty op_list");
    const Json& node = param["op_list"].items()[0];
    const std::string bin = node["bin_filename"].as_string();
    const std::vector<Param> inputs = Params(node["inputs"], input_param);
    const std::vector<Param> outputs = Params(node["outputs"], input_param);
    const std::string kernel = KernelSource(src, main_func);
    LoadHostLibrary(host_lib, op_type, output);
    const std::string tiling = KernelTilingHeader(op_type);

    char dir_template[] = "/tmp/ascsim-opc-XXXXXX";
    if (mkdtemp(dir_template) == nullptr) throw InvalidArgument("cannot make a temporary folder");
    tmp = dir_template;
    Write(tmp + "/tiling.h", tiling.empty() ? "#pragma once\n" : tiling);
    // A kernel file with a `<<<>>>` launch wrapper (the older samples' `<kernel>_do`, outside
    // `#ifndef __CCE_KT_TEST__`, which bisheng compiles for the device) is compiled as ascsim
    // compiles launch syntax: rewritten by the toolkit's ascsim-launch-transform, with #line
    // so that errors name the original file.
    std::string compiled = kernel;
    if (Read(kernel).find("<<<") != std::string::npos) {
      if (launch_transform.empty()) {
        launch_transform = ToolkitRoot() + "/bin/ascsim-launch-transform";
      }
      if (!Exists(launch_transform)) {
        throw InvalidArgument(kernel + " uses the <<<>>> launch syntax, which needs " +
                              launch_transform + " (give --ascsim-launch-transform=<tool>)");
      }
      compiled = tmp + "/" + kernel.substr(kernel.find_last_of('/') + 1);
      const std::string rewrite_log = tmp + "/launch_transform.log";
      if (Run({"sh", "-c", "\"$0\" --display-name \"$1\" \"$1\" > \"$2\" 2> \"$3\"",
               launch_transform, kernel, compiled, rewrite_log}) != 0) {
        std::string why = Exists(rewrite_log) ? Read(rewrite_log) : std::string();
        while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
        throw InvalidArgument("rewriting the <<<>>> launches of " + kernel + " failed: " + why);
      }
    }
    mkdir(output.c_str(), 0755);

    const std::string root = ToolkitRoot();
    const char* cxx_env = std::getenv("ASCSIM_CXX");
    const std::string cxx = cxx_env != nullptr && *cxx_env ? cxx_env : ASCSIM_OPC_DEFAULT_CXX;
    if (include_dirs.empty()) include_dirs.push_back(root + "/include");
    if (lib_dir.empty()) lib_dir = root + "/lib";

    // A template kernel: its tiling keys and their template arguments are those the header's
    // ASCENDC_TPL_SEL selects, listed by the header itself compiled for the host (as CANN's op
    // compiler decodes the selections, asc-devkit asc_op_compiler/template_tiling.py); every key
    // becomes one instantiation `main_func<args...>` (CANN passes the arguments as these numbers,
    // ascendc_compile_gen_code.py TEMPLATE_PARAMS) behind one entry that dispatches on the key.
    const std::string tpl_header = TemplateTilingHeader(kernel, main_func);
    std::vector<TemplateKey> tpl_keys;
    if (!tpl_header.empty()) {
      Write(tmp + "/tpl_keys.cpp",
            "#include \"" + tpl_header +
                "\"\n#include <cstdio>\nint main() {\n  std::string why;\n"
                "  const auto keys = ascsim::tpl::EnumerateTilingKeys(g_tilingDeclareParams, "
                "g_tilingSelectParams, &why);\n"
                "  if (!why.empty()) { std::fprintf(stderr, \"%s\\n\", why.c_str()); return 1; }\n"
                "  for (const auto& k : keys) {\n"
                "    std::printf(\"%llu\", static_cast<unsigned long long>(k.tilingKey));\n"
                "    for (uint64_t a : k.args) std::printf(\" %llu\", "
                "static_cast<unsigned long long>(a));\n"
                "    std::printf(\"\\n\");\n  }\n  return 0;\n}\n");
      std::vector<std::string> list_cmd = {cxx, "-std=c++17", "-O0", "-w", "-I" + Dirname(kernel)};
      for (const std::string& dir : include_dirs) list_cmd.push_back("-I" + dir);
      list_cmd.insert(list_cmd.end(), {"-o", tmp + "/tpl_keys", tmp + "/tpl_keys.cpp"});
      const std::string list_log = tmp + "/tpl_keys.log";
      if (Run(list_cmd, list_log) != 0 ||
          Run({"sh", "-c", "\"$0\" > \"$1\" 2>> \"$2\"", tmp + "/tpl_keys", tmp + "/tpl_keys.txt",
               list_log}) != 0) {
        std::string why = Exists(list_log) ? Read(list_log) : std::string();
        while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
        throw InvalidArgument("listing the tiling keys of " + tpl_header + " failed: " + why);
      }
      std::istringstream lines(Read(tmp + "/tpl_keys.txt"));
      for (std::string line; std::getline(lines, line);) {
        std::istringstream fields(line);
        TemplateKey k;
        if (!(fields >> k.key)) continue;
        for (std::string a; fields >> a;) k.args.push_back(a);
        tpl_keys.push_back(k);
      }
      if (tpl_keys.empty()) {
        throw InvalidArgument(tpl_header + ": ASCENDC_TPL_SEL selects no tiling key for " +
                              main_func);
      }
    }
    std::string entry = "#include \"" + compiled + "\"\n#include \"ascsim/op_kernel_entry.h\"\n";
    if (tpl_keys.empty()) {
      entry += "ASCSIM_OP_KERNEL_ENTRY(" + main_func + ")\n";
    } else {
      auto instance = [&](const TemplateKey& k) {
        std::string s = main_func + "<";
        for (size_t i = 0; i < k.args.size(); ++i) s += (i ? ", " : "") + k.args[i];
        return s + ">";
      };
      entry +=
          "static int ascsim_tpl_launch_(void* const* args, uint32_t num_args, "
          "uint32_t block_dim, uint64_t tiling_key, void* stream) {\n  switch (tiling_key) {\n";
      for (const TemplateKey& k : tpl_keys) {
        entry += "    case " + std::to_string(k.key) +
                 "ULL:\n      return ::ascsim::op_kernel::Launch<&" + instance(k) +
                 ">(args, num_args, block_dim, tiling_key, stream, \"" + main_func + "\");\n";
      }
      entry +=
          "  }\n  return ACL_ERROR_INVALID_PARAM;\n}\n"
          "ASCSIM_OP_KERNEL_EXPORT_LAUNCH(" +
          main_func + ", (&" + instance(tpl_keys[0]) + "), ascsim_tpl_launch_)\n";
    }
    Write(tmp + "/entry.cpp", entry);

    std::vector<std::string> cmd = {
        cxx, "-std=c++17", debug ? "-O0" : "-O1", "-fPIC", "-shared", "-w", "-fvisibility=hidden",
        "-DASCSIM_SOC=" + ProfileFor(soc_version),
        // The device compile's ASSERT is empty (asc-devkit impl/basic_api/kernel_macros.h: only
        // ASCENDC_CPU_DEBUG builds assert), and kernels rely on it: `x = y ASSERT(y != 0);`.
        "-DASSERT(x)=",
        // As CANN's kernel compile (asc-devkit compile_op.py): template_argument.h in its device
        // form, the declarations gone and TypeFromId defined.
        "-DASCENDC_TPL_KERNEL"};
    if (debug) cmd.push_back("-g");
    std::set<std::string> defined;
    for (const std::vector<Param>* group : {&inputs, &outputs}) {
      for (const Param& p : *group) {
        const std::string n = Upper(p.name);
        if (!defined.insert(n).second) continue;
        cmd.push_back("-DDTYPE_" + n + "=" + KernelCppType(p.type));
        cmd.push_back("-DORIG_DTYPE_" + n + "=" + ge::TypeUtils::DataTypeToSerialString(p.type));
        cmd.push_back("-DFORMAT_" + n + "=FORMAT_" + ge::TypeUtils::FormatToSerialString(p.format));
      }
    }
    cmd.insert(cmd.end(), {"-include", tmp + "/tiling.h", "-I" + Dirname(kernel)});
    for (const std::string& dir : include_dirs) cmd.push_back("-I" + dir);
    cmd.insert(cmd.end(), {"-o", output + "/" + bin + ".o", tmp + "/entry.cpp", "-L" + lib_dir,
                           "-lascsim", "-Wl,-rpath," + lib_dir, "-Wl,-Bsymbolic"});
    if (std::getenv("ASCSIM_OPC_VERBOSE") != nullptr) {
      for (const std::string& c : cmd) std::cerr << c << " ";
      std::cerr << "\n";
    }
    const int rc = Run(cmd, log);
    if (rc != 0) {
      std::cerr << "opc: compiling " << kernel << " for " << op_type << " (" << bin << ") failed\n";
      Run({"rm", "-rf", tmp});
      return 1;
    }
    Run({"rm", "-rf", tmp});
    tmp.clear();

    // The variant file of the runtime.
    KernelVariant v;
    v.op_type = op_type;
    v.kernel_name = main_func;
    v.binary = bin + ".o";
    for (const Param& p : inputs) {
      v.input_names.push_back(p.name);
      v.input_types.push_back(p.type);
      v.input_formats.push_back(p.format);
    }
    for (const Param& p : outputs) {
      v.output_names.push_back(p.name);
      v.output_types.push_back(p.type);
      v.output_formats.push_back(p.format);
    }
    bool any = false;
    v.tiling_keys = TilingKeys(kernel, &any);
    v.any_tiling_key = any;
    if (!tpl_keys.empty()) {
      v.tiling_keys.clear();
      for (const TemplateKey& k : tpl_keys) v.tiling_keys.push_back(k.key);
      v.any_tiling_key = false;
    }
    if (!tiling_key_opt.empty()) {
      std::string keys = tiling_key_opt;
      keys.erase(std::remove(keys.begin(), keys.end(), '"'), keys.end());
      std::istringstream list(keys);
      v.tiling_keys.clear();
      for (std::string k; std::getline(list, k, ',');) {
        const uint64_t key = std::stoull(k);
        // A template kernel has an instantiation only for the keys its ASCENDC_TPL_SEL selects.
        if (tpl_keys.empty() || std::any_of(tpl_keys.begin(), tpl_keys.end(),
                                            [&](const TemplateKey& t) { return t.key == key; })) {
          v.tiling_keys.push_back(key);
        }
      }
      v.any_tiling_key = false;
    }
    Write(output + "/" + bin + ".ascsim", FormatKernelVariant(v));

    // The description CANN's insert_simplified_keys.py / ascendc_ops_config.py read.
    Json desc = Json::Object();
    desc.Set("binFileName", Json::String(bin));
    desc.Set("binFileSuffix", Json::String(".o"));
    desc.Set("blockDim", Json::Number(-1));
    desc.Set("coreType", Json::String("MIX"));
    desc.Set("kernelName", Json::String(bin));
    desc.Set("magic", Json::String("ASCSIM_HOST_SHARED_LIBRARY"));
    Json support = Json::Object();
    support.Set("implMode", Json::String("high_performance"));
    support.Set("int64Mode", Json::Bool(false));
    support.Set("simplifiedKeyMode", Json::Number(0));
    support.Set("inputs", node["inputs"]);
    support.Set("outputs", node["outputs"]);
    if (!node["attrs"].is_null()) support.Set("attrs", node["attrs"]);
    support.Set("opMode", Json::String("dynamic"));
    support.Set("optionalInputMode", Json::String("gen_placeholder"));
    support.Set("deterministic", Json::String("ignore"));
    desc.Set("supportInfo", support);
    const std::string out_abs = Absolute(output);
    desc.Set("filePath",
             Json::String(ShortSocName(soc_version) + "/bin/" +
                          out_abs.substr(out_abs.find_last_of('/') + 1) + "/" + bin + ".json"));
    Write(output + "/" + bin + ".json", desc.Dump());
    std::cout << "opc: " << op_type << " " << bin << " -> " << output << "/" << bin << ".o\n";
    return 0;
  } catch (const std::exception& e) {
    if (!tmp.empty()) Run({"rm", "-rf", tmp});
    std::cerr << "opc: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace ascsim::op

extern "C" int ascsim_opc_main(int argc, char** argv) { return ascsim::op::OpcMain(argc, argv); }
