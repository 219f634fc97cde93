// Single-operator execution types of ACL (CANN acl/acl_op.h), as far as operator programs built
// on aclnn name them: the attribute container and the op-model directory, accepted for
// compatibility (ascsim runs operators through their aclnn API, not from op models).
#ifndef ASCSIM_ACL_ACL_OP_H_
#define ASCSIM_ACL_ACL_OP_H_

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aclopAttr aclopAttr;

ACL_FUNC_VISIBILITY aclError aclopSetModelDir(const char* modelDir);

#ifdef __cplusplus
}
#endif

#endif  // ASCSIM_ACL_ACL_OP_H_
