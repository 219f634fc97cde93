// The operator build tools of a custom-operator project, as CANN's op_build and opc are used by
// the project's CMake (cmake/func.cmake: `op_build <ops library> <autogen dir>`; the scripts
// ascendc_bin_param_build.py writes: `opc <adapter.py> --main_func=... --input_param=...
// --soc_version=... --output=...`):
//
//   op_build  loads the library the op_host sources were compiled into, walks the operators it
//             registered (OP_ADD) and writes, per operator, aclnn_<op>.h / aclnn_<op>.cpp (the
//             two-phase single-operator API over the ascsim aclnn runtime), op_proto.h/.cc, and per
//             SoC of its AddConfig aic-<soc>-ops-info.ini (the file CANN's scripts read); for
//             ascsim's own skeleton also one parameter file per kernel variant and
//             ascsim_kernels.cmake listing them.
//   opc       compiles one kernel variant (one data-type combination) with the host C++ compiler
//             against ascsim: -DDTYPE_<IO>/ORIG_DTYPE_<IO>/FORMAT_<IO>, the kernel tiling structs
//             generated from the operator's BEGIN_TILING_DATA_DEF classes, and an entry
//             (ascsim/op_kernel_entry.h) the aclnn runtime launches; writes <bin>.o (the variant, a
//             shared library), <bin>.json (the description CANN's scripts post-process) and
//             <bin>.ascsim (the variant file the runtime reads, op_package.h).
#pragma once

#include <string>
#include <vector>

#include "graph/types.h"
#include "op/op_resolve.h"

namespace ascsim::op {

// ---- naming (CANN op_build's rules for the generated API) ----

// "num_rows" -> "numRows".
std::string CamelCase(const std::string& snake);

// One parameter of aclnn<Op>GetWorkspaceSize, in order: inputs, attributes, outputs (an output
// whose name is also an input's is that input's "Ref" parameter and is not repeated).
struct AclnnParam {
  std::string name;    // "x", "biasOptional", "alpha", "out", "yRef"
  std::string c_type;  // "const aclTensor *", "int64_t", "const aclIntArray *"
  int kind = 0;        // AscsimAclnnArgKind
  enum class Role { kInput, kAttr, kOutput } role = Role::kInput;
  size_t index = 0;  // into the ResolvedOp's inputs, attrs or outputs
  bool ref = false;  // an input that is also an output
};
std::vector<AclnnParam> AclnnParams(const ResolvedOp& op);

// aclnn_<snake>.h and .cpp.
std::string AclnnHeader(const ResolvedOp& op);
std::string AclnnSource(const ResolvedOp& op);

// One [OpType] section of aic-<soc>-ops-info.ini.
std::string OpsInfoSection(const ResolvedOp& op);

// The ops-info data type names ("float16", "float32", "bfloat16", ...) and back
// (DT_UNDEFINED when unknown).
std::string IniTypeName(ge::DataType t);
ge::DataType FromIniTypeName(const std::string& name);
// The C++ type DTYPE_<IO> names for a data type ("half", "float", "bfloat16_t", "int8_t").
std::string KernelCppType(ge::DataType t);

// The kernel variants of one operator on one SoC: the distinct combinations of the resolved
// prototype, with their parameter files (CANN's *_param.json layout).
struct VariantSpec {
  std::string bin_name;  // "AddCustom_0"
  std::string param_json;
};
std::vector<VariantSpec> KernelVariantSpecs(const ResolvedOp& op, const std::string& soc_short);

// The SoC name opc's --soc_version takes for a short name (ascend910b -> Ascend910B1), as CANN's
// const_var.SOC_MAP_EXT.
std::string FullSocName(const std::string& soc_short);

// The tools' entry points (argv as the programs get it); 0 on success, else a message on stderr.
int OpBuildMain(int argc, char** argv);
int OpcMain(int argc, char** argv);

}  // namespace ascsim::op
