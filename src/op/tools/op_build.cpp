// op_build (op_build.h): the generated sources of a custom-operator project from its OpDefs.
// The aclnn API's naming follows what CANN's op_build generates (an input `x` -> `x`, an optional
// one -> `xOptional`, an input that is also an output -> `xRef`, one output -> `out`, several ->
// `<name>Out`, attributes in camel case between inputs and outputs, optional list and string
// attributes with `Optional`); the ops-info keys follow the aic-<soc>-ops-info.ini CANN's op_build
// writes (read by the skeleton's cmake/util scripts).
#include "op/tools/op_build.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <cctype>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>

#include "ascsim/aclnn_op.h"
#include "ascsim/error.h"
#include "ascsim/op_tools.h"
#include "graph/utils/type_utils.h"
#include "op/framework.h"
#include "op/tools/json.h"

namespace ascsim::op {

std::string CamelCase(const std::string& snake) {
  std::string out;
  bool up = false;
  for (char c : snake) {
    if (c == '_') {
      up = !out.empty();
      continue;
    }
    out += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    up = false;
  }
  return out;
}

namespace {

struct TypeName {
  ge::DataType type;
  const char* ini;
  const char* cpp;
};
// ops-info names: CANN's insert_simplified_keys.py DATA_TPYE_DICT; C++ types: the kernel API's.
const TypeName kTypes[] = {
    {ge::DT_FLOAT, "float32", "float"},      {ge::DT_FLOAT16, "float16", "half"},
    {ge::DT_BF16, "bfloat16", "bfloat16_t"}, {ge::DT_INT8, "int8", "int8_t"},
    {ge::DT_UINT8, "uint8", "uint8_t"},      {ge::DT_INT16, "int16", "int16_t"},
    {ge::DT_UINT16, "uint16", "uint16_t"},   {ge::DT_INT32, "int32", "int32_t"},
    {ge::DT_UINT32, "uint32", "uint32_t"},   {ge::DT_INT64, "int64", "int64_t"},
    {ge::DT_UINT64, "uint64", "uint64_t"},   {ge::DT_BOOL, "bool", "bool"},
    {ge::DT_DOUBLE, "double", "double"},     {ge::DT_COMPLEX64, "complex64", "uint64_t"},
    {ge::DT_INT4, "int4", "int4b_t"},
};

bool IsPointerAttr(AttrKind k) {
  return k != AttrKind::kBool && k != AttrKind::kInt && k != AttrKind::kFloat;
}

}  // namespace

std::string IniTypeName(ge::DataType t) {
  for (const TypeName& n : kTypes) {
    if (n.type == t) return n.ini;
  }
  std::string s = ge::TypeUtils::DataTypeToSerialString(t);
  if (s.rfind("DT_", 0) == 0) s = s.substr(3);
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

ge::DataType FromIniTypeName(const std::string& name) {
  if (name == "float" || name == "fp32") return ge::DT_FLOAT;
  if (name == "fp16" || name == "half") return ge::DT_FLOAT16;
  if (name == "bf16") return ge::DT_BF16;
  for (const TypeName& n : kTypes) {
    if (name == n.ini) return n.type;
  }
  std::string upper = "DT_";
  for (char c : name) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return ge::TypeUtils::SerialStringToDataType(upper);
}

std::string KernelCppType(ge::DataType t) {
  for (const TypeName& n : kTypes) {
    if (n.type == t) return n.cpp;
  }
  return "uint8_t";
}

std::string FullSocName(const std::string& soc_short) {
  // CANN cmake/util/const_var.py SOC_MAP_EXT.
  if (soc_short == "ascend310p") return "Ascend310P3";
  if (soc_short == "ascend310b") return "Ascend310B1";
  if (soc_short == "ascend910") return "Ascend910A";
  if (soc_short == "ascend910b") return "Ascend910B1";
  if (soc_short == "ascend910_93") return "Ascend910_9391";
  std::string s = soc_short;
  if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

std::vector<AclnnParam> AclnnParams(const ResolvedOp& op) {
  std::vector<AclnnParam> params;
  std::set<std::string> output_names;
  for (const ResolvedParam& o : op.outputs) output_names.insert(o.name);
  std::set<std::string> ref_names;
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    const ResolvedParam& p = op.inputs[i];
    AclnnParam a;
    a.role = AclnnParam::Role::kInput;
    a.index = i;
    a.ref = output_names.count(p.name) != 0;
    const std::string base = CamelCase(p.name);
    if (p.kind == ParamKind::kDynamic) {
      a.kind = ASCSIM_ACLNN_TENSOR_LIST;
      a.c_type = a.ref ? "aclTensorList *" : "const aclTensorList *";
    } else {
      a.kind = ASCSIM_ACLNN_TENSOR;
      a.c_type = a.ref ? "aclTensor *" : "const aclTensor *";
    }
    a.name = base + (a.ref ? "Ref" : p.kind == ParamKind::kOptional ? "Optional" : "");
    if (a.ref) ref_names.insert(p.name);
    params.push_back(a);
  }
  for (size_t i = 0; i < op.attrs.size(); ++i) {
    const ResolvedAttr& r = op.attrs[i];
    AclnnParam a;
    a.role = AclnnParam::Role::kAttr;
    a.index = i;
    a.name = CamelCase(r.name) + (!r.required && IsPointerAttr(r.kind) ? "Optional" : "");
    switch (r.kind) {
      case AttrKind::kBool:
        a.kind = ASCSIM_ACLNN_BOOL;
        a.c_type = "bool";
        break;
      case AttrKind::kInt:
        a.kind = ASCSIM_ACLNN_INT;
        a.c_type = "int64_t";
        break;
      case AttrKind::kFloat:
        a.kind = ASCSIM_ACLNN_FLOAT;
        a.c_type = "double";
        break;
      case AttrKind::kString:
        a.kind = ASCSIM_ACLNN_STRING;
        a.c_type = "char *";
        break;
      case AttrKind::kListInt:
      case AttrKind::kListListInt:
        a.kind = ASCSIM_ACLNN_INT_ARRAY;
        a.c_type = "const aclIntArray *";
        break;
      case AttrKind::kListFloat:
        a.kind = ASCSIM_ACLNN_FLOAT_ARRAY;
        a.c_type = "const aclFloatArray *";
        break;
      case AttrKind::kListBool:
        a.kind = ASCSIM_ACLNN_BOOL_ARRAY;
        a.c_type = "const aclBoolArray *";
        break;
    }
    params.push_back(a);
  }
  size_t plain_outputs = 0;
  for (const ResolvedParam& o : op.outputs) plain_outputs += ref_names.count(o.name) == 0 ? 1 : 0;
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    const ResolvedParam& p = op.outputs[i];
    if (ref_names.count(p.name) != 0) continue;
    AclnnParam a;
    a.role = AclnnParam::Role::kOutput;
    a.index = i;
    const bool list = p.kind == ParamKind::kDynamic;
    a.kind = list ? ASCSIM_ACLNN_TENSOR_LIST : ASCSIM_ACLNN_TENSOR;
    a.c_type = list ? "const aclTensorList *" : "const aclTensor *";
    a.name = plain_outputs == 1 ? "out" : CamelCase(p.name) + "Out";
    params.push_back(a);
  }
  return params;
}

namespace {

std::string Upper(const std::string& s) {
  std::string out;
  for (char c : s) out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string Signature(const ResolvedOp& op, const std::vector<AclnnParam>& params,
                      const std::string& indent) {
  std::string s;
  for (const AclnnParam& p : params) {
    s += indent + p.c_type + (p.c_type.back() == '*' ? "" : " ") + p.name + ",\n";
  }
  s += indent + "uint64_t *workspaceSize,\n" + indent + "aclOpExecutor **executor)";
  (void)op;
  return s;
}

const char* ParamDoc(const ResolvedOp& op, const AclnnParam& p) {
  if (p.role == AclnnParam::Role::kAttr)
    return op.attrs[p.index].required ? "required" : "optional";
  const ResolvedParam& r =
      p.role == AclnnParam::Role::kInput ? op.inputs[p.index] : op.outputs[p.index];
  return r.kind == ParamKind::kOptional  ? "optional"
         : r.kind == ParamKind::kDynamic ? "dynamic"
                                         : "required";
}

}  // namespace

std::string AclnnHeader(const ResolvedOp& op) {
  const std::string snake = SnakeCase(op.op_type);
  const std::string guard = "ACLNN_" + Upper(snake) + "_H_";
  const std::vector<AclnnParam> params = AclnnParams(op);
  std::ostringstream h;
  h << "/*\n * Generated by the ascsim toolkit's op_build from the OpDef of " << op.op_type
    << "; do not edit.\n */\n\n";
  h << "#ifndef " << guard << "\n#define " << guard << "\n\n";
  h << "#include \"aclnn/acl_meta.h\"\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  h << "/* function: aclnn" << op.op_type << "GetWorkspaceSize\n * parameters :\n";
  for (const AclnnParam& p : params) h << " * " << p.name << " : " << ParamDoc(op, p) << "\n";
  h << " * workspaceSize : size of workspace(output).\n * executor : executor context(output).\n "
       "*/\n";
  h << "__attribute__((visibility(\"default\")))\naclnnStatus aclnn" << op.op_type
    << "GetWorkspaceSize(\n"
    << Signature(op, params, "    ") << ";\n\n";
  h << "/* function: aclnn" << op.op_type
    << "\n * parameters :\n * workspace : workspace memory addr(input).\n * workspaceSize : size "
       "of workspace(input).\n * executor : executor context(input).\n * stream : acl stream.\n "
       "*/\n";
  h << "__attribute__((visibility(\"default\")))\naclnnStatus aclnn" << op.op_type
    << "(\n    void *workspace,\n    uint64_t workspaceSize,\n    aclOpExecutor *executor,\n"
       "    aclrtStream stream);\n\n";
  h << "#ifdef __cplusplus\n}\n#endif\n\n#endif\n";
  return h.str();
}

std::string AclnnSource(const ResolvedOp& op) {
  const std::string snake = SnakeCase(op.op_type);
  const std::vector<AclnnParam> params = AclnnParams(op);
  static const char* kKinds[] = {"ASCSIM_ACLNN_TENSOR",     "ASCSIM_ACLNN_TENSOR_LIST",
                                 "ASCSIM_ACLNN_INT_ARRAY",  "ASCSIM_ACLNN_FLOAT_ARRAY",
                                 "ASCSIM_ACLNN_BOOL_ARRAY", "ASCSIM_ACLNN_INT",
                                 "ASCSIM_ACLNN_FLOAT",      "ASCSIM_ACLNN_BOOL",
                                 "ASCSIM_ACLNN_STRING",     "ASCSIM_ACLNN_SCALAR"};
  auto entry = [&](const AclnnParam& p) {
    std::string ptr = "0", i = "0", f = "0";
    switch (p.kind) {
      case ASCSIM_ACLNN_INT:
        i = p.name;
        break;
      case ASCSIM_ACLNN_BOOL:
        i = "(" + p.name + " ? 1 : 0)";
        break;
      case ASCSIM_ACLNN_FLOAT:
        f = p.name;
        break;
      default:
        ptr = p.name;
    }
    return std::string("{") + kKinds[p.kind] + ", \"" + p.name + "\", " + ptr + ", " + i + ", " +
           f + "}";
  };
  std::ostringstream s;
  s << "/*\n * Generated by the ascsim toolkit's op_build from the OpDef of " << op.op_type
    << "; do not edit.\n * The arguments go to the ascsim aclnn runtime in the OpDef's order"
       " (inputs, attributes, outputs).\n */\n";
  s << "#include \"aclnn_" << snake << ".h\"\n#include \"ascsim/aclnn_op.h\"\n\n";
  s << "namespace {\n// An address inside this library: the runtime finds the operator package"
       " from it.\nconst char kAscsimPackageLocator = 0;\n}  // namespace\n\n";
  s << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  s << "aclnnStatus aclnn" << op.op_type << "GetWorkspaceSize(\n"
    << Signature(op, params, "    ") << "\n{\n";
  s << "    const AscsimAclnnArg args[] = {\n";
  // The runtime's order: every input, every attribute, every output (a Ref parameter twice).
  for (const AclnnParam& p : params) {
    if (p.role != AclnnParam::Role::kOutput) s << "        " << entry(p) << ",\n";
  }
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    for (const AclnnParam& p : params) {
      const bool ref_of = p.role == AclnnParam::Role::kInput && p.ref &&
                          op.inputs[p.index].name == op.outputs[i].name;
      const bool out = p.role == AclnnParam::Role::kOutput && p.index == i;
      if (ref_of || out) s << "        " << entry(p) << ",\n";
    }
  }
  s << "    };\n";
  s << "    return ascsim_aclnn_get_workspace_size(\"aclnn" << op.op_type
    << "GetWorkspaceSize\", \"" << op.op_type
    << "\", &kAscsimPackageLocator, args,\n        sizeof(args) / sizeof(args[0]), workspaceSize,"
       " executor);\n}\n\n";
  s << "aclnnStatus aclnn" << op.op_type
    << "(\n    void *workspace,\n    uint64_t workspaceSize,\n    aclOpExecutor *executor,\n"
       "    aclrtStream stream)\n{\n";
  s << "    return ascsim_aclnn_run(\"aclnn" << op.op_type
    << "\", workspace, workspaceSize, executor, stream);\n}\n\n";
  s << "#ifdef __cplusplus\n}\n#endif\n";
  return s.str();
}

namespace {

std::string Join(const std::vector<std::string>& v, const char* sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
  return s;
}

std::string FloatText(float f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", static_cast<double>(f));
  return buf;
}

std::string DefaultText(const ResolvedAttr& a) {
  switch (a.kind) {
    case AttrKind::kBool:
      return a.bool_value ? "true" : "false";
    case AttrKind::kInt:
      return std::to_string(a.int_value);
    case AttrKind::kFloat:
      return FloatText(a.float_value);
    case AttrKind::kString:
      return a.str_value;
    case AttrKind::kListInt: {
      std::vector<std::string> v;
      for (int64_t x : a.list_int) v.push_back(std::to_string(x));
      return "[" + Join(v, ",") + "]";
    }
    case AttrKind::kListFloat: {
      std::vector<std::string> v;
      for (float x : a.list_float) v.push_back(FloatText(x));
      return "[" + Join(v, ",") + "]";
    }
    case AttrKind::kListBool: {
      std::vector<std::string> v;
      for (bool x : a.list_bool) v.push_back(x ? "true" : "false");
      return "[" + Join(v, ",") + "]";
    }
    case AttrKind::kListListInt: {
      std::vector<std::string> rows;
      for (const auto& row : a.list_list_int) {
        std::vector<std::string> v;
        for (int64_t x : row) v.push_back(std::to_string(x));
        rows.push_back("[" + Join(v, ",") + "]");
      }
      return "[" + Join(rows, ",") + "]";
    }
  }
  return "";
}

const char* ParamTypeText(ParamKind k) {
  return k == ParamKind::kOptional ? "optional" : k == ParamKind::kDynamic ? "dynamic" : "required";
}

void ParamLines(std::ostringstream& s, const char* prefix, size_t i, const ResolvedParam& p) {
  std::vector<std::string> types, formats;
  for (ge::DataType t : p.types) types.push_back(IniTypeName(t));
  for (ge::Format f : p.formats) formats.push_back(ge::TypeUtils::FormatToSerialString(f));
  const std::string k = prefix + std::to_string(i);
  s << k << ".name=" << p.name << "\n";
  s << k << ".dtype=" << Join(types, ",") << "\n";
  s << k << ".format=" << Join(formats, ",") << "\n";
  s << k << ".unknownshape_format=" << Join(formats, ",") << "\n";
  s << k << ".shape=all\n";
  s << k << ".paramType=" << ParamTypeText(p.kind) << "\n";
  if (p.value_depend) s << k << ".valueDepend=required\n";
}

}  // namespace

std::string OpsInfoSection(const ResolvedOp& op) {
  std::ostringstream s;
  s << "[" << op.op_type << "]\n";
  for (size_t i = 0; i < op.inputs.size(); ++i) ParamLines(s, "input", i, op.inputs[i]);
  for (size_t i = 0; i < op.outputs.size(); ++i) ParamLines(s, "output", i, op.outputs[i]);
  if (!op.attrs.empty()) {
    std::vector<std::string> names;
    for (const ResolvedAttr& a : op.attrs) names.push_back(a.name);
    s << "attr.list=" << Join(names, ",") << "\n";
    for (const ResolvedAttr& a : op.attrs) {
      s << "attr_" << a.name << ".type=" << AttrKindName(a.kind) << "\n";
      s << "attr_" << a.name << ".value=all\n";
      s << "attr_" << a.name << ".paramType=" << (a.required ? "required" : "optional") << "\n";
      if (!a.required) s << "attr_" << a.name << ".defaultValue=" << DefaultText(a) << "\n";
    }
  }
  for (size_t i = 0; i < op.config_keys.size(); ++i) {
    s << op.config_keys[i] << "=" << op.config_values[i] << "\n";
  }
  const std::string snake = SnakeCase(op.op_type);
  s << "opFile.value=" << snake << "\n";
  s << "opInterface.value=" << snake << "\n";
  return s.str();
}

namespace {

Json ParamJson(const ResolvedParam& p, size_t index, size_t combo) {
  Json para = Json::Object();
  para.Set("name", Json::String(p.name));
  para.Set("index", Json::Number(static_cast<double>(index)));
  para.Set("dtype", Json::String(IniTypeName(p.types[combo])));
  para.Set("format", Json::String(ge::TypeUtils::FormatToSerialString(p.formats[combo])));
  para.Set("paramType", Json::String(ParamTypeText(p.kind)));
  Json shape = Json::Array();
  shape.Push(Json::Number(-2));
  para.Set("shape", shape);
  para.Set("format_match_mode", Json::String("FormatAgnostic"));
  if (p.kind == ParamKind::kDynamic) {
    Json list = Json::Array();
    list.Push(para);
    return list;
  }
  return para;
}

const char* AttrJsonType(AttrKind k) {
  switch (k) {
    case AttrKind::kBool:
      return "bool";
    case AttrKind::kInt:
      return "int";
    case AttrKind::kFloat:
      return "float";
    case AttrKind::kString:
      return "str";
    case AttrKind::kListBool:
      return "list_bool";
    case AttrKind::kListInt:
      return "list_int";
    case AttrKind::kListFloat:
      return "list_float";
    case AttrKind::kListListInt:
      return "list_list_int";
  }
  return "int";
}

}  // namespace

std::vector<VariantSpec> KernelVariantSpecs(const ResolvedOp& op, const std::string& soc_short) {
  (void)soc_short;
  std::vector<VariantSpec> specs;
  std::set<std::string> seen;
  for (size_t c = 0; c < op.combinations; ++c) {
    Json node = Json::Object();
    const std::string bin = op.op_type + "_" + std::to_string(specs.size());
    node.Set("bin_filename", Json::String(bin));
    Json inputs = Json::Array();
    Json outputs = Json::Array();
    std::string key;
    for (size_t i = 0; i < op.inputs.size(); ++i) {
      inputs.Push(ParamJson(op.inputs[i], i, c));
      key += IniTypeName(op.inputs[i].types[c]) + "/" +
             ge::TypeUtils::FormatToSerialString(op.inputs[i].formats[c]) + ";";
    }
    for (size_t i = 0; i < op.outputs.size(); ++i) {
      outputs.Push(ParamJson(op.outputs[i], i, c));
      key += IniTypeName(op.outputs[i].types[c]) + "/" +
             ge::TypeUtils::FormatToSerialString(op.outputs[i].formats[c]) + ";";
    }
    if (!seen.insert(key).second) continue;
    node.Set("inputs", inputs);
    node.Set("outputs", outputs);
    if (!op.attrs.empty()) {
      Json attrs = Json::Array();
      for (const ResolvedAttr& a : op.attrs) {
        Json j = Json::Object();
        j.Set("name", Json::String(a.name));
        j.Set("dtype", Json::String(AttrJsonType(a.kind)));
        attrs.Push(j);
      }
      node.Set("attrs", attrs);
    }
    Json param = Json::Object();
    param.Set("op_type", Json::String(op.op_type));
    Json list = Json::Array();
    list.Push(node);
    param.Set("op_list", list);
    specs.push_back(VariantSpec{bin, param.Dump()});
  }
  return specs;
}

namespace {

void MakeDirs(const std::string& path) {
  std::string at;
  std::istringstream parts(path);
  std::string part;
  if (!path.empty() && path[0] == '/') at = "/";
  while (std::getline(parts, part, '/')) {
    if (part.empty()) continue;
    at += part + "/";
    mkdir(at.c_str(), 0755);
  }
}

void Write(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) throw InvalidArgument("cannot write " + path);
}

std::string OpProtoHeader(const std::vector<ResolvedOp>& ops) {
  std::ostringstream h;
  h << "/*\n * Generated by the ascsim toolkit's op_build; do not edit.\n * The operator "
       "prototypes of this package (ascsim runs them through their aclnn API; the graph "
       "engine's\n * REG_OP classes are not generated).\n */\n";
  h << "#ifndef OPS_BUILT_IN_OP_PROTO_INC_OP_PROTO_H_\n#define "
       "OPS_BUILT_IN_OP_PROTO_INC_OP_PROTO_H_\n\n";
  for (const ResolvedOp& op : ops) {
    h << "/* " << op.op_type << "(";
    std::vector<std::string> in;
    for (const ResolvedParam& p : op.inputs) in.push_back(p.name);
    h << Join(in, ", ") << ") -> (";
    std::vector<std::string> out;
    for (const ResolvedParam& p : op.outputs) out.push_back(p.name);
    h << Join(out, ", ") << ")";
    for (const ResolvedAttr& a : op.attrs) h << ", attr " << a.name << ": " << AttrKindName(a.kind);
    h << " */\n";
  }
  h << "\n#endif\n";
  return h.str();
}

std::string KernelsCmake(const std::vector<ResolvedOp>& ops,
                         const std::map<std::string, std::vector<std::string>>& socs_of,
                         const std::string& out_dir) {
  std::ostringstream c;
  c << "# Written by the ascsim toolkit's op_build: the kernel variants of each operator per "
       "SoC.\n";
  std::vector<std::string> types;
  for (const ResolvedOp& op : ops) types.push_back(op.op_type);
  c << "set(ASCSIM_OP_TYPES " << Join(types, " ") << ")\n";
  for (const ResolvedOp& op : ops) {
    c << "set(ASCSIM_OP_FILE_" << op.op_type << " " << SnakeCase(op.op_type) << ")\n";
    c << "set(ASCSIM_OP_SOCS_" << op.op_type << " " << Join(socs_of.at(op.op_type), " ") << ")\n";
    for (const std::string& soc : socs_of.at(op.op_type)) {
      const ResolvedOp r = ResolveOp(op.op_type, soc);
      std::vector<std::string> bins;
      for (const VariantSpec& v : KernelVariantSpecs(r, soc)) {
        const std::string path =
            out_dir + "/ascsim_kernels/" + soc + "/" + v.bin_name + "_param.json";
        Write(path, v.param_json);
        bins.push_back(v.bin_name);
        c << "set(ASCSIM_KERNEL_PARAM_" << soc << "_" << v.bin_name << " \"" << path << "\")\n";
      }
      c << "set(ASCSIM_KERNELS_" << soc << "_" << op.op_type << " " << Join(bins, " ") << ")\n";
    }
  }
  return c.str();
}

}  // namespace

int OpBuildMain(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: op_build <ops library> <output dir>\n"
                 "  loads the library the op_host sources were compiled into and writes the aclnn\n"
                 "  API, op_proto and aic-<soc>-ops-info.ini of the operators it registers\n";
    return 2;
  }
  const std::string lib = argv[1];
  const std::string out = argv[2];
  try {
    OpFramework& fw = OpFramework::Get();
    const std::vector<std::string> before = fw.OpTypes();
    if (dlopen(lib.c_str(), RTLD_NOW | RTLD_GLOBAL) == nullptr) {
      const char* why = dlerror();
      std::cerr << "op_build: cannot load " << lib << ": " << (why ? why : "dlopen failed") << "\n";
      return 1;
    }
    for (const std::string& e : fw.TakeErrors())
      std::cerr << "op_build: " << lib << ": " << e << "\n";
    std::vector<std::string> types;
    for (const std::string& t : fw.OpTypes()) {
      bool old = false;
      for (const std::string& b : before) old = old || b == t;
      if (!old) types.push_back(t);
    }
    if (types.empty()) {
      std::cerr << "op_build: " << lib
                << " registers no operator (no OP_ADD in its op_host sources)\n";
      return 1;
    }
    MakeDirs(out);
    std::vector<ResolvedOp> ops;
    std::map<std::string, std::string> ini;  // per SoC
    std::map<std::string, std::vector<std::string>> socs_of;
    std::vector<std::string> soc_order;
    for (const std::string& type : types) {
      std::vector<std::string> socs = ConfiguredSocs(type);
      if (socs.empty()) {
        std::cerr << "op_build: " << type
                  << " has no this->AICore().AddConfig(\"<soc>\"): skipped (nothing to build)\n";
        continue;
      }
      socs_of[type] = socs;
      const ResolvedOp api = ResolveOp(type, socs[0]);
      ops.push_back(api);
      Write(out + "/aclnn_" + SnakeCase(type) + ".h", AclnnHeader(api));
      Write(out + "/aclnn_" + SnakeCase(type) + ".cpp", AclnnSource(api));
      for (const std::string& soc : socs) {
        if (ini.find(soc) == ini.end()) soc_order.push_back(soc);
        ini[soc] += OpsInfoSection(ResolveOp(type, soc));
      }
    }
    for (const std::string& soc : soc_order) Write(out + "/aic-" + soc + "-ops-info.ini", ini[soc]);
    Write(out + "/op_proto.h", OpProtoHeader(ops));
    Write(out + "/op_proto.cc",
          "/* Generated by the ascsim toolkit's op_build; do not edit. */\n#include "
          "\"op_proto.h\"\n");
    for (const std::string& soc : soc_order) MakeDirs(out + "/ascsim_kernels/" + soc);
    Write(out + "/ascsim_kernels.cmake", KernelsCmake(ops, socs_of, out));
    std::cout << "op_build: " << types.size() << " operator(s) from " << lib << " -> " << out
              << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "op_build: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace ascsim::op

extern "C" int ascsim_op_build_main(int argc, char** argv) {
  return ascsim::op::OpBuildMain(argc, argv);
}
