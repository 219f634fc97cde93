// ascsim-launch-transform: the source rewrite that lets g++ compile Ascend C's kernel launch
// syntax. bisheng (CANN's compiler) accepts
//
//   kernel<<<blockDim, l2ctrl, stream>>>(args...);
//
// in kernel files, .asc files and host files; g++ does not. TransformSource rewrites each launch,
// in place, into a call on ascsim's simulated grid (ascsim/acl_launch.h):
//
//   ::ascsim::acl::ChevronLaunch("kernel", &kernel, blockDim, l2ctrl, stream)(args...);
//
// Only the `<<<` and `>>>` tokens change and a prefix is inserted before the kernel name, so every
// token stays on its source line; with the `#line 1 "<file>"` the output starts with, g++ reports
// errors at the user's file and line. Comments, string and character literals (raw strings too),
// and preprocessor lines are never rewritten; `operator<<<` is left alone.
//
// A kernel defined with __mix__(aic, aiv) or with a __kfc_workspace__ parameter gets, as the first
// statement of its body (on the line of its '{'), what bisheng's build does for them: the kernel
// type (KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2) for __mix__(1, 2)) and
// AscendC::SetSysWorkspace(<the parameter>) (GetSysWorkSpacePtr() then returns it).
//
// It also finds the __global__ kernels a file defines and generates for each what CANN's
// ascendc_library generates: the header aclrtlaunch_<kernel>.h declaring
//
//   extern "C" uint32_t aclrtlaunch_<kernel>(uint32_t blockDim, aclrtStream stream, <params>);
//
// (GM pointers as void*, a struct parameter by pointer) with ACLRT_LAUNCH_KERNEL(k) defined as
// aclrtlaunch_##k, and the launcher definitions, appended to the rewritten source.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace ascsim::toolkit {

struct Diagnostic {
  int line = 0;  // 1-based, in the input
  int column = 0;
  bool error = true;  // false: a note
  std::string message;
};

struct KernelParam {
  enum class Kind {
    kPointer,  // GM_ADDR, __gm__ T*, any T*: void* in the launcher
    kScalar,   // a builtin arithmetic type: passed as is
    kOther,    // anything else (tiling structs, enums, typedefs): by pointer if it is a class
  };
  std::string type;  // as written, without the name and default argument
  std::string name;  // as written; empty for an unnamed parameter
  Kind kind = Kind::kOther;
};

struct KernelSignature {
  std::string name;            // "add_custom"
  std::string qualified_name;  // "add_custom" or "ns::add_custom"
  bool is_template = false;    // template kernels get no aclrtlaunch_<kernel>
  std::vector<KernelParam> params;
  int line = 0;
  // __mix__(aic, aiv) on the definition: the cores per block (-1 when absent).
  int mix_aic = -1, mix_aiv = -1;
  // The parameter marked __kfc_workspace__ (empty when none): the system workspace the device's
  // framework sets for the Matmul API before the kernel runs.
  std::string kfc_workspace;
  size_t body_offset = 0;  // byte offset just after the body's '{'
};

struct TransformOptions {
  std::string display_path;  // the name in #line and diagnostics
  bool line_directive = true;
  // The header the rewritten source includes first (it declares ChevronLaunch).
  std::string launch_header = "ascsim/acl_launch.h";
};

struct TransformResult {
  std::string output;                    // the rewritten source (without launcher definitions)
  std::vector<KernelSignature> kernels;  // __global__ kernels defined in the source
  int launches = 0;                      // <<<>>> launches rewritten
  std::vector<Diagnostic> diagnostics;
  bool ok() const;
};

TransformResult TransformSource(std::string_view source, const TransformOptions& options);

// aclrtlaunch_<kernel>.h for one (non-template) kernel, `source_path` named in its comment.
std::string LauncherHeader(const KernelSignature& kernel, std::string_view source_path);

// The aclrtlaunch_<kernel> definitions for the non-template kernels, to append to the rewritten
// source; `output_path` and `first_line` (the line the text starts on in that file) name the
// generated lines for compiler messages.
std::string LauncherDefinitions(const std::vector<KernelSignature>& kernels,
                                std::string_view output_path, int first_line);

// The entries of an ascendc_fatbin_library binary, one per non-template kernel, to append to the
// rewritten source: `extern "C" uint32_t ascsim_fatbin_<kernel>(uint32_t blockDim, aclrtStream
// stream, const ascsim::acl::FatbinArgs* args)`, which aclrtBinaryGetFunction looks up by name
// and aclrtLaunchKernelWithConfig calls with the appended arguments (ascsim/acl_launch.h).
std::string FatbinEntries(const std::vector<KernelSignature>& kernels,
                          std::string_view output_path, int first_line);

// What bisheng's --cce-auto-sync means here: declarations, compiled only when the source is built
// with ASCSIM_CCE_AUTO_SYNC (ascsim-cc and ascendc_compile_options define it for the flag), that
// tell the runtime the non-template kernels were built with it, so the sanitizer's `sync` check
// does not require the scalar flags the compiler inserts. Appended like LauncherDefinitions.
std::string AutoSyncDeclarations(const std::vector<KernelSignature>& kernels,
                                 std::string_view output_path, int first_line);

// bisheng's function execution space qualifiers, `[aicore]` and `[host, aicore]` (the Bisheng
// compiler guide, 基本编程指导 / 函数执行空间限定符: "[aicore] void bar() {}", "__global__ [aicore]
// void foo()"; asc-devkit impl/utils/sys_macros.h defines __aicore__ as [aicore] and
// __host_aicore__ as [ host, aicore ] for the device compiler), are no C++: g++ reads `[` as a
// subscript or a structured binding. In `text` (preprocessed, so that the qualifiers a header's
// macros expand to are there), each such bracket group followed by a word of the declaration
// (a type, a specifier, the name) becomes spaces, newlines kept; subscripts, lambda introducers,
// `[[attributes]]` and brackets of other words stay. Returns how many were blanked.
int BlankSpaceQualifiers(std::string* text);

// "file:line:col: error: message" (GCC's format, so editors jump to it).
std::string FormatDiagnostic(std::string_view path, const Diagnostic& d);

}  // namespace ascsim::toolkit
