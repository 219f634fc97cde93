// ge::graphStatus and its codes (CANN metadef inc/external/graph/error_codes.h), and ge::Status
// with SUCCESS and FAILED (inc/external/ge_common/api_error_codes.h).
#ifndef ASCSIM_GRAPH_ERROR_CODES_H_
#define ASCSIM_GRAPH_ERROR_CODES_H_

#include <cstddef>
#include <cstdint>

namespace ge {
using graphStatus = uint32_t;
const graphStatus GRAPH_FAILED = 0xFFFFFFFF;
const graphStatus GRAPH_SUCCESS = 0;
const graphStatus GRAPH_NOT_CHANGED = 1343242304;
const graphStatus GRAPH_PARAM_INVALID = 50331649;
const graphStatus GRAPH_NODE_WITHOUT_CONST_INPUT = 50331648;
const graphStatus GRAPH_NODE_NEED_REPASS = 50331647;
const graphStatus GRAPH_INVALID_IR_DEF = 50331646;
const graphStatus OP_WITHOUT_IR_DATATYPE_INFER_RULE = 50331645;
const graphStatus GRAPH_PARAM_OUT_OF_RANGE = 50331644;
const graphStatus GRAPH_MEM_OPERATE_FAILED = 50331539;
const graphStatus GRAPH_NULL_PTR = 50331538;
const graphStatus GRAPH_MEMCPY_FAILED = 50331537;
const graphStatus GRAPH_MEMSET_FAILED = 50331536;
const graphStatus GRAPH_MATH_CAL_FAILED = 50331429;
const graphStatus GRAPH_ADD_OVERFLOW = 50331428;
const graphStatus GRAPH_MUL_OVERFLOW = 50331427;

using Status = uint32_t;
const Status SUCCESS = 0;
const Status FAILED = 0xFFFFFFFF;
}  // namespace ge

#endif  // ASCSIM_GRAPH_ERROR_CODES_H_
