// OP_ADD(OpType) (CANN metadef inc/external/asc/register/op_def_registry.h): registers the
// operator prototype class OpType. The library a project builds its op_host code into
// (op_build's input, the op proto and op tiling libraries, ascsim.load_op) registers all three
// views at once in ascsim: the prototype, its InferShape / InferDataType and its Tiling, as
// CANN's OP_PROTO_LIB and OP_TILING_LIB builds each register one of them.
#ifndef ASCSIM_REGISTER_OP_DEF_REGISTRY_H_
#define ASCSIM_REGISTER_OP_DEF_REGISTRY_H_

#include "register/op_def.h"
#include "register/op_def_factory.h"

#define OP_ADD(opType, ...)                                           \
  static int g_##opType##_added = ops::OpDefFactory::OpDefRegisterV2( \
      #opType, [](const char* name) -> ops::OpDef { return opType(name); })

#endif  // ASCSIM_REGISTER_OP_DEF_REGISTRY_H_
