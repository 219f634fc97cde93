// ACL (Ascend Computing Language) for the ascsim simulator: include it instead of CANN's. As in
// CANN, acl.h is the runtime API (acl/acl_rt.h, which includes acl/acl_base.h); the model part of
// CANN's acl.h (acl_mdl.h) has no meaning here, and of its single-operator part only the switches
// aclnn programs call (acl/acl_op.h, acl/acl_op_compiler.h; include them as CANN programs do).
//
// C++ programs also get ACLRT_LAUNCH_KERNEL(kernel)(blockDim, stream, args...) for a kernel
// compiled into the same program (ascsim/acl_launch.h); projects built with the toolkit's
// ascendc_library get the generated aclrtlaunch_<kernel>.h and may launch with <<<>>>.
#ifndef ASCSIM_ACL_ACL_H_
#define ASCSIM_ACL_ACL_H_

#include "acl/acl_rt.h"

// The in-program launcher needs C++17 (as kernel code does); a host program built as C++11 or
// C++14 (the AclNNInvocation samples use -std=c++11) gets the ACL C API alone.
#if defined(__cplusplus) && __cplusplus >= 201703L
#include "ascsim/acl_launch.h"
#endif

#endif  // ASCSIM_ACL_ACL_H_
