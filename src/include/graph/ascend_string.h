// ge::AscendString (CANN metadef inc/external/graph/ascend_string.h): an immutable string shared
// by copies. Header-only over std::vector<char>, so code built with either libstdc++ ABI
// (-D_GLIBCXX_USE_CXX11_ABI=0, as operator projects build) can pass it to libascsim.
#ifndef ASCSIM_GRAPH_ASCEND_STRING_H_
#define ASCSIM_GRAPH_ASCEND_STRING_H_

#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "graph/types.h"

namespace ge {

class AscendString {
 public:
  AscendString() = default;
  ~AscendString() = default;
  AscendString(const char_t* const name) {  // NOLINT: implicit, as CANN's
    if (name != nullptr) Assign(name, std::strlen(name));
  }
  AscendString(const char_t* const name, size_t length) {
    if (name != nullptr) Assign(name, length);
  }

  const char_t* GetString() const { return name_ ? name_->data() : ""; }
  size_t GetLength() const { return name_ ? name_->size() - 1 : 0; }

  // Position of `ascend_string` in this string, or std::string::npos.
  size_t Find(const AscendString& ascend_string) const {
    const char_t* found = std::strstr(GetString(), ascend_string.GetString());
    return found == nullptr ? std::string::npos : static_cast<size_t>(found - GetString());
  }
  size_t Hash() const {
    size_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < GetLength(); ++i) {
      h = (h ^ static_cast<unsigned char>(GetString()[i])) * 1099511628211ULL;
    }
    return h;
  }

  bool operator<(const AscendString& d) const { return Compare(d) < 0; }
  bool operator>(const AscendString& d) const { return Compare(d) > 0; }
  bool operator<=(const AscendString& d) const { return Compare(d) <= 0; }
  bool operator>=(const AscendString& d) const { return Compare(d) >= 0; }
  bool operator==(const AscendString& d) const { return Compare(d) == 0; }
  bool operator!=(const AscendString& d) const { return Compare(d) != 0; }
  bool operator==(const char_t* const d) const {
    return std::strcmp(GetString(), d == nullptr ? "" : d) == 0;
  }
  bool operator!=(const char_t* const d) const { return !(*this == d); }

 private:
  void Assign(const char_t* name, size_t length) {
    std::shared_ptr<std::vector<char_t>> bytes =
        std::make_shared<std::vector<char_t>>(name, name + length);
    bytes->push_back('\0');
    name_ = bytes;
  }
  int Compare(const AscendString& d) const {
    const size_t n = GetLength() < d.GetLength() ? GetLength() : d.GetLength();
    const int c = std::memcmp(GetString(), d.GetString(), n);
    if (c != 0) return c;
    return GetLength() < d.GetLength() ? -1 : (GetLength() > d.GetLength() ? 1 : 0);
  }

  std::shared_ptr<const std::vector<char_t>> name_;
};

}  // namespace ge

namespace std {
template <>
struct hash<ge::AscendString> {
  size_t operator()(const ge::AscendString& name) const { return name.Hash(); }
};
}  // namespace std

#endif  // ASCSIM_GRAPH_ASCEND_STRING_H_
