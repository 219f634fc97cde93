// The older spelling of graph/error_codes.h (CANN metadef inc/external/graph/ge_error_codes.h).
#ifndef ASCSIM_GRAPH_GE_ERROR_CODES_H_
#define ASCSIM_GRAPH_GE_ERROR_CODES_H_
#include "graph/error_codes.h"
#endif  // ASCSIM_GRAPH_GE_ERROR_CODES_H_
