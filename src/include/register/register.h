// Framework-adapter registration of custom operators (CANN metadef inc/external/register/
// register.h): the framework/tf_plugin, onnx_plugin and caffe_plugin sources of a custom-operator
// project register how a TensorFlow / ONNX / Caffe node maps onto the operator, for the graph
// engine. ascsim has no graph engine, so the registration compiles, links (header-only, C++11)
// and records nothing: the operator is called through its aclnn API.
#ifndef ASCSIM_REGISTER_REGISTER_H_
#define ASCSIM_REGISTER_REGISTER_H_

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "graph/ascend_string.h"
#include "register/register_fmk_types.h"

namespace ge {
class Operator;
class Graph;
}  // namespace ge

namespace google {
namespace protobuf {
class Message;
}  // namespace protobuf
}  // namespace google

namespace domi {
using Status = uint32_t;
enum ImplyType { BUILDIN = 0, TVM, CUSTOM, AI_CPU, CCE, GELOCAL, HCCL, INVALID = 0xFFFFFFFF };

// The automatic attribute mappings: nothing to map without a graph engine.
inline Status AutoMappingByOpFn(const ge::Operator&, ge::Operator&) { return 0; }
inline Status AutoMappingFn(const google::protobuf::Message*, ge::Operator&) { return 0; }

using ParseParamFunc = std::function<Status(const google::protobuf::Message*, ge::Operator&)>;
using ParseParamByOpFunc = std::function<Status(const ge::Operator&, ge::Operator&)>;
using FusionParseParamFunc =
    std::function<Status(const std::vector<const google::protobuf::Message*>, ge::Operator&)>;
using FusionParseParamByOpFunc =
    std::function<Status(const std::vector<ge::Operator>&, ge::Operator&)>;
using ParseSubgraphFunc =
    std::function<Status(const std::string& subgraph_name, const ge::Graph& graph)>;
using ParseOpToGraphFunc = std::function<Status(const ge::Operator&, ge::Graph&)>;

class OpRegistrationData {
 public:
  OpRegistrationData(const std::string& om_optype) : om_optype_(om_optype) {}  // NOLINT
  OpRegistrationData(const char* om_optype) : om_optype_(om_optype) {}         // NOLINT
  OpRegistrationData& FrameworkType(const domi::FrameworkType& fmk_type) {
    fmk_type_ = fmk_type;
    return *this;
  }
  OpRegistrationData& OriginOpType(const std::initializer_list<std::string>&) { return *this; }
  OpRegistrationData& OriginOpType(const std::vector<ge::AscendString>&) { return *this; }
  OpRegistrationData& OriginOpType(const std::string&) { return *this; }
  OpRegistrationData& OriginOpType(const char*) { return *this; }
  OpRegistrationData& ParseParamsFn(const ParseParamFunc&) { return *this; }
  OpRegistrationData& ParseParamsByOperatorFn(const ParseParamByOpFunc&) { return *this; }
  OpRegistrationData& FusionParseParamsFn(const FusionParseParamFunc&) { return *this; }
  OpRegistrationData& FusionParseParamsFn(const FusionParseParamByOpFunc&) { return *this; }
  OpRegistrationData& ParseSubgraphPostFn(const ParseSubgraphFunc&) { return *this; }
  OpRegistrationData& ImplyType(const domi::ImplyType&) { return *this; }
  OpRegistrationData& DelInputWithCond(int32_t, const char*, bool) { return *this; }
  OpRegistrationData& DelInputWithOriginalType(int32_t, const char*) { return *this; }
  OpRegistrationData& InputReorderVector(const std::vector<int32_t>&) { return *this; }
  OpRegistrationData& ParseOpToGraphFn(const ParseOpToGraphFunc&) { return *this; }
  std::string GetOmOptype() const { return om_optype_; }
  domi::FrameworkType GetFrameworkType() const { return fmk_type_; }

 private:
  std::string om_optype_;
  domi::FrameworkType fmk_type_ = FRAMEWORK_RESERVED;
};

class OpReceiver {
 public:
  OpReceiver(OpRegistrationData&) {}  // NOLINT
};
}  // namespace domi

namespace ge {
using OpRegistrationData = domi::OpRegistrationData;
using OpReceiver = domi::OpReceiver;
}  // namespace ge

#define REGISTER_CUSTOM_OP(name) REGISTER_CUSTOM_OP_UNIQ_HELPER(__COUNTER__, (name))
#define REGISTER_CUSTOM_OP_UNIQ_HELPER(ctr, name) REGISTER_CUSTOM_OP_UNIQ(ctr, (name))
#define REGISTER_CUSTOM_OP_UNIQ(ctr, name) \
  static domi::OpReceiver register_op##ctr __attribute__((unused)) = domi::OpRegistrationData(name)

#endif  // ASCSIM_REGISTER_REGISTER_H_
