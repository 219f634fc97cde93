// aclnnInit / aclnnFinalize (CANN opbase include/nnopbase/aclnn/aclnn_base.h): the aclnn runtime
// starts on first use in ascsim, so both only check their argument and succeed.
#ifndef ASCSIM_ACLNN_ACLNN_BASE_H_
#define ASCSIM_ACLNN_ACLNN_BASE_H_

#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnInit(const char* configPath);
ACL_FUNC_VISIBILITY aclnnStatus aclnnFinalize();

#ifdef __cplusplus
}
#endif

#endif  // ASCSIM_ACLNN_ACLNN_BASE_H_
