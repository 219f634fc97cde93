// The <<<>>> rewrite and the kernel scan (launch_transform.h). A small C++ lexer splits the source
// into tokens and skips comments, literals and preprocessor lines; both passes work on the tokens
// and edit the source text by offset, so everything else is copied byte for byte.
#include "launch_transform.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <set>
#include <sstream>

namespace ascsim::toolkit {
namespace {

enum class Tok { kIdent, kNumber, kString, kChar, kPunct, kPreproc };

struct Token {
  Tok kind;
  size_t begin;
  size_t end;
  int line;
  int column;
};

bool IsIdentStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}
bool IsIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}

class Lexer {
 public:
  Lexer(std::string_view src, std::vector<Diagnostic>* diags) : s_(src), diags_(diags) {}

  std::vector<Token> Run() {
    std::vector<Token> out;
    bool line_start = true;  // only whitespace and comments so far on this line
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == '\n') {
        Advance();
        line_start = true;
        continue;
      }
      if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        Advance();
        continue;
      }
      if (c == '\\' && Peek(1) == '\n') {  // a line splice outside a directive
        Advance();
        Advance();
        continue;
      }
      if (c == '/' && Peek(1) == '/') {
        SkipLineComment();
        continue;
      }
      if (c == '/' && Peek(1) == '*') {
        if (!SkipBlockComment()) return out;
        continue;
      }
      const size_t begin = i_;
      const int line = line_, column = Column();
      Tok kind;
      if (c == '#' && line_start) {
        if (!SkipDirective()) return out;
        out.push_back({Tok::kPreproc, begin, i_, line, column});
        OnDirective(begin, i_);
        // A group the preprocessor skips (`#if 0`, the branches after `#if 1`) is no code: only
        // its directives are read, up to the one that ends it (a token of its own).
        while (Skipping() && i_ < s_.size()) {
          size_t d_begin = 0;
          int d_line = 0, d_column = 0;
          if (!SkipGroup(&d_begin, &d_line, &d_column)) break;
          out.push_back({Tok::kPreproc, d_begin, i_, d_line, d_column});
        }
        line_start = false;
        continue;
      } else if (IsIdentStart(c)) {
        while (i_ < s_.size() && IsIdentChar(s_[i_])) Advance();
        const std::string_view word = s_.substr(begin, i_ - begin);
        if (i_ < s_.size() && s_[i_] == '"' &&
            (word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR")) {
          if (!SkipRawString(line, column)) return out;
          kind = Tok::kString;
        } else if (i_ < s_.size() && (s_[i_] == '"' || s_[i_] == '\'') &&
                   (word == "u8" || word == "u" || word == "U" || word == "L")) {
          const char quote = s_[i_];
          const Mark mark = Here();
          if (SkipQuoted(quote, line, column, Lenient())) {
            kind = quote == '"' ? Tok::kString : Tok::kChar;
          } else if (Lenient()) {
            Back(mark);  // the prefix is a word; the lone quote follows (see below)
            kind = Tok::kIdent;
          } else {
            return out;
          }
        } else {
          kind = Tok::kIdent;
        }
      } else if (std::isdigit(static_cast<unsigned char>(c)) ||
                 (c == '.' && std::isdigit(static_cast<unsigned char>(Peek(1))))) {
        SkipNumber();
        kind = Tok::kNumber;
      } else if (c == '"' || c == '\'') {
        const Mark mark = Here();
        if (SkipQuoted(c, line, column, Lenient())) {
          kind = c == '"' ? Tok::kString : Tok::kChar;
        } else if (Lenient()) {
          // Inside a conditional group that may be skipped (`#ifdef OLD` ... "it's" ...): the
          // quote is a lone punctuator and the compiler judges the group if it is compiled.
          Back(mark);
          Advance();
          kind = Tok::kPunct;
        } else {
          return out;
        }
      } else {
        Advance();
        kind = Tok::kPunct;
      }
      line_start = false;
      out.push_back({kind, begin, i_, line, column});
    }
    return out;
  }

 private:
  struct Mark {
    size_t i;
    int line;
    size_t line_begin;
  };
  Mark Here() const { return {i_, line_, line_begin_}; }
  void Back(const Mark& m) {
    i_ = m.i;
    line_ = m.line;
    line_begin_ = m.line_begin;
  }
  char Peek(size_t ahead) const { return i_ + ahead < s_.size() ? s_[i_ + ahead] : '\0'; }
  int Column() const { return static_cast<int>(i_ - line_begin_) + 1; }
  void Advance() {
    if (s_[i_] == '\n') {
      ++line_;
      line_begin_ = i_ + 1;
    }
    ++i_;
  }
  void Error(int line, int column, std::string message) {
    if (Lenient()) return;  // an unterminated quote in a group that may be skipped
    diags_->push_back({line, column, true, std::move(message)});
  }

  // ---- conditional groups (#if / #ifdef / #elif / #else / #endif) ----
  // Conditions the rewrite can evaluate are integer literals and true / false (`#if 0`,
  // `#elif 1`); others (defined(X), macros) may go either way, so their groups are scanned.
  struct Group {
    bool taken = false;     // an earlier branch is certainly compiled
    bool unknown = false;   // an earlier branch may be compiled
    bool skipping = false;  // the current branch is certainly not compiled
  };
  enum class Cond { kFalse, kTrue, kUnknown };

  bool Skipping() const { return !groups_.empty() && groups_.back().skipping; }
  // Inside a conditional group an unterminated quote is not the rewrite's error.
  bool Lenient() const { return !groups_.empty(); }

  static std::string_view Trim(std::string_view v) {
    while (!v.empty() && std::isspace(static_cast<unsigned char>(v.front()))) v.remove_prefix(1);
    while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.remove_suffix(1);
    return v;
  }
  // The directive's text without comments and line splices.
  static std::string Clean(std::string_view d) {
    std::string out;
    for (size_t i = 0; i < d.size(); ++i) {
      if (d[i] == '\\' && i + 1 < d.size() && d[i + 1] == '\n') {
        ++i;
      } else if (d.compare(i, 2, "//") == 0) {
        break;
      } else if (d.compare(i, 2, "/*") == 0) {
        const size_t end = d.find("*/", i + 2);
        if (end == std::string_view::npos) break;
        out += ' ';
        i = end + 1;
      } else {
        out += d[i];
      }
    }
    return out;
  }
  static Cond Evaluate(std::string_view expr) {
    expr = Trim(expr);
    while (expr.size() >= 2 && expr.front() == '(' && expr.back() == ')') {
      expr = Trim(expr.substr(1, expr.size() - 2));
    }
    if (expr == "true") return Cond::kTrue;
    if (expr == "false") return Cond::kFalse;
    size_t digits = 0;
    while (digits < expr.size() && std::isdigit(static_cast<unsigned char>(expr[digits]))) ++digits;
    if (digits == 0) return Cond::kUnknown;
    std::string_view suffix = expr.substr(digits);
    while (!suffix.empty() && std::strchr("uUlL", suffix.front()) != nullptr) {
      suffix.remove_prefix(1);
    }
    if (!suffix.empty()) return Cond::kUnknown;
    return expr.find_first_not_of('0') < digits ? Cond::kTrue : Cond::kFalse;
  }
  // Updates the conditional state for the directive in [begin, end).
  void OnDirective(size_t begin, size_t end) {
    const std::string text = Clean(s_.substr(begin + 1, end - begin - 1));
    std::string_view rest = Trim(text);
    size_t n = 0;
    while (n < rest.size() && IsIdentChar(rest[n])) ++n;
    const std::string_view word = rest.substr(0, n);
    const std::string_view arg = rest.substr(n);
    const bool outer_skipping = Skipping();
    auto branch = [&](Group& g, Cond c) {  // a new branch of group g with condition c
      if (g.taken) {
        g.skipping = true;
      } else if (c == Cond::kFalse) {
        g.skipping = true;
      } else {
        g.skipping = false;
        if (c == Cond::kTrue && !g.unknown) g.taken = true;
        if (c == Cond::kUnknown) g.unknown = true;
      }
    };
    if (word == "if" || word == "ifdef" || word == "ifndef") {
      Group g;
      if (outer_skipping) {
        g.taken = true;  // nested in a skipped group: every branch is skipped
        g.skipping = true;
      } else {
        branch(g, word == "if" ? Evaluate(arg) : Cond::kUnknown);
      }
      groups_.push_back(g);
    } else if (groups_.empty()) {
      return;  // #else / #endif without #if: the compiler says so
    } else if (word == "elif" || word == "elifdef" || word == "elifndef") {
      branch(groups_.back(), word == "elif" ? Evaluate(arg) : Cond::kUnknown);
    } else if (word == "else") {
      branch(groups_.back(), Cond::kTrue);
    } else if (word == "endif") {
      groups_.pop_back();
    }
  }
  // Skips the text of a skipped group up to and including the next directive, which it reads
  // (nested groups included); returns false at the end of the input. Comments are honoured (a
  // block comment may hide a line); quotes are not (a note may hold an apostrophe).
  bool SkipGroup(size_t* d_begin, int* d_line, int* d_column) {
    bool line_start = true;
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == '\n') {
        Advance();
        line_start = true;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        Advance();
      } else if (c == '\\' && Peek(1) == '\n') {
        Advance();
        Advance();
      } else if (c == '/' && Peek(1) == '/') {
        SkipLineComment();
      } else if (c == '/' && Peek(1) == '*') {
        Advance();
        Advance();
        while (i_ < s_.size() && !(s_[i_] == '*' && Peek(1) == '/')) Advance();
        if (i_ < s_.size()) {
          Advance();
          Advance();
        }
      } else if (c == '#' && line_start) {
        *d_begin = i_;
        *d_line = line_;
        *d_column = Column();
        while (i_ < s_.size() && s_[i_] != '\n') {
          if (s_[i_] == '\\' && Peek(1) == '\n') Advance();
          Advance();
        }
        OnDirective(*d_begin, i_);
        return true;
      } else {
        Advance();
        line_start = false;
      }
    }
    return false;
  }

  void SkipLineComment() {  // a backslash at the end of the line continues the comment
    while (i_ < s_.size() && !(s_[i_] == '\n' && s_[i_ - 1] != '\\')) Advance();
  }
  bool SkipBlockComment() {
    const int line = line_, column = Column();
    Advance();
    Advance();
    while (i_ < s_.size() && !(s_[i_] == '*' && Peek(1) == '/')) Advance();
    if (i_ >= s_.size()) {
      Error(line, column, "unterminated comment");
      return false;
    }
    Advance();
    Advance();
    return true;
  }
  // `quiet`: an unterminated literal is not reported (the caller carries on).
  bool SkipQuoted(char quote, int line, int column, bool quiet = false) {
    Advance();
    while (i_ < s_.size() && s_[i_] != quote) {
      if (s_[i_] == '\n') break;
      if (s_[i_] == '\\' && i_ + 1 < s_.size()) Advance();
      Advance();
    }
    if (i_ >= s_.size() || s_[i_] != quote) {
      if (!quiet) {
        Error(line, column,
              quote == '"' ? "unterminated string literal" : "unterminated character literal");
      }
      return false;
    }
    Advance();
    return true;
  }
  // R"delim( ... )delim"
  bool SkipRawString(int line, int column) {
    Advance();  // the opening quote
    const size_t delim_begin = i_;
    while (i_ < s_.size() && s_[i_] != '(' && s_[i_] != '"' && s_[i_] != '\n') Advance();
    if (i_ >= s_.size() || s_[i_] != '(') {
      Error(line, column, "malformed raw string literal");
      return false;
    }
    const std::string close = ")" + std::string(s_.substr(delim_begin, i_ - delim_begin)) + "\"";
    const size_t end = s_.find(close, i_);
    if (end == std::string_view::npos) {
      Error(line, column, "unterminated raw string literal");
      return false;
    }
    while (i_ < end + close.size()) Advance();
    return true;
  }
  // A pp-number: digits, letters, '.', digit separators and exponent signs.
  void SkipNumber() {
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (IsIdentChar(c) || c == '.') {
        Advance();
      } else if (c == '\'' && IsIdentChar(Peek(1))) {
        Advance();
      } else if ((c == '+' || c == '-') && i_ > 0 &&
                 (s_[i_ - 1] == 'e' || s_[i_ - 1] == 'E' || s_[i_ - 1] == 'p' ||
                  s_[i_ - 1] == 'P')) {
        Advance();
      } else {
        break;
      }
    }
  }
  // A directive runs to the end of its logical line; comments and literals inside it may not
  // end it early (a "//" inside #include "a//b" is not a comment).
  bool SkipDirective() {
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == '\n') return true;
      if (c == '\\' && Peek(1) == '\n') {
        Advance();
        Advance();
      } else if (c == '/' && Peek(1) == '/') {
        SkipLineComment();
      } else if (c == '/' && Peek(1) == '*') {
        if (!SkipBlockComment()) return false;
      } else if (c == '"' || c == '\'') {
        // The compiler judges a directive's quotes (`#error it's wrong` is one warning).
        SkipQuoted(c, line_, Column(), /*quiet=*/true);
      } else {
        Advance();
      }
    }
    return true;
  }

  std::string_view s_;
  std::vector<Diagnostic>* diags_;
  size_t i_ = 0;
  int line_ = 1;
  size_t line_begin_ = 0;
  std::vector<Group> groups_;
};

class Scanner {
 public:
  Scanner(std::string_view src, const std::vector<Token>& toks) : s_(src), t_(toks) {}

  std::string_view Text(size_t i) const { return s_.substr(t_[i].begin, t_[i].end - t_[i].begin); }
  bool IsPunct(size_t i, char c) const {
    return i < t_.size() && t_[i].kind == Tok::kPunct && s_[t_[i].begin] == c;
  }
  bool IsIdent(size_t i, std::string_view word = {}) const {
    return i < t_.size() && t_[i].kind == Tok::kIdent && (word.empty() || Text(i) == word);
  }
  // Three punctuators `c` with nothing between them.
  bool IsTriple(size_t i, char c) const {
    return IsPunct(i, c) && IsPunct(i + 1, c) && IsPunct(i + 2, c) &&
           t_[i].end == t_[i + 1].begin && t_[i + 1].end == t_[i + 2].begin;
  }
  bool IsScope(size_t i) const {  // `::`
    return IsPunct(i, ':') && IsPunct(i + 1, ':') && t_[i].end == t_[i + 1].begin;
  }
  // The index of the bracket matching the opening one at `open` ((, [, {), or npos.
  size_t MatchForward(size_t open) const {
    int depth = 0;
    for (size_t i = open; i < t_.size(); ++i) {
      if (t_[i].kind != Tok::kPunct) continue;
      const char c = s_[t_[i].begin];
      if (c == '(' || c == '[' || c == '{') ++depth;
      if (c == ')' || c == ']' || c == '}') {
        if (--depth == 0) return i;
      }
    }
    return std::string_view::npos;
  }
  // Given the `>` closing a template argument list at `close`, the index of its `<`, or npos.
  size_t MatchAngleBackward(size_t close) const {
    int angle = 0, paren = 0;
    for (size_t i = close + 1; i-- > 0;) {
      if (t_[i].kind != Tok::kPunct) continue;
      const char c = s_[t_[i].begin];
      if (c == ')' || c == ']') ++paren;
      if (c == '(' || c == '[') --paren;
      if (c == ';' || c == '{' || c == '}') return std::string_view::npos;
      if (paren != 0) continue;
      if (c == '>') ++angle;
      if (c == '<' && --angle == 0) return i;
    }
    return std::string_view::npos;
  }
  // Tokens [first, last] as one line: a space only where one separates two words, and after
  // commas ("ns::k<half, 16>", "__gm__ uint8_t*", "unsigned int").
  std::string Collapse(size_t first, size_t last) const {
    std::string out;
    for (size_t i = first; i <= last; ++i) {
      if (i > first) {
        const bool gap = t_[i].begin > t_[i - 1].end;
        if ((gap && IsIdentChar(out.back()) && IsIdentChar(s_[t_[i].begin])) || out.back() == ',')
          out += ' ';
      }
      out += Text(i);
    }
    return out;
  }

  std::string_view s_;
  const std::vector<Token>& t_;
};

struct Edit {
  size_t offset;
  size_t remove;
  std::string insert;
};

// The callee of a launch whose `<<<` starts at token `lt`: the first token of `ns::k<T, N>`.
size_t FindCallee(const Scanner& sc, size_t lt, std::string* name, Diagnostic* error) {
  const auto& t = sc.t_;
  auto fail = [&](std::string message) {
    *error = {t[lt].line, t[lt].column, true, std::move(message)};
    return std::string_view::npos;
  };
  if (lt == 0) return fail("'<<<' without a kernel before it");
  size_t pos = lt - 1;
  if (sc.IsPunct(pos, '>')) {  // kernel<T, N><<<...>>>
    const size_t open = sc.MatchAngleBackward(pos);
    if (open == std::string_view::npos || open == 0) {
      return fail("cannot find the '<' opening the kernel's template arguments before '<<<'");
    }
    pos = open - 1;
  }
  if (!sc.IsIdent(pos)) {
    return fail("expected a kernel name before '<<<' (kernel<<<blockDim, l2ctrl, stream>>>(...))");
  }
  *name = std::string(sc.Text(pos));
  size_t first = pos;
  while (first >= 2 && sc.IsScope(first - 2)) {  // ns::kernel, ::kernel
    if (first >= 3 && sc.IsIdent(first - 3)) {
      first -= 3;
    } else {
      first -= 2;
      break;
    }
  }
  if (first > 0 && (sc.IsPunct(first - 1, '.') ||
                    (sc.IsPunct(first - 1, '>') && first >= 2 && sc.IsPunct(first - 2, '-')))) {
    return fail("a kernel launched with <<<>>> must be a function, not a member ('" + *name + "')");
  }
  return first;
}

// The rewrite of one launch at `lt` (the first '<' of "<<<"); returns the token after it.
size_t RewriteLaunch(const Scanner& sc, size_t lt, std::vector<Edit>* edits,
                     std::vector<Diagnostic>* diags) {
  const auto& t = sc.t_;
  std::string name;
  Diagnostic error;
  const size_t callee = FindCallee(sc, lt, &name, &error);
  if (callee == std::string_view::npos) {
    diags->push_back(error);
    return lt + 3;
  }
  // The configuration runs to ">>>" at bracket depth 0.
  int depth = 0;
  size_t gt = std::string_view::npos;
  int commas = 0;
  for (size_t i = lt + 3; i < t.size(); ++i) {
    if (t[i].kind == Tok::kPunct) {
      const char c = sc.s_[t[i].begin];
      if (c == '(' || c == '[' || c == '{') ++depth;
      if (c == ')' || c == ']' || c == '}') {
        if (--depth < 0) break;
      }
      if (c == ';' && depth == 0) break;
      if (c == ',' && depth == 0) ++commas;
      if (depth == 0 && sc.IsTriple(i, '>')) {
        gt = i;
        break;
      }
    }
  }
  if (gt == std::string_view::npos) {
    diags->push_back({t[lt].line, t[lt].column, true,
                      "'<<<' of the launch of '" + name + "' has no matching '>>>'"});
    return lt + 3;
  }
  if (commas < 1 || commas > 2) {
    diags->push_back({t[lt].line, t[lt].column, true,
                      "the launch of '" + name + "' needs <<<blockDim, l2ctrl, stream>>> (found " +
                          std::to_string(commas + 1) + " value" + (commas == 0 ? "" : "s") + ")"});
    return gt + 3;
  }
  const size_t lparen = gt + 3;
  if (!sc.IsPunct(lparen, '(')) {
    const size_t at = lparen < t.size() ? lparen : gt;
    diags->push_back(
        {t[at].line, t[at].column, true,
         "expected '(' with the kernel arguments after '>>>' of the launch of '" + name + "'"});
    return gt + 3;
  }
  if (sc.MatchForward(lparen) == std::string_view::npos) {
    diags->push_back({t[lparen].line, t[lparen].column, true,
                      "the argument list of the launch of '" + name + "' is not closed"});
    return lparen + 1;
  }
  const std::string display = sc.Collapse(callee, lt - 1);
  std::string quoted;
  for (char c : display) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  edits->push_back({t[callee].begin, 0, "::ascsim::acl::ChevronLaunch(\"" + quoted + "\", &"});
  edits->push_back({t[lt].begin, 3, ", "});
  edits->push_back({t[gt].begin, 3, ")"});
  return lparen;  // the arguments may hold launches too
}

const std::set<std::string_view>& ScalarWords() {
  static const std::set<std::string_view> words = {
      "bool",     "char",       "short",     "int",      "long",     "unsigned", "signed",
      "float",    "double",     "int8_t",    "int16_t",  "int32_t",  "int64_t",  "uint8_t",
      "uint16_t", "uint32_t",   "uint64_t",  "size_t",   "ssize_t",  "intptr_t", "uintptr_t",
      "half",     "bfloat16_t", "float16_t", "char16_t", "char32_t", "wchar_t"};
  return words;
}
const std::set<std::string_view>& QualifierWords() {
  static const std::set<std::string_view> words = {
      "const", "volatile", "__gm__", "__restrict__", "__restrict", "restrict", "__ubuf__"};
  return words;
}

KernelParam ParseParam(const Scanner& sc, size_t first, size_t last) {
  KernelParam p;
  // Drop a default argument.
  int depth = 0;
  for (size_t i = first; i <= last; ++i) {
    if (sc.IsPunct(i, '(') || sc.IsPunct(i, '<') || sc.IsPunct(i, '[')) ++depth;
    if (sc.IsPunct(i, ')') || sc.IsPunct(i, '>') || sc.IsPunct(i, ']')) --depth;
    if (depth == 0 && sc.IsPunct(i, '=')) {
      last = i - 1;
      break;
    }
  }
  size_t type_last = last;
  if (sc.IsIdent(last) && last > first && !ScalarWords().count(sc.Text(last)) &&
      !QualifierWords().count(sc.Text(last)) && !sc.IsPunct(last - 1, ':')) {
    bool type_left = false;  // something other than qualifiers before the name
    for (size_t i = first; i < last; ++i) {
      if (!(sc.IsIdent(i) && QualifierWords().count(sc.Text(i)))) type_left = true;
    }
    if (type_left) {
      p.name = std::string(sc.Text(last));
      type_last = last - 1;
    }
  }
  p.type = sc.Collapse(first, type_last);
  bool pointer = false, all_scalar = true, any_word = false;
  for (size_t i = first; i <= type_last; ++i) {
    if (sc.IsPunct(i, '*')) pointer = true;
    if (sc.IsIdent(i, "GM_ADDR")) pointer = true;
    if (sc.IsIdent(i) && !QualifierWords().count(sc.Text(i))) {
      any_word = true;
      if (!ScalarWords().count(sc.Text(i))) all_scalar = false;
    }
    if (sc.IsPunct(i, '<') || sc.IsPunct(i, ':') || sc.IsPunct(i, '&')) all_scalar = false;
  }
  p.kind = pointer                    ? KernelParam::Kind::kPointer
           : (all_scalar && any_word) ? KernelParam::Kind::kScalar
                                      : KernelParam::Kind::kOther;
  return p;
}

// "#  else  // x" -> "else".
std::string_view DirectiveWord(std::string_view directive) {
  size_t i = 1;
  while (i < directive.size() && (directive[i] == ' ' || directive[i] == '\t')) ++i;
  size_t j = i;
  while (j < directive.size() && IsIdentChar(directive[j])) ++j;
  return directive.substr(i, j - i);
}

// The kernel whose __global__ is token `g`, if it is a definition.
bool ParseKernel(const Scanner& sc, size_t g, const std::vector<std::string>& namespaces,
                 KernelSignature* k) {
  const auto& t = sc.t_;
  // `template <...>` before it, within the same declaration.
  for (size_t i = g; i-- > 0;) {
    if (t[i].kind == Tok::kPreproc || sc.IsPunct(i, ';') || sc.IsPunct(i, '{') ||
        sc.IsPunct(i, '}'))
      break;
    if (sc.IsIdent(i, "template")) k->is_template = true;
  }
  size_t i = g + 1;
  size_t name = std::string_view::npos;
  while (i < t.size()) {
    if (sc.IsPunct(i, ';') || sc.IsPunct(i, '{') || t[i].kind == Tok::kPreproc) return false;
    if (sc.IsPunct(i, '[') && sc.IsPunct(i + 1, '[')) {  // [[attribute]]
      const size_t close = sc.MatchForward(i);
      if (close == std::string_view::npos) return false;
      i = close + 1;
      continue;
    }
    if (sc.IsIdent(i) && sc.IsPunct(i + 1, '(')) {
      const std::string_view word = sc.Text(i);
      if (word == "__attribute__" || word == "__mix__" || word == "__declspec" ||
          word == "alignas") {
        const size_t close = sc.MatchForward(i + 1);
        if (close == std::string_view::npos) return false;
        // __mix__(aic, aiv): two integer literals.
        if (word == "__mix__" && close == i + 5 && sc.IsPunct(i + 3, ',')) {
          const std::string a(sc.Text(i + 2)), v(sc.Text(i + 4));
          if (!a.empty() && !v.empty() && std::isdigit(static_cast<unsigned char>(a[0])) &&
              std::isdigit(static_cast<unsigned char>(v[0]))) {
            k->mix_aic = std::atoi(a.c_str());
            k->mix_aiv = std::atoi(v.c_str());
          }
        }
        i = close + 1;
        continue;
      }
      name = i;
      break;
    }
    ++i;
  }
  if (name == std::string_view::npos) return false;
  const size_t lparen = name + 1;
  const size_t rparen = sc.MatchForward(lparen);
  if (rparen == std::string_view::npos) return false;
  // A definition has its body next (after qualifiers such as noexcept). The declarator may be
  // one branch of a conditional group sharing the body after #endif:
  //   #if X / void k(GM_ADDR x, uint32_t n) / #else / void k(GM_ADDR x) / #endif / { ... }
  size_t body = rparen + 1;
  while (body < t.size() && !sc.IsPunct(body, '{') && !sc.IsPunct(body, ';') &&
         !sc.IsPunct(body, '=')) {
    if (t[body].kind == Tok::kPreproc) {
      const std::string_view word = DirectiveWord(sc.Text(body));
      if (word == "else" || word == "elif" || word == "elifdef" || word == "elifndef") {
        // The other branches: up to this group's #endif.
        int depth = 0;
        for (++body; body < t.size(); ++body) {
          if (t[body].kind != Tok::kPreproc) continue;
          const std::string_view w = DirectiveWord(sc.Text(body));
          if (w == "if" || w == "ifdef" || w == "ifndef") ++depth;
          if (w == "endif" && depth-- == 0) break;
        }
      } else if (word != "endif") {
        return false;  // another directive between the declarator and a body
      }
    }
    ++body;
  }
  if (!sc.IsPunct(body, '{')) return false;

  k->name = std::string(sc.Text(name));
  k->qualified_name.clear();
  for (const std::string& ns : namespaces) {
    if (!ns.empty()) k->qualified_name += ns + "::";
  }
  k->qualified_name += k->name;
  k->line = t[name].line;
  k->body_offset = t[body].end;
  // Parameters: split at top-level commas.
  size_t first = lparen + 1;
  int depth = 0;
  for (size_t j = lparen + 1; j <= rparen; ++j) {
    const bool end = j == rparen;
    if (!end) {
      if (sc.IsPunct(j, '(') || sc.IsPunct(j, '[') || sc.IsPunct(j, '{') || sc.IsPunct(j, '<'))
        ++depth;
      if (sc.IsPunct(j, ')') || sc.IsPunct(j, ']') || sc.IsPunct(j, '}') || sc.IsPunct(j, '>'))
        --depth;
    }
    if (end || (depth == 0 && sc.IsPunct(j, ','))) {
      if (j > first && !(j == first + 1 && sc.IsIdent(first, "void"))) {
        k->params.push_back(ParseParam(sc, first, j - 1));
        for (size_t q = first; q < j; ++q) {
          if (sc.IsIdent(q, "__kfc_workspace__")) k->kfc_workspace = k->params.back().name;
        }
      }
      first = j + 1;
    }
  }
  return true;
}

std::vector<KernelSignature> FindKernels(const Scanner& sc) {
  const auto& t = sc.t_;
  std::vector<KernelSignature> kernels;
  // The kinds of the open braces: a namespace name ("" for anonymous), or nothing.
  struct Scope {
    bool is_namespace;
    std::vector<std::string> names;
  };
  std::vector<Scope> scopes;
  std::vector<std::string> pending_ns;
  bool pending = false;
  for (size_t i = 0; i < t.size(); ++i) {
    if (t[i].kind == Tok::kPreproc) continue;
    if (sc.IsIdent(i, "namespace") && !sc.IsPunct(i + 2, '=')) {
      pending = true;
      pending_ns.clear();
      size_t j = i + 1;
      while (sc.IsIdent(j) || sc.IsScope(j)) {
        if (sc.IsIdent(j)) pending_ns.emplace_back(sc.Text(j));
        j += sc.IsScope(j) ? 2 : 1;
      }
      if (!sc.IsPunct(j, '{')) pending = false;
      if (pending && pending_ns.empty()) pending_ns.emplace_back();
      continue;
    }
    if (sc.IsPunct(i, '{')) {
      scopes.push_back({pending, pending ? pending_ns : std::vector<std::string>{}});
      pending = false;
      continue;
    }
    if (sc.IsPunct(i, '}')) {
      if (!scopes.empty()) scopes.pop_back();
      continue;
    }
    if (sc.IsIdent(i, "__global__")) {
      std::vector<std::string> namespaces;
      for (const Scope& s : scopes) {
        if (s.is_namespace) namespaces.insert(namespaces.end(), s.names.begin(), s.names.end());
      }
      KernelSignature k;
      if (ParseKernel(sc, i, namespaces, &k)) kernels.push_back(std::move(k));
    }
  }
  return kernels;
}

std::string Quote(std::string_view path) {
  std::string out = "\"";
  for (char c : path) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// The launcher's parameter names: the kernel's, unless missing or taken by blockDim / stream.
std::vector<std::string> ParamNames(const KernelSignature& k) {
  std::vector<std::string> names;
  for (size_t i = 0; i < k.params.size(); ++i) {
    const std::string& n = k.params[i].name;
    const bool taken = n.empty() || n == "blockDim" || n == "stream" ||
                       std::count(names.begin(), names.end(), n) != 0;
    names.push_back(taken ? "arg" + std::to_string(i) : n);
  }
  return names;
}

std::string StripWords(const std::string& type, std::initializer_list<std::string_view> words) {
  std::istringstream in(type);
  std::string word, out;
  // Tokens were joined with single spaces by Collapse; drop the qualifiers g++ has no use for.
  while (in >> word) {
    if (std::find(words.begin(), words.end(), word) != words.end()) continue;
    if (!out.empty()) out += ' ';
    out += word;
  }
  return out;
}

std::string LauncherSignature(const KernelSignature& k) {
  const std::vector<std::string> names = ParamNames(k);
  std::string sig = "uint32_t aclrtlaunch_" + k.name + "(uint32_t blockDim, aclrtStream stream";
  for (size_t i = 0; i < k.params.size(); ++i) {
    const KernelParam& p = k.params[i];
    sig += ", ";
    switch (p.kind) {
      case KernelParam::Kind::kPointer:
        sig += "void* ";
        break;
      case KernelParam::Kind::kScalar:
        sig += StripWords(p.type, {"__gm__", "__restrict__", "__restrict", "restrict"}) + " ";
        break;
      case KernelParam::Kind::kOther:
        sig += "::ascsim::acl::LauncherParam<" +
               StripWords(p.type, {"__gm__", "__restrict__", "__restrict", "restrict"}) + "> ";
        break;
    }
    sig += names[i];
  }
  return sig + ")";
}

}  // namespace

bool TransformResult::ok() const {
  return std::none_of(diagnostics.begin(), diagnostics.end(),
                      [](const Diagnostic& d) { return d.error; });
}

// `__cbuf__ T name[d1]...[dn];` (or __ca__, __cb__, __cc__) at token `q`: an array the device
// compiler places in L1 (L0A, L0B, L0C). Rewritten into an ascsim::tensor_api::LocalArray of
// d1 * ... * dn elements in that memory (ascsim/tensor_api/local_array.h), on the same lines.
// Returns whether it rewrote; other uses of the qualifiers (pointers, parameters) stay.
bool RewriteLocalArray(const Scanner& sc, std::string_view source, const std::vector<Token>& toks,
                       size_t q, std::vector<Edit>* edits) {
  static const std::pair<std::string_view, const char*> kQualifiers[] = {
      {"__cbuf__", "kL1"}, {"__ca__", "kL0A"}, {"__cb__", "kL0B"}, {"__cc__", "kL0C"}};
  const char* loc = nullptr;
  for (const auto& [word, l] : kQualifiers) {
    if (sc.IsIdent(q, word)) loc = l;
  }
  if (loc == nullptr) return false;
  // The element type: words and `::` up to the name, which a `[` follows.
  size_t name = q + 1;
  while (name < toks.size() && !(sc.IsIdent(name) && sc.IsPunct(name + 1, '['))) {
    if (!sc.IsIdent(name) && !sc.IsPunct(name, ':')) return false;
    ++name;
  }
  if (name >= toks.size() || name == q + 1) return false;
  std::string type;
  for (size_t i = q + 1; i < name; ++i) {
    if (!type.empty() && sc.IsIdent(i) && sc.IsIdent(i - 1)) type += ' ';
    type += sc.Text(i);
  }
  std::string count;
  size_t at = name + 1;
  while (sc.IsPunct(at, '[')) {
    const size_t close = sc.MatchForward(at);
    if (close == std::string_view::npos || close == at + 1) return false;
    const size_t from = toks[at + 1].begin, to = toks[close - 1].end;
    if (!count.empty()) count += " * ";
    count += "(" + std::string(source.substr(from, to - from)) + ")";
    at = close + 1;
  }
  if (!sc.IsPunct(at, ';')) return false;
  const size_t begin = toks[q].begin, end = toks[at].end;
  std::string text = "::ascsim::tensor_api::LocalArray<" + type +
                     ", ::ascsim::tensor_api::Loc::" + loc + ", " + count + "> " +
                     std::string(sc.Text(name)) + "{\"" + std::string(sc.Text(name)) + "\"};";
  const std::string_view removed = source.substr(begin, end - begin);
  text.append(static_cast<size_t>(std::count(removed.begin(), removed.end(), '\n')), '\n');
  edits->push_back({begin, end - begin, std::move(text)});
  return true;
}

TransformResult TransformSource(std::string_view source, const TransformOptions& options) {
  TransformResult result;
  // A UTF-8 byte order mark is only allowed at the start of a file; the rewrite puts lines
  // before the source, so it goes.
  if (source.substr(0, 3) == "\xEF\xBB\xBF") source.remove_prefix(3);
  const std::vector<Token> toks = Lexer(source, &result.diagnostics).Run();
  if (!result.ok()) return result;
  Scanner sc(source, toks);
  std::vector<Edit> edits;
  int local_arrays = 0;
  for (size_t i = 0; i < toks.size();) {
    if (toks[i].kind == Tok::kIdent && RewriteLocalArray(sc, source, toks, i, &edits)) {
      ++local_arrays;
      ++i;
      continue;
    }
    if (toks[i].kind == Tok::kPreproc &&
        source.substr(toks[i].begin, toks[i].end - toks[i].begin).find("<<<") !=
            std::string_view::npos) {
      result.diagnostics.push_back(
          {toks[i].line, toks[i].column, false,
           "'<<<' inside a preprocessor directive is not rewritten (launch outside macros)"});
    }
    if (sc.IsTriple(i, '<') && !(i > 0 && sc.IsIdent(i - 1, "operator")) &&
        !(i + 3 < toks.size() && sc.IsPunct(i + 3, '<') && toks[i + 2].end == toks[i + 3].begin)) {
      const size_t before = edits.size();
      i = RewriteLaunch(sc, i, &edits, &result.diagnostics);
      if (edits.size() > before) ++result.launches;
      continue;
    }
    ++i;
  }
  result.kernels = FindKernels(sc);
  if (!result.ok()) return result;
  // What the device build does for __mix__ and __kfc_workspace__, as the body's first statement.
  for (const KernelSignature& k : result.kernels) {
    std::string prologue;
    if (k.mix_aic >= 0) {
      const char* type = k.mix_aic == 0   ? "KERNEL_TYPE_AIV_ONLY"
                         : k.mix_aiv == 0 ? "KERNEL_TYPE_AIC_ONLY"
                         : k.mix_aiv == 1 ? "KERNEL_TYPE_MIX_AIC_1_1"
                                          : "KERNEL_TYPE_MIX_AIC_1_2";
      prologue += std::string(" KERNEL_TASK_TYPE_DEFAULT(") + type + ");";
    }
    if (!k.kfc_workspace.empty()) {
      prologue += " ::AscendC::SetSysWorkspace(" + k.kfc_workspace + ");";
    }
    if (!prologue.empty()) edits.push_back({k.body_offset, 0, prologue});
  }

  std::sort(edits.begin(), edits.end(),
            [](const Edit& a, const Edit& b) { return a.offset < b.offset; });
  std::string out;
  out.reserve(source.size() + 256 + edits.size() * 48);
  if (!options.launch_header.empty()) out += "#include \"" + options.launch_header + "\"\n";
  if (local_arrays > 0) out += "#include \"ascsim/tensor_api/local_array.h\"\n";
  if (options.line_directive) out += "#line 1 " + Quote(options.display_path) + "\n";
  size_t at = 0;
  for (const Edit& e : edits) {
    out.append(source.substr(at, e.offset - at));
    out += e.insert;
    at = e.offset + e.remove;
  }
  out.append(source.substr(at));
  if (!out.empty() && out.back() != '\n') out += '\n';
  result.output = std::move(out);
  return result;
}

std::string LauncherHeader(const KernelSignature& k, std::string_view source_path) {
  std::string upper;
  for (char c : k.name) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  const std::string guard = "HEADER_ACLRTLAUNCH_" + upper + "_H";
  std::string h;
  h += "// Generated by ascsim-launch-transform from " + std::string(source_path) +
       ": do not edit.\n";
  h += "// The launcher CANN's ascendc_library generates for kernel '" + k.qualified_name +
       "': GM pointers\n";
  h += "// as void*, a struct parameter by pointer (LauncherParam<T> is T* for a class T, else "
       "T).\n";
  h += "// ACLRT_LAUNCH_KERNEL(" + k.name + ")(blockDim, stream, ...) calls it.\n";
  h += "#ifndef " + guard + "\n#define " + guard + "\n";
  h += "#include \"acl/acl_base.h\"\n#include \"ascsim/acl_launch.h\"\n\n";
  h += "#undef ACLRT_LAUNCH_KERNEL\n";
  h += "#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func\n\n";
  h += "extern \"C\" " + LauncherSignature(k) + ";\n";
  h += "#endif\n";
  return h;
}

std::string LauncherDefinitions(const std::vector<KernelSignature>& kernels,
                                std::string_view output_path, int first_line) {
  std::string out;
  out += "#line " + std::to_string(first_line + 1) + " " + Quote(output_path) + "\n";
  std::set<std::string> done;
  for (const KernelSignature& k : kernels) {
    // A kernel defined once per #if / #else branch gets the first branch's launcher.
    if (k.is_template || !done.insert(k.qualified_name).second) continue;
    const std::vector<std::string> names = ParamNames(k);
    out += "extern \"C\" " + LauncherSignature(k) + " {\n";
    out += "  return ::ascsim::acl::GeneratedLaunch(\"" + k.name + "\", &" + k.qualified_name +
           ", blockDim, stream";
    for (const std::string& n : names) out += ", " + n;
    out += ");\n}\n";
  }
  return out;
}

std::string FatbinEntries(const std::vector<KernelSignature>& kernels, std::string_view output_path,
                          int first_line) {
  std::string out;
  out += "#line " + std::to_string(first_line + 1) + " " + Quote(output_path) + "\n";
  for (const KernelSignature& k : kernels) {
    if (k.is_template) continue;
    out += "extern \"C\" __attribute__((visibility(\"default\"))) uint32_t ascsim_fatbin_" +
           k.name +
           "(uint32_t blockDim, aclrtStream stream, const ::ascsim::acl::FatbinArgs* args) {\n";
    out += "  return ::ascsim::acl::FatbinLaunch(\"" + k.name + "\", &" + k.qualified_name +
           ", blockDim, stream, args);\n}\n";
  }
  return out;
}

std::string AutoSyncDeclarations(const std::vector<KernelSignature>& kernels,
                                 std::string_view output_path, int first_line) {
  std::string out = "#if defined(ASCSIM_CCE_AUTO_SYNC) && ASCSIM_CCE_AUTO_SYNC\n";
  out += "#line " + std::to_string(first_line + 1) + " " + Quote(output_path) + "\n";
  out += "#include \"ascsim/runtime.h\"\n";
  std::set<std::string> done;
  int n = 0;
  for (const KernelSignature& k : kernels) {
    if (k.is_template || !done.insert(k.qualified_name).second) continue;
    out += "static const bool ascsim_cce_auto_sync_" + std::to_string(n++) +
           " = ::ascsim::DeclareCompiledWithAutoSync(reinterpret_cast<const void*>(&::" +
           k.qualified_name + "));\n";
  }
  return out + "#endif\n";
}

int BlankSpaceQualifiers(std::string* text) {
  std::vector<Diagnostic> diagnostics;
  const std::vector<Token> toks = Lexer(*text, &diagnostics).Run();
  const Scanner sc(*text, toks);
  // A subscript is followed by an operator or a closing token and a lambda introducer by `(`,
  // `{` or `<` (C++23 also `mutable` / `noexcept`); only a declaration goes on with a word. The
  // alternative operator spellings are words that continue an expression. (`constexpr` and
  // `static` stay declaration words: `__aicore__ constexpr` / `__aicore__ static` are common.)
  static const std::set<std::string_view> kNotDeclaration = {
      "and", "and_eq", "bitand", "bitor",  "compl",   "not",     "not_eq",
      "or",  "or_eq",  "xor",    "xor_eq", "mutable", "noexcept", "requires"};
  int blanked = 0;
  for (size_t i = 0; i < toks.size(); ++i) {
    if (!sc.IsPunct(i, '[') || (i > 0 && sc.IsPunct(i - 1, '[')) || sc.IsPunct(i + 1, '[')) {
      continue;
    }
    size_t j = i + 1;
    bool names = false;
    while (sc.IsIdent(j, "aicore") || sc.IsIdent(j, "host")) {
      names = true;
      ++j;
      if (!sc.IsPunct(j, ',')) break;
      ++j;
    }
    if (!names || !sc.IsPunct(j, ']') || !sc.IsIdent(j + 1) ||
        kNotDeclaration.count(sc.Text(j + 1)) != 0) {
      continue;
    }
    for (size_t b = toks[i].begin; b < toks[j].end; ++b) {
      if ((*text)[b] != '\n') (*text)[b] = ' ';
    }
    ++blanked;
    i = j;
  }
  return blanked;
}

std::string FormatDiagnostic(std::string_view path, const Diagnostic& d) {
  return std::string(path) + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) +
         (d.error ? ": error: " : ": note: ") + d.message;
}

}  // namespace ascsim::toolkit
