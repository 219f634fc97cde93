// ACL (Ascend Computing Language) for the ascsim simulator: include it instead of CANN's. As in
// CANN, acl.h is the runtime API (acl/acl_rt.h, which includes acl/acl_base.h); the model and
// single-operator parts of CANN's acl.h (acl_mdl.h, acl_op.h) have no meaning here.
//
// C++ programs also get ACLRT_LAUNCH_KERNEL(kernel)(blockDim, stream, args...) for a kernel
// compiled into the same program (ascsim/acl_launch.h); projects built with the toolkit's
// ascendc_library get the generated aclrtlaunch_<kernel>.h and may launch with <<<>>>.
#ifndef ASCSIM_ACL_ACL_H_
#define ASCSIM_ACL_ACL_H_

#include "acl/acl_rt.h"

#ifdef __cplusplus
#include "ascsim/acl_launch.h"
#endif

#endif  // ASCSIM_ACL_ACL_H_
