// The kernel side of BEGIN_TILING_DATA_DEF: a C++ class per host tiling struct with the layout of
// its SaveToBuffer bytes, for the kernel build to force-include (as CANN's compile step generates
// from the registered definitions: asc-devkit get_op_tiling.py, get_dynamic_tiling_struct).
#pragma once

#include <string>

namespace ascsim::op {

// The header for operator `op_type`: its default tiling struct (REGISTER_TILING_DATA_CLASS(op,
// T)) declared as AscendCDefaultTilingStruct, the per-key structs registered as "<op>_<key>",
// and every nested struct they hold (registered as "<Struct>Op"; "<Struct>OpApi" structs, such
// as TCubeTiling, come from kernel_tiling/kernel_tiling.h). Empty when the operator registers no
// tiling struct (its kernel uses plain C++ structs). Throws InvalidArgument when a nested
// struct's definition is not registered.
std::string KernelTilingHeader(const std::string& op_type);

}  // namespace ascsim::op
