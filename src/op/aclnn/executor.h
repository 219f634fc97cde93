// The aclnn runtime of custom operators (ascsim/aclnn_op.h): a generated
// aclnn<Op>GetWorkspaceSize hands its arguments to GetWorkspaceSize, which validates them against
// the OpDef as the active SoC sees it (op_resolve.h), picks the data-type combination, runs
// InferShape / InferDataType to check the outputs, TilingParse and the TilingFunc on a
// TilingContext with the SoC's platform, finds the kernel variant of that combination (and
// checks its tiling keys), and returns the workspace size and an executor; aclnn<Op> runs it
// (Run) on a stream. Every failure is one aclnnStatus with a one-line aclGetRecentErrMsg message
// that names the API and the parameter.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "ascsim/aclnn_op.h"
#include "graph/types.h"
#include "op/aclnn/op_package.h"

namespace ascsim::op {

aclnnStatus GetWorkspaceSize(const char* api, const char* op_type, OpPackage& package,
                             const AscsimAclnnArg* args, size_t num_args, uint64_t* workspace_size,
                             aclOpExecutor** executor);

aclnnStatus Run(const char* api, void* workspace, uint64_t workspace_size, aclOpExecutor* executor,
                aclrtStream stream);

// What InferShape and InferDataType give for the outputs of a call, without a kernel: `args` as
// for GetWorkspaceSize, the output arguments may be null tensors. Throws InvalidArgument with the
// message the aclnn call would record (and records it).
struct InferredOutput {
  std::string name;
  std::vector<int64_t> shape;
  ge::DataType data_type = ge::DT_UNDEFINED;
};
std::vector<InferredOutput> InferOutputs(const char* api, const char* op_type,
                                         const AscsimAclnnArg* args, size_t num_args);

}  // namespace ascsim::op
