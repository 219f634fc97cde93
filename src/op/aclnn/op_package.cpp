// OpPackage (op_package.h): an installed operator package, its host library and kernel variants.
#include "op/aclnn/op_package.h"

#include <dirent.h>
#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "ascsim/error.h"
#include "graph/utils/type_utils.h"
#include "op/op_resolve.h"

namespace ascsim::op {
namespace {

bool IsDir(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}
bool IsFile(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}
std::string Dirname(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}
std::string Basename(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}
std::string RealPath(const std::string& path) {
  char buf[PATH_MAX];
  return realpath(path.c_str(), buf) != nullptr ? std::string(buf) : path;
}
std::vector<std::string> List(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = opendir(dir.c_str())) {
    while (const dirent* e = readdir(d)) {
      if (e->d_name[0] != '.') names.push_back(e->d_name);
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

const char kHostLibrary[] =
    "/op_impl/ai_core/tbe/op_tiling/lib/linux/x86_64/libcust_opmaster_rt2.0.so";
const char kKernelDir[] = "/op_impl/ai_core/tbe/kernel/";

}  // namespace

KernelVariant ParseKernelVariant(const std::string& text, const std::string& where) {
  KernelVariant v;
  std::istringstream lines(text);
  std::string line;
  int number = 0;
  bool header = false;
  auto fail = [&](const std::string& why) {
    throw InvalidArgument(where + ":" + std::to_string(number) + ": " + why);
  };
  while (std::getline(lines, line)) {
    ++number;
    const size_t hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    std::string key;
    if (!(words >> key)) continue;
    std::vector<std::string> rest;
    for (std::string w; words >> w;) rest.push_back(w);
    if (!header) {
      if (key != "ascsim-op-kernel" || rest.size() != 1 || rest[0] != "1") {
        fail("not an ascsim kernel-variant file (version 1)");
      }
      header = true;
    } else if (key == "op_type" && rest.size() == 1) {
      v.op_type = rest[0];
    } else if (key == "kernel" && rest.size() == 1) {
      v.kernel_name = rest[0];
    } else if (key == "binary" && rest.size() == 1) {
      v.binary = rest[0];
    } else if ((key == "input" || key == "output") && rest.size() == 3) {
      const ge::DataType t = ge::TypeUtils::SerialStringToDataType(rest[1]);
      if (t == ge::DT_UNDEFINED && rest[1] != "DT_UNDEFINED") fail("unknown data type " + rest[1]);
      const ge::Format f = ge::TypeUtils::SerialStringToFormat(rest[2]);
      const bool in = key == "input";
      (in ? v.input_names : v.output_names).push_back(rest[0]);
      (in ? v.input_types : v.output_types).push_back(t);
      (in ? v.input_formats : v.output_formats).push_back(f);
    } else if (key == "tiling_keys") {
      v.any_tiling_key = rest.size() == 1 && rest[0] == "any";
      if (!v.any_tiling_key) {
        for (const std::string& k : rest) {
          char* end = nullptr;
          const unsigned long long n = std::strtoull(k.c_str(), &end, 0);
          if (end == k.c_str() || *end != '\0') fail("tiling key " + k + " is not a number");
          v.tiling_keys.push_back(n);
        }
      }
    } else {
      fail("unknown line '" + key + "'");
    }
  }
  if (!header) fail("empty");
  if (v.op_type.empty() || v.kernel_name.empty()) fail("op_type or kernel missing");
  return v;
}

std::string FormatKernelVariant(const KernelVariant& v) {
  std::ostringstream out;
  out << "ascsim-op-kernel 1\n";
  out << "op_type " << v.op_type << "\n";
  out << "kernel " << v.kernel_name << "\n";
  if (!v.binary.empty()) out << "binary " << Basename(v.binary) << "\n";
  for (size_t i = 0; i < v.input_names.size(); ++i) {
    out << "input " << v.input_names[i] << " "
        << ge::TypeUtils::DataTypeToSerialString(v.input_types[i]) << " "
        << ge::TypeUtils::FormatToSerialString(v.input_formats[i]) << "\n";
  }
  for (size_t i = 0; i < v.output_names.size(); ++i) {
    out << "output " << v.output_names[i] << " "
        << ge::TypeUtils::DataTypeToSerialString(v.output_types[i]) << " "
        << ge::TypeUtils::FormatToSerialString(v.output_formats[i]) << "\n";
  }
  out << "tiling_keys";
  if (v.any_tiling_key) {
    out << " any";
  } else {
    for (uint64_t k : v.tiling_keys) out << " " << k;
  }
  out << "\n";
  return out.str();
}

namespace {
struct Packages {
  std::mutex mu;
  std::map<std::string, std::unique_ptr<OpPackage>> by_root;
  std::map<const void*, OpPackage*> by_locator;
};
Packages& AllPackages() {
  static Packages* p = new Packages();  // never destroyed: packages' libraries stay loaded
  return *p;
}
}  // namespace

OpPackage& OpPackage::At(const std::string& root_in) {
  const std::string root = RealPath(root_in);
  Packages& p = AllPackages();
  std::lock_guard<std::mutex> lock(p.mu);
  std::unique_ptr<OpPackage>& slot = p.by_root[root];
  if (!slot) {
    if (!IsDir(root + "/op_impl") && !IsDir(root + "/op_api")) {
      p.by_root.erase(root);
      throw InvalidArgument(root +
                            " is not an installed operator package (no op_api/ or op_impl/)");
    }
    std::unique_ptr<OpPackage> pkg(new OpPackage(root));
    pkg->LoadHostLibrary();
    slot = std::move(pkg);
  }
  return *slot;
}

OpPackage& OpPackage::Containing(const void* locator) {
  Packages& p = AllPackages();
  {
    std::lock_guard<std::mutex> lock(p.mu);
    const auto it = p.by_locator.find(locator);
    if (it != p.by_locator.end()) return *it->second;
  }
  Dl_info info{};
  if (dladdr(locator, &info) == 0 || info.dli_fname == nullptr) {
    throw InvalidArgument("the operator API library's own path is unknown (dladdr failed)");
  }
  const std::string lib = RealPath(info.dli_fname);
  const std::string lib_dir = Dirname(lib);
  const std::string api_dir = Dirname(lib_dir);
  if (Basename(lib_dir) != "lib" || Basename(api_dir) != "op_api") {
    throw InvalidArgument(lib +
                          " is not in <vendor>/op_api/lib of an installed operator package "
                          "(install the package's .run, then link its op_api/lib)");
  }
  OpPackage& pkg = At(Dirname(api_dir));
  std::lock_guard<std::mutex> lock(p.mu);
  p.by_locator[locator] = &pkg;
  return pkg;
}

OpPackage& OpPackage::InProcess() {
  static OpPackage* pkg = new OpPackage("");
  return *pkg;
}

void OpPackage::LoadHostLibrary() {
  const std::string lib = root_ + kHostLibrary;
  if (!IsFile(lib)) return;  // a package of kernels only: the operators are registered already
  if (dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL) == nullptr) {
    const char* why = dlerror();
    throw InvalidArgument("cannot load the operator host library " + lib + ": " +
                          (why != nullptr ? why : "dlopen failed"));
  }
}

const std::vector<KernelVariant*>& OpPackage::Variants(const std::string& op_type,
                                                       const std::string& soc_short) {
  std::lock_guard<std::mutex> lock(mu_);
  const std::string key = soc_short + "/" + op_type;
  const auto it = variants_.find(key);
  if (it != variants_.end()) return it->second;
  if (root_.empty()) {
    throw InvalidArgument("no kernel of " + op_type + " for " + soc_short +
                          " is registered in this process");
  }
  // The operator's folder is its op file name (SnakeCase of the type as op_build writes it); a
  // package built by other rules is searched folder by folder.
  const std::string soc_dir = root_ + kKernelDir + soc_short;
  std::vector<std::string> dirs = {soc_dir + "/" + SnakeCase(op_type)};
  for (const std::string& d : List(soc_dir)) {
    if (d != SnakeCase(op_type)) dirs.push_back(soc_dir + "/" + d);
  }
  std::vector<KernelVariant*> found;
  for (const std::string& dir : dirs) {
    for (const std::string& name : List(dir)) {
      if (name.size() < 7 || name.compare(name.size() - 7, 7, ".ascsim") != 0) continue;
      std::ifstream in(dir + "/" + name);
      std::stringstream text;
      text << in.rdbuf();
      KernelVariant v = ParseKernelVariant(text.str(), dir + "/" + name);
      if (v.op_type != op_type) continue;
      v.binary =
          dir + "/" + (v.binary.empty() ? name.substr(0, name.size() - 7) + ".so" : v.binary);
      storage_.emplace_back(new KernelVariant(v));
      found.push_back(storage_.back().get());
    }
    if (!found.empty()) break;
  }
  if (found.empty()) {
    std::string socs;
    for (const std::string& s : List(root_ + kKernelDir)) {
      if (s != "config" && s != soc_short && IsDir(root_ + kKernelDir + s)) {
        socs += (socs.empty() ? "" : ", ") + s;
      }
    }
    throw InvalidArgument("the operator package " + root_ + " has no kernel of " + op_type +
                          " for " + soc_short + " (it has kernels for " +
                          (socs.empty() ? std::string("no SoC") : socs) +
                          "; ASCEND_COMPUTE_UNIT in CMakePresets.json names the SoCs built)");
  }
  return variants_[key] = found;
}

const AscsimOpKernel* OpPackage::Load(KernelVariant& variant) {
  std::lock_guard<std::mutex> lock(mu_);
  if (variant.entry != nullptr) return variant.entry;
  void* handle = dlopen(variant.binary.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    const char* why = dlerror();
    throw InvalidArgument("cannot load the kernel " + variant.binary + ": " +
                          (why != nullptr ? why : "dlopen failed"));
  }
  const auto get = reinterpret_cast<AscsimOpKernelFunc>(dlsym(handle, "ascsim_op_kernel"));
  const AscsimOpKernel* entry = get != nullptr ? get() : nullptr;
  if (entry == nullptr || entry->abi != ASCSIM_OP_KERNEL_ABI) {
    throw InvalidArgument(variant.binary +
                          " is not a kernel built by this toolkit's opc (no ascsim_op_kernel "
                          "entry of ABI " +
                          std::to_string(ASCSIM_OP_KERNEL_ABI) + "); rebuild the package");
  }
  variant.entry = entry;
  return entry;
}

void OpPackage::AddVariant(const std::string& soc_short, const KernelVariant& variant) {
  std::lock_guard<std::mutex> lock(mu_);
  storage_.emplace_back(new KernelVariant(variant));
  variants_[soc_short + "/" + variant.op_type].push_back(storage_.back().get());
}

}  // namespace ascsim::op
