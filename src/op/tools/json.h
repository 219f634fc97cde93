// A small JSON value, reader and writer for the operator build tools (opc reads the parameter
// files CANN's ascendc_bin_param_build.py writes and writes the kernel descriptions its
// insert_simplified_keys.py and ascendc_ops_config.py read).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ascsim::op {

class Json {
 public:
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };

  Json() = default;
  static Json Bool(bool v);
  static Json Number(double v);
  static Json String(std::string v);
  static Json Array();
  static Json Object();

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::kNull; }
  bool as_bool() const { return bool_; }
  double as_number() const { return number_; }
  const std::string& as_string() const { return string_; }
  const std::vector<Json>& items() const { return items_; }
  // Members in the order they were read or added.
  const std::vector<std::pair<std::string, Json>>& members() const { return members_; }

  // The member `key` of an object (a null value when absent or not an object).
  const Json& operator[](const std::string& key) const;
  // Adds or replaces a member (the value becomes an object if it was null).
  Json& Set(const std::string& key, Json value);
  // Appends to an array (the value becomes an array if it was null).
  Json& Push(Json value);

  // Two-space indented text.
  std::string Dump() const;

  // Throws InvalidArgument naming `where` and the offset of the first error.
  static Json Parse(const std::string& text, const std::string& where);

 private:
  void DumpTo(std::string& out, int indent) const;

  Kind kind_ = Kind::kNull;
  bool bool_ = false;
  double number_ = 0;
  std::string string_;
  std::vector<Json> items_;
  std::vector<std::pair<std::string, Json>> members_;
};

}  // namespace ascsim::op
