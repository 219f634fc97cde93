// UINT32 and KernelStatus (CANN metadef inc/external/exe_graph/runtime/base_type.h).
#ifndef ASCSIM_EXE_GRAPH_RUNTIME_BASE_TYPE_H_
#define ASCSIM_EXE_GRAPH_RUNTIME_BASE_TYPE_H_
#ifdef __cplusplus
extern "C" {
#endif
typedef unsigned int UINT32;
typedef UINT32 KernelStatus;
#ifdef __cplusplus
}
#endif
#endif  // ASCSIM_EXE_GRAPH_RUNTIME_BASE_TYPE_H_
