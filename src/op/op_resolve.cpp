// ResolveOp (op_resolve.h): the OpDef merged with a SoC's AddConfig, as CANN's op_build merges
// them (metadef OpDef::GetMergeInputs: a parameter the config redefines replaces the OpDef's of
// the same name), then the combinations: the i-th type and format of every parameter; a
// DataTypeList / FormatList parameter multiplies them (FullPermutation); a parameter without
// formats is ND in every combination (SetDefaultND); Follow copies the followed input's.
#include "op/op_resolve.h"

#include <cctype>
#include <map>
#include <string>

#include "ascsim/error.h"
#include "graph/utils/type_utils.h"
#include "op/register/op_def_impl.h"

namespace ascsim::op {
namespace {

std::string Str(const ge::AscendString& s) { return s.GetString(); }

struct Work {
  const ops::OpParamDefImpl* def;
  ResolvedParam param;
  bool types_list = false;
  bool formats_list = false;
  std::vector<ge::DataType> types;
  std::vector<ge::Format> formats;
};

std::vector<Work> Merge(const std::vector<ops::OpParamDef>& base,
                        const std::vector<ops::OpParamDef>* config, bool is_output) {
  std::vector<Work> out;
  auto add = [&](const ops::OpParamDef& p) {
    const ops::OpParamDefImpl& d = OpDefAccess::Of(p);
    for (Work& w : out) {
      if (w.param.name == Str(d.name)) {
        w.def = &d;
        return;
      }
    }
    Work w;
    w.def = &d;
    w.param.name = Str(d.name);
    out.push_back(w);
  };
  for (const ops::OpParamDef& p : base) add(p);
  if (config != nullptr) {
    for (const ops::OpParamDef& p : *config) add(p);
  }
  for (Work& w : out) {
    const ops::OpParamDefImpl& d = *w.def;
    w.param.kind = d.param_type == ops::OPTIONAL  ? ParamKind::kOptional
                   : d.param_type == ops::DYNAMIC ? ParamKind::kDynamic
                                                  : ParamKind::kRequired;
    w.types = d.types;
    w.types_list = d.types_list;
    w.formats = d.formats;
    w.formats_list = d.formats_list;
    w.param.value_depend = d.value_depend == ops::REQUIRED || d.value_depend == ops::OPTIONAL;
    if (is_output) w.param.follow = Str(d.follow_name);
  }
  return out;
}

std::string Where(const std::string& op_type, const Work& w, bool is_output) {
  return op_type + (is_output ? " output " : " input ") + w.param.name;
}

}  // namespace

std::string ShortSocName(const std::string& soc_name) {
  std::string s;
  for (char c : soc_name) s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (s.rfind("ascend910_93", 0) == 0) return "ascend910_93";
  if (s.rfind("ascend910b", 0) == 0) return "ascend910b";
  if (s.rfind("ascend910_95", 0) == 0) return "ascend910_95";
  if (s.rfind("ascend910", 0) == 0) return "ascend910";
  if (s.rfind("ascend310p", 0) == 0) return "ascend310p";
  if (s.rfind("ascend310b", 0) == 0) return "ascend310b";
  return s;
}

std::string SnakeCase(const std::string& op_type) {
  std::string out;
  for (size_t i = 0; i < op_type.size(); ++i) {
    const char c = op_type[i];
    if (std::isupper(static_cast<unsigned char>(c))) {
      if (i != 0) out += '_';
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      out += c;
    }
  }
  return out;
}

const char* AttrKindName(AttrKind kind) {
  switch (kind) {
    case AttrKind::kBool:
      return "bool";
    case AttrKind::kFloat:
      return "float";
    case AttrKind::kInt:
      return "int";
    case AttrKind::kString:
      return "str";
    case AttrKind::kListBool:
      return "listBool";
    case AttrKind::kListFloat:
      return "listFloat";
    case AttrKind::kListInt:
      return "listInt";
    case AttrKind::kListListInt:
      return "listListInt";
  }
  return "?";
}

std::vector<std::string> ConfiguredSocs(const std::string& op_type) {
  ops::OpDef def = OpFramework::Get().CreateOpDef(op_type);
  return OpDefAccess::Of(OpDefAccess::Of(def).aicore).soc_order;
}

ResolvedOp ResolveOp(const std::string& op_type, const std::string& soc_short) {
  ops::OpDef def = OpFramework::Get().CreateOpDef(op_type);
  return ResolveOp(def, soc_short);
}

ResolvedOp ResolveOp(const ops::OpDef& def, const std::string& soc_short) {
  const ops::OpDefImpl& d = OpDefAccess::Of(def);
  const ops::OpAICoreDefImpl& core = OpDefAccess::Of(d.aicore);
  ResolvedOp op;
  op.op_type = Str(d.op_type);
  op.soc = soc_short;
  const auto config_it = core.configs.find(soc_short);
  if (config_it == core.configs.end()) {
    std::string socs;
    for (const std::string& s : core.soc_order) socs += (socs.empty() ? "" : ", ") + s;
    throw InvalidArgument(op.op_type + " is not built for " + soc_short +
                          " (its OpDef's AICore().AddConfig lists " +
                          (socs.empty() ? "no SoC" : socs) + ")");
  }
  const ops::OpAICoreConfigImpl& config = OpDefAccess::Of(config_it->second);
  op.config_keys = config.cfg_keys;
  for (const std::string& k : config.cfg_keys) op.config_values.push_back(config.cfg_info.at(k));

  std::vector<Work> ins = Merge(d.params.inputs, &config.params.inputs, false);
  std::vector<Work> outs = Merge(d.params.outputs, &config.params.outputs, true);

  // Follow: an output takes the followed input's types and formats (before the combinations).
  for (Work& w : outs) {
    if (w.param.follow.empty()) continue;
    const ops::FollowType ft = w.def->follow_type;
    bool found = false;
    for (const Work& in : ins) {
      if (in.param.name != w.param.follow) continue;
      found = true;
      if (ft == ops::FollowType::ALL || ft == ops::FollowType::DTYPE) {
        w.types = in.types;
        w.types_list = in.types_list;
      }
      if (ft == ops::FollowType::ALL || ft == ops::FollowType::FORMAT) {
        w.formats = in.formats;
        w.formats_list = in.formats_list;
      }
    }
    if (!found) {
      throw InvalidArgument(Where(op.op_type, w, true) + " follows " + w.param.follow +
                            ", which is not an input");
    }
  }

  std::vector<Work*> all;
  for (Work& w : ins) all.push_back(&w);
  for (Work& w : outs) all.push_back(&w);
  // The base count: the length shared by every non-list type list.
  size_t n = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    Work& w = *all[i];
    const bool is_output = i >= ins.size();
    if (w.types.empty()) {
      throw InvalidArgument(Where(op.op_type, w, is_output) + " has no DataType");
    }
    if (w.types_list) continue;
    if (n == 0) {
      n = w.types.size();
    } else if (w.types.size() != n) {
      throw InvalidArgument(Where(op.op_type, w, is_output) + " lists " +
                            std::to_string(w.types.size()) + " data types where the others list " +
                            std::to_string(n) + " (the i-th of every list make one combination)");
    }
  }
  if (n == 0) n = 1;
  for (size_t i = 0; i < all.size(); ++i) {
    Work& w = *all[i];
    if (w.formats.empty()) w.formats.assign(w.types_list ? 1 : n, ge::FORMAT_ND);
    if (!w.formats_list && !w.types_list && w.formats.size() != n) {
      throw InvalidArgument(Where(op.op_type, w, i >= ins.size()) + " lists " +
                            std::to_string(w.formats.size()) + " formats and " +
                            std::to_string(w.types.size()) + " data types (the counts must match)");
    }
  }
  // Expand: base combinations x every list parameter's values.
  std::vector<std::vector<size_t>> combos;  // per combination, an index per parameter
  for (size_t c = 0; c < n; ++c) combos.push_back(std::vector<size_t>(all.size(), c));
  for (size_t p = 0; p < all.size(); ++p) {
    if (!all[p]->types_list) continue;
    std::vector<std::vector<size_t>> next;
    for (const std::vector<size_t>& combo : combos) {
      for (size_t v = 0; v < all[p]->types.size(); ++v) {
        std::vector<size_t> c = combo;
        c[p] = v;
        next.push_back(c);
      }
    }
    combos.swap(next);
  }
  for (size_t p = 0; p < all.size(); ++p) {
    Work& w = *all[p];
    for (const std::vector<size_t>& combo : combos) {
      w.param.types.push_back(w.types[combo[p]]);
      const size_t fi = w.formats_list || w.formats.size() == 1 ? 0 : combo[p];
      w.param.formats.push_back(w.formats[fi < w.formats.size() ? fi : 0]);
    }
  }
  op.combinations = combos.size();
  for (Work& w : ins) op.inputs.push_back(w.param);
  for (Work& w : outs) op.outputs.push_back(w.param);

  for (const ops::OpAttrDef& a : d.attrs) {
    const ops::OpAttrDefImpl& ai = OpDefAccess::Of(a);
    ResolvedAttr r;
    r.name = Str(ai.name);
    switch (ai.data_type) {
      case ops::AttrDataType::ATTR_DT_BOOL:
        r.kind = AttrKind::kBool;
        break;
      case ops::AttrDataType::ATTR_DT_FLOAT:
        r.kind = AttrKind::kFloat;
        break;
      case ops::AttrDataType::ATTR_DT_INT:
        r.kind = AttrKind::kInt;
        break;
      case ops::AttrDataType::ATTR_DT_STR:
        r.kind = AttrKind::kString;
        break;
      case ops::AttrDataType::ATTR_DT_LIST_BOOL:
        r.kind = AttrKind::kListBool;
        break;
      case ops::AttrDataType::ATTR_DT_LIST_FLOAT:
        r.kind = AttrKind::kListFloat;
        break;
      case ops::AttrDataType::ATTR_DT_LIST_INT:
        r.kind = AttrKind::kListInt;
        break;
      default:
        r.kind = AttrKind::kListListInt;
        break;
    }
    r.required = ai.required;
    r.has_default = !ai.required;  // an optional attribute always has a value (its type's zero)
    r.bool_value = ai.bool_value;
    r.float_value = ai.float_value;
    r.int_value = ai.int_value;
    r.str_value = Str(ai.str_value);
    r.list_bool = ai.list_bool;
    r.list_float = ai.list_float;
    r.list_int = ai.list_int;
    r.list_list_int = ai.list_list_int;
    op.attrs.push_back(r);
  }

  // Host functions: the OpDef's own, else what IMPL_OP_* registered for the type.
  const ImplFuncs impl = OpFramework::Get().ImplOf(op.op_type);
  op.funcs = impl;
  if (d.infer_shape != nullptr) op.funcs.infer_shape = d.infer_shape;
  if (d.infer_data_type != nullptr) {
    op.funcs.infer_data_type = d.infer_data_type;
    op.funcs.data_type_same_as_first_input = false;
  }
  if (core.tiling_func != nullptr) op.funcs.tiling = core.tiling_func;
  return op;
}

}  // namespace ascsim::op
