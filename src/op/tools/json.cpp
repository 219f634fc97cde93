// Json (json.h): RFC 8259 text, without the \u escapes of characters outside ASCII being decoded
// into anything but UTF-8.
#include "op/tools/json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "ascsim/error.h"

namespace ascsim::op {

Json Json::Bool(bool v) {
  Json j;
  j.kind_ = Kind::kBool;
  j.bool_ = v;
  return j;
}
Json Json::Number(double v) {
  Json j;
  j.kind_ = Kind::kNumber;
  j.number_ = v;
  return j;
}
Json Json::String(std::string v) {
  Json j;
  j.kind_ = Kind::kString;
  j.string_ = std::move(v);
  return j;
}
Json Json::Array() {
  Json j;
  j.kind_ = Kind::kArray;
  return j;
}
Json Json::Object() {
  Json j;
  j.kind_ = Kind::kObject;
  return j;
}

const Json& Json::operator[](const std::string& key) const {
  static const Json null;
  for (const auto& m : members_) {
    if (m.first == key) return m.second;
  }
  return null;
}

Json& Json::Set(const std::string& key, Json value) {
  if (kind_ == Kind::kNull) kind_ = Kind::kObject;
  for (auto& m : members_) {
    if (m.first == key) {
      m.second = std::move(value);
      return *this;
    }
  }
  members_.emplace_back(key, std::move(value));
  return *this;
}

Json& Json::Push(Json value) {
  if (kind_ == Kind::kNull) kind_ = Kind::kArray;
  items_.push_back(std::move(value));
  return *this;
}

namespace {

void Quote(std::string& out, const std::string& s) {
  out += '"';
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  out += '"';
}

class Reader {
 public:
  Reader(const std::string& text, const std::string& where) : s_(text), where_(where) {}

  Json Document() {
    Json v = Value();
    Space();
    if (i_ != s_.size()) Fail("text after the value");
    return v;
  }

 private:
  [[noreturn]] void Fail(const std::string& what) {
    throw InvalidArgument(where_ + ": invalid JSON at offset " + std::to_string(i_) + ": " + what);
  }
  void Space() {
    while (i_ < s_.size() &&
           (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\t' || s_[i_] == '\r')) {
      ++i_;
    }
  }
  bool Eat(char c) {
    Space();
    if (i_ < s_.size() && s_[i_] == c) {
      ++i_;
      return true;
    }
    return false;
  }
  bool Word(const char* w) {
    const std::string word(w);
    if (s_.compare(i_, word.size(), word) == 0) {
      i_ += word.size();
      return true;
    }
    return false;
  }
  std::string Str() {
    if (!Eat('"')) Fail("expected a string");
    std::string out;
    while (i_ < s_.size() && s_[i_] != '"') {
      char c = s_[i_++];
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= s_.size()) Fail("unterminated escape");
      c = s_[i_++];
      switch (c) {
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case 'r':
          out += '\r';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'u': {
          if (i_ + 4 > s_.size()) Fail("short \\u escape");
          const unsigned long cp = std::strtoul(s_.substr(i_, 4).c_str(), nullptr, 16);
          i_ += 4;
          if (cp < 0x80) {
            out += static_cast<char>(cp);
          } else if (cp < 0x800) {
            out += static_cast<char>(0xC0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3F));
          } else {
            out += static_cast<char>(0xE0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
            out += static_cast<char>(0x80 | (cp & 0x3F));
          }
          break;
        }
        default:
          out += c;
      }
    }
    if (i_ >= s_.size()) Fail("unterminated string");
    ++i_;
    return out;
  }
  Json Value() {
    Space();
    if (i_ >= s_.size()) Fail("expected a value");
    const char c = s_[i_];
    if (c == '{') {
      ++i_;
      Json o = Json::Object();
      if (Eat('}')) return o;
      do {
        const std::string key = Str();
        if (!Eat(':')) Fail("expected ':'");
        o.Set(key, Value());
      } while (Eat(','));
      if (!Eat('}')) Fail("expected ',' or '}'");
      return o;
    }
    if (c == '[') {
      ++i_;
      Json a = Json::Array();
      if (Eat(']')) return a;
      do {
        a.Push(Value());
      } while (Eat(','));
      if (!Eat(']')) Fail("expected ',' or ']'");
      return a;
    }
    if (c == '"') return Json::String(Str());
    if (Word("true")) return Json::Bool(true);
    if (Word("false")) return Json::Bool(false);
    if (Word("null")) return Json();
    const char* begin = s_.c_str() + i_;
    char* end = nullptr;
    const double v = std::strtod(begin, &end);
    if (end == begin) Fail("unexpected character");
    i_ += static_cast<size_t>(end - begin);
    return Json::Number(v);
  }

  const std::string& s_;
  const std::string& where_;
  size_t i_ = 0;
};

}  // namespace

void Json::DumpTo(std::string& out, int indent) const {
  const std::string pad(static_cast<size_t>(indent + 2), ' ');
  switch (kind_) {
    case Kind::kNull:
      out += "null";
      return;
    case Kind::kBool:
      out += bool_ ? "true" : "false";
      return;
    case Kind::kNumber: {
      char buf[32];
      if (std::floor(number_) == number_ && std::fabs(number_) < 1e15) {
        std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(number_));
      } else {
        std::snprintf(buf, sizeof buf, "%.17g", number_);
      }
      out += buf;
      return;
    }
    case Kind::kString:
      Quote(out, string_);
      return;
    case Kind::kArray:
      if (items_.empty()) {
        out += "[]";
        return;
      }
      out += "[\n";
      for (size_t i = 0; i < items_.size(); ++i) {
        out += pad;
        items_[i].DumpTo(out, indent + 2);
        out += i + 1 < items_.size() ? ",\n" : "\n";
      }
      out += std::string(static_cast<size_t>(indent), ' ') + "]";
      return;
    case Kind::kObject:
      if (members_.empty()) {
        out += "{}";
        return;
      }
      out += "{\n";
      for (size_t i = 0; i < members_.size(); ++i) {
        out += pad;
        Quote(out, members_[i].first);
        out += ": ";
        members_[i].second.DumpTo(out, indent + 2);
        out += i + 1 < members_.size() ? ",\n" : "\n";
      }
      out += std::string(static_cast<size_t>(indent), ' ') + "}";
      return;
  }
}

std::string Json::Dump() const {
  std::string out;
  DumpTo(out, 0);
  out += "\n";
  return out;
}

Json Json::Parse(const std::string& text, const std::string& where) {
  return Reader(text, where).Document();
}

}  // namespace ascsim::op
