// An installed custom-operator package (vendors/<vendor>/ as the build's .run lays it out) as the
// aclnn runtime uses it: the host library that registers the operators (OP_ADD, the TilingFunc,
// the tiling data classes), loaded once, and the compiled kernel variants, one per data-type
// combination, each described by a variant file the toolkit's opc stand-in writes next to its
// library:
//
//   op_impl/ai_core/tbe/op_tiling/lib/linux/x86_64/libcust_opmaster_rt2.0.so
//   op_impl/ai_core/tbe/kernel/<soc>/<op_file>/<OpType>_<n>.so      (the kernel variant)
//   op_impl/ai_core/tbe/kernel/<soc>/<op_file>/<OpType>_<n>.ascsim  (what it was compiled for)
//
// A variant file is lines of words (`#` starts a comment):
//
//   ascsim-op-kernel 1
//   op_type AddCustom
//   kernel add_custom
//   binary AddCustom_0.so
//   input x DT_FLOAT16 ND          (one line per IR input, in order)
//   output z DT_FLOAT16 ND
//   tiling_keys 1 2                (the TILING_KEY_IS keys of the source; "any" when unchecked)
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ascsim/op_kernel_abi.h"
#include "graph/types.h"

namespace ascsim::op {

struct KernelVariant {
  std::string op_type;
  std::string kernel_name;
  std::string binary;  // absolute path ("" for a variant registered in process)
  std::vector<std::string> input_names;
  std::vector<ge::DataType> input_types;
  std::vector<ge::Format> input_formats;
  std::vector<std::string> output_names;
  std::vector<ge::DataType> output_types;
  std::vector<ge::Format> output_formats;
  bool any_tiling_key = true;
  std::vector<uint64_t> tiling_keys;
  const AscsimOpKernel* entry = nullptr;  // set once the binary is loaded
};

// Parses a variant file's text; throws InvalidArgument naming `where` and the line.
KernelVariant ParseKernelVariant(const std::string& text, const std::string& where);
// The text ParseKernelVariant reads (the toolkit's opc writes it).
std::string FormatKernelVariant(const KernelVariant& v);

class OpPackage {
 public:
  // The package whose vendor directory is `root` (made and loaded once per root; the host library
  // is loaded then). Throws InvalidArgument when the directory is not an operator package.
  static OpPackage& At(const std::string& root);
  // The package that holds the shared library containing address `locator` (the generated
  // libcust_opapi.so: <root>/op_api/lib/libcust_opapi.so).
  static OpPackage& Containing(const void* locator);
  // The variants registered in this process (tests, programs that link a kernel in): no host
  // library, no directory.
  static OpPackage& InProcess();

  const std::string& root() const { return root_; }

  // The variants of `op_type` for SoC `soc_short`, their binaries not yet loaded. Throws
  // InvalidArgument when the package has no kernels of the operator for that SoC (naming the SoCs
  // it has them for).
  const std::vector<KernelVariant*>& Variants(const std::string& op_type,
                                              const std::string& soc_short);
  // Loads the variant's binary (once) and returns its entry.
  const AscsimOpKernel* Load(KernelVariant& variant);

  // InProcess(): adds a variant whose entry is given.
  void AddVariant(const std::string& soc_short, const KernelVariant& variant);

 private:
  explicit OpPackage(std::string root) : root_(std::move(root)) {}
  void LoadHostLibrary();

  std::string root_;
  std::mutex mu_;
  std::map<std::string, std::vector<KernelVariant*>> variants_;  // by "<soc>/<op_type>"
  std::vector<std::unique_ptr<KernelVariant>> storage_;
};

}  // namespace ascsim::op
