// Kernel binaries: aclrtBinaryLoadFromFile, aclrtBinaryGetFunction, aclrtKernelArgsInit /
// Append / Finalize, aclrtLaunchKernelWithConfig, aclrtBinaryUnLoad (hicann/runtime
// include/external/acl/acl_rt.h; null handles and unknown names are RT_ERROR_INVALID_VALUE there,
// ACL_ERROR_RT_PARAM_INVALID to the caller: src/runtime/api/impl/api_error.cc, api_impl.cc
// BinaryGetFunctionByName).
//
// On the device the binary is the device object ascendc_fatbin_library merged; here it is the
// shared object the toolkit's ascendc_fatbin_library builds from the same sources, holding each
// non-template kernel's entry `ascsim_fatbin_<kernel>` (ascsim/acl_launch.h FatbinLaunch). An
// argument list keeps a copy of every appended argument, so the caller's variables may change
// after aclrtKernelArgsAppend, as CANN copies them into its argument buffer.
#include <dlfcn.h>

#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "ascsim/acl_launch.h"
#include "ascsim/error.h"
#include "host/acl_state.h"

namespace ascsim::acl {

void FailFatbinArgs(const char* kernel, size_t expected, size_t given) {
  throw InvalidArgument(std::string("aclrtLaunchKernelWithConfig: ") + kernel + " takes " +
                        std::to_string(expected) + " argument" + (expected == 1 ? "" : "s") +
                        ", the argument list holds " + std::to_string(given));
}

void FailFatbinArgSize(const char* kernel, size_t index, size_t expected, size_t given) {
  throw InvalidArgument(std::string("aclrtLaunchKernelWithConfig: argument ") +
                        std::to_string(index) + " of " + kernel + " was appended with " +
                        std::to_string(given) + " bytes; the kernel's parameter has " +
                        std::to_string(expected));
}

namespace {

using Binary = host::AclBinary;
using Function = host::AclFunction;
using ArgList = host::AclArgList;
host::AclState::Binaries& Handles() { return host::AclState::Get().binaries; }

constexpr aclError kInvalid = ACL_ERROR_RT_PARAM_INVALID;

template <class T>
T* Find(std::map<T*, std::unique_ptr<T>>& table, void* handle) {
  auto it = table.find(static_cast<T*>(handle));
  return it == table.end() ? nullptr : it->second.get();
}

}  // namespace
}  // namespace ascsim::acl

using ascsim::acl::ArgList;
using ascsim::acl::Binary;
using ascsim::acl::Find;
using ascsim::acl::Function;
using ascsim::acl::Handles;
using ascsim::acl::kInvalid;
using ascsim::acl::RecordError;

extern "C" {

aclError aclrtBinaryLoadFromFile(const char* binPath, aclrtBinaryLoadOptions* options,
                                 aclrtBinHandle* binHandle) {
  (void)options;  // lazy loading and magic numbers mean nothing for a shared object
  if (binPath == nullptr) return RecordError("aclrtBinaryLoadFromFile: binPath is null", kInvalid);
  if (binHandle == nullptr) {
    return RecordError("aclrtBinaryLoadFromFile: binHandle is null", kInvalid);
  }
  void* dl = ::dlopen(binPath, RTLD_NOW | RTLD_LOCAL);
  if (dl == nullptr) {
    const char* why = ::dlerror();
    return RecordError(std::string("aclrtBinaryLoadFromFile: cannot load ") + binPath + ": " +
                           (why != nullptr ? why : "unknown error") +
                           " (a binary here is what the toolkit's ascendc_fatbin_library builds)",
                       kInvalid);
  }
  auto binary = std::make_unique<Binary>();
  binary->path = binPath;
  binary->dl = dl;
  auto& h = Handles();
  std::lock_guard<std::mutex> lock(h.mu);
  Binary* raw = binary.get();
  h.binaries[raw] = std::move(binary);
  *binHandle = raw;
  return ACL_SUCCESS;
}

aclError aclrtBinaryUnLoad(aclrtBinHandle binHandle) {
  auto& h = Handles();
  std::unique_ptr<Binary> binary;
  {
    std::lock_guard<std::mutex> lock(h.mu);
    auto it = h.binaries.find(static_cast<Binary*>(binHandle));
    if (it == h.binaries.end()) {
      return RecordError("aclrtBinaryUnLoad: not a handle from aclrtBinaryLoadFromFile (unloaded?)",
                         kInvalid);
    }
    binary = std::move(it->second);
    h.binaries.erase(it);
    // Its functions and their argument lists go with it.
    for (auto f = h.functions.begin(); f != h.functions.end();) {
      if (f->second->binary != binary.get()) {
        ++f;
        continue;
      }
      for (auto a = h.arg_lists.begin(); a != h.arg_lists.end();) {
        a = a->second->function == f->first ? h.arg_lists.erase(a) : std::next(a);
      }
      f = h.functions.erase(f);
    }
  }
  // The code stays mapped: a launch issued from it may still be queued on a stream, and the
  // handles are gone, so nothing new can reach it.
  (void)binary;
  return ACL_SUCCESS;
}

aclError aclrtBinaryGetFunction(const aclrtBinHandle binHandle, const char* kernelName,
                                aclrtFuncHandle* funcHandle) {
  if (kernelName == nullptr)
    return RecordError("aclrtBinaryGetFunction: kernelName is null", kInvalid);
  if (funcHandle == nullptr)
    return RecordError("aclrtBinaryGetFunction: funcHandle is null", kInvalid);
  auto& h = Handles();
  std::lock_guard<std::mutex> lock(h.mu);
  Binary* binary = Find(h.binaries, binHandle);
  if (binary == nullptr) {
    return RecordError("aclrtBinaryGetFunction: not a handle from aclrtBinaryLoadFromFile",
                       kInvalid);
  }
  const std::string symbol = std::string(ASCSIM_FATBIN_ENTRY_PREFIX) + kernelName;
  void* entry = ::dlsym(binary->dl, symbol.c_str());
  if (entry == nullptr) {
    return RecordError(std::string("aclrtBinaryGetFunction: ") + binary->path +
                           " has no kernel named " + kernelName +
                           " (a template kernel has an entry only for its instantiations)",
                       kInvalid);
  }
  auto function = std::make_unique<Function>();
  function->binary = binary;
  function->name = kernelName;
  function->entry = reinterpret_cast<ascsim::acl::FatbinEntry>(entry);
  Function* raw = function.get();
  h.functions[raw] = std::move(function);
  *funcHandle = raw;
  return ACL_SUCCESS;
}

aclError aclrtKernelArgsInit(aclrtFuncHandle funcHandle, aclrtArgsHandle* argsHandle) {
  if (argsHandle == nullptr)
    return RecordError("aclrtKernelArgsInit: argsHandle is null", kInvalid);
  auto& h = Handles();
  std::lock_guard<std::mutex> lock(h.mu);
  Function* function = Find(h.functions, funcHandle);
  if (function == nullptr) {
    return RecordError("aclrtKernelArgsInit: not a handle from aclrtBinaryGetFunction", kInvalid);
  }
  auto list = std::make_unique<ArgList>();
  list->function = function;
  ArgList* raw = list.get();
  h.arg_lists[raw] = std::move(list);
  *argsHandle = raw;
  return ACL_SUCCESS;
}

aclError aclrtKernelArgsAppend(aclrtArgsHandle argsHandle, void* param, size_t paramSize,
                               aclrtParamHandle* paramHandle) {
  if (param == nullptr) return RecordError("aclrtKernelArgsAppend: param is null", kInvalid);
  if (paramSize == 0) return RecordError("aclrtKernelArgsAppend: paramSize is 0", kInvalid);
  auto& h = Handles();
  std::lock_guard<std::mutex> lock(h.mu);
  ArgList* list = Find(h.arg_lists, argsHandle);
  if (list == nullptr) {
    return RecordError("aclrtKernelArgsAppend: not a handle from aclrtKernelArgsInit", kInvalid);
  }
  if (list->finalized) {
    return RecordError("aclrtKernelArgsAppend: the argument list of " + list->function->name +
                           " is finalized already",
                       kInvalid);
  }
  const auto* bytes = static_cast<const uint8_t*>(param);
  list->values.emplace_back(bytes, bytes + paramSize);
  // The parameter's handle names its position (1-based, so it is never null).
  if (paramHandle != nullptr) {
    *paramHandle = reinterpret_cast<aclrtParamHandle>(static_cast<uintptr_t>(list->values.size()));
  }
  return ACL_SUCCESS;
}

aclError aclrtKernelArgsFinalize(aclrtArgsHandle argsHandle) {
  auto& h = Handles();
  std::lock_guard<std::mutex> lock(h.mu);
  ArgList* list = Find(h.arg_lists, argsHandle);
  if (list == nullptr) {
    return RecordError("aclrtKernelArgsFinalize: not a handle from aclrtKernelArgsInit", kInvalid);
  }
  list->finalized = true;
  return ACL_SUCCESS;
}

aclError aclrtLaunchKernelWithConfig(aclrtFuncHandle funcHandle, uint32_t numBlocks,
                                     aclrtStream stream, aclrtLaunchKernelCfg* cfg,
                                     aclrtArgsHandle argsHandle, void* reserve) {
  (void)cfg;  // scheduling mode, UB size, timeouts, profiling: no effect on the simulated grid
  (void)reserve;
  ascsim::acl::FatbinEntry entry = nullptr;
  std::vector<const void*> data;
  std::vector<size_t> sizes;
  std::vector<std::vector<uint8_t>> values;
  {
    auto& h = Handles();
    std::lock_guard<std::mutex> lock(h.mu);
    Function* function = Find(h.functions, funcHandle);
    if (function == nullptr) {
      return RecordError("aclrtLaunchKernelWithConfig: not a handle from aclrtBinaryGetFunction",
                         kInvalid);
    }
    ArgList* list = Find(h.arg_lists, argsHandle);
    if (list == nullptr) {
      return RecordError("aclrtLaunchKernelWithConfig: not a handle from aclrtKernelArgsInit",
                         kInvalid);
    }
    if (list->function != function) {
      return RecordError("aclrtLaunchKernelWithConfig: the argument list was made for " +
                             list->function->name + ", not for " + function->name,
                         kInvalid);
    }
    if (!list->finalized) {
      return RecordError("aclrtLaunchKernelWithConfig: the argument list of " + function->name +
                             " is not finalized (aclrtKernelArgsFinalize)",
                         kInvalid);
    }
    entry = function->entry;
    values = list->values;  // the launch copies what it needs; the list may be reused
  }
  for (const auto& v : values) {
    data.push_back(v.data());
    sizes.push_back(v.size());
  }
  ascsim::acl::FatbinArgs args;
  args.data = data.data();
  args.sizes = sizes.data();
  args.count = data.size();
  return static_cast<aclError>(entry(numBlocks, stream, &args));
}

}  // extern "C"
