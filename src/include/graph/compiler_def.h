// Compiler attributes of CANN's headers (metadef inc/external/graph/compiler_def.h).
#ifndef ASCSIM_GRAPH_COMPILER_DEF_H_
#define ASCSIM_GRAPH_COMPILER_DEF_H_
#define ATTRIBUTE_USED __attribute__((used))
#define VAR_UNUSED __attribute__((unused))
#define METADEF_FUNCTION_IDENTIFIER __PRETTY_FUNCTION__
#endif  // ASCSIM_GRAPH_COMPILER_DEF_H_
