// The operator-compiler switches of ACL (CANN acl/acl_op_compiler.h): ascsim compiles nothing at
// run time, so they are accepted and have no effect. Programs in the AclNNInvocation style
// include this header and call aclopSetCompileFlag.
#ifndef ASCSIM_ACL_ACL_OP_COMPILER_H_
#define ASCSIM_ACL_ACL_OP_COMPILER_H_

#include "acl/acl_base.h"
#include "acl/acl_op.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum aclCompileType { ACL_COMPILE_SYS, ACL_COMPILE_UNREGISTERED } aclopCompileType;

typedef enum {
  ACL_PRECISION_MODE,
  ACL_AICORE_NUM,
  ACL_AUTO_TUNE_MODE,
  ACL_OP_SELECT_IMPL_MODE,
  ACL_OPTYPELIST_FOR_IMPLMODE,
  ACL_OP_DEBUG_LEVEL,
  ACL_DEBUG_DIR,
  ACL_OP_COMPILER_CACHE_MODE,
  ACL_OP_COMPILER_CACHE_DIR,
  ACL_OP_PERFORMANCE_MODE,
  ACL_OP_JIT_COMPILE,
  ACL_OP_DETERMINISTIC,
  ACL_CUSTOMIZE_DTYPES,
  ACL_OP_PRECISION_MODE,
  ACL_ALLOW_HF32,
  ACL_PRECISION_MODE_V2,
  ACL_OP_DEBUG_OPTION
} aclCompileOpt;

typedef enum aclCompileFlag { ACL_OP_COMPILE_DEFAULT, ACL_OP_COMPILE_FUZZ } aclOpCompileFlag;

ACL_FUNC_VISIBILITY aclError aclopSetCompileFlag(aclOpCompileFlag flag);
ACL_FUNC_VISIBILITY aclError aclSetCompileopt(aclCompileOpt opt, const char* value);

#ifdef __cplusplus
}
#endif

#endif  // ASCSIM_ACL_ACL_OP_COMPILER_H_
