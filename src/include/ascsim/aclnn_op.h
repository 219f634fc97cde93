// The runtime behind the generated aclnn API of a custom operator (aclnn_<op>.cpp, written by
// the toolkit's op_build): the generated aclnn<Op>GetWorkspaceSize lists its arguments in the
// OpDef's order (inputs, attributes, outputs) and hands them here; aclnn<Op> runs the executor.
// C linkage and C++11, like the generated code.
#ifndef ASCSIM_ACLNN_OP_H_
#define ASCSIM_ACLNN_OP_H_

#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"
#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

// The kind of one argument of a generated aclnn API.
typedef enum {
  ASCSIM_ACLNN_TENSOR = 0,       // const aclTensor* (required, optional or an output)
  ASCSIM_ACLNN_TENSOR_LIST = 1,  // const aclTensorList* (a dynamic input or output)
  ASCSIM_ACLNN_INT_ARRAY = 2,    // const aclIntArray* (a value-depend input, or a ListInt attr)
  ASCSIM_ACLNN_FLOAT_ARRAY = 3,  // const aclFloatArray*
  ASCSIM_ACLNN_BOOL_ARRAY = 4,   // const aclBoolArray*
  ASCSIM_ACLNN_INT = 5,          // int64_t attribute
  ASCSIM_ACLNN_FLOAT = 6,        // double attribute (a Float attr)
  ASCSIM_ACLNN_BOOL = 7,         // bool attribute
  ASCSIM_ACLNN_STRING = 8,       // const char* attribute
  ASCSIM_ACLNN_SCALAR = 9,       // const aclScalar*
} AscsimAclnnArgKind;

typedef struct {
  int32_t kind;      // AscsimAclnnArgKind
  const char* name;  // the API's parameter name ("x", "biasOptional", "out")
  const void* ptr;   // the object for the pointer kinds, the string for ASCSIM_ACLNN_STRING
  int64_t i;         // ASCSIM_ACLNN_INT, ASCSIM_ACLNN_BOOL
  double f;          // ASCSIM_ACLNN_FLOAT
} AscsimAclnnArg;

// aclnn<Op>GetWorkspaceSize: validates the arguments against the OpDef of `op_type` (loaded from
// the operator package that holds the library whose address `locator` is), runs InferShape and
// the TilingFunc, and returns the workspace size and an executor. `api` names the API in errors.
ACL_FUNC_VISIBILITY aclnnStatus ascsim_aclnn_get_workspace_size(
    const char* api, const char* op_type, const void* locator, const AscsimAclnnArg* args,
    size_t num_args, uint64_t* workspace_size, aclOpExecutor** executor);

// aclnn<Op>: launches the executor's kernel on `stream` with `workspace`.
ACL_FUNC_VISIBILITY aclnnStatus ascsim_aclnn_run(const char* api, void* workspace,
                                                 uint64_t workspace_size, aclOpExecutor* executor,
                                                 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // ASCSIM_ACLNN_OP_H_
