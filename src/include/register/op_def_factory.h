// ops::OpDefFactory (CANN metadef inc/external/asc/register/op_def_factory.h): the registry of
// operator prototypes by type, filled by OP_ADD.
#ifndef ASCSIM_REGISTER_OP_DEF_FACTORY_H_
#define ASCSIM_REGISTER_OP_DEF_FACTORY_H_

#include <functional>
#include <vector>

#include "register/op_def.h"

namespace ops {
using OpDefCreator = std::function<OpDef(const char*)>;
using OpDefFuncPtr = OpDef (*)(const char*);

class OpDefFactory {
 public:
  static int OpDefRegister(const char* name, OpDefCreator creator);
  static int OpDefRegisterV2(const char* name, OpDefFuncPtr ptr);

 private:
  friend class ascsim::op::OpDefAccess;
};
}  // namespace ops

#endif  // ASCSIM_REGISTER_OP_DEF_FACTORY_H_
