// The <<<>>> rewrite: what is rewritten and what is left alone (comments, strings, raw strings,
// character literals, preprocessor lines, operator<<<), templates and nested calls in launches,
// launches over several lines, line preservation and #line mapping (checked with the compiler),
// the kernel scan and the generated aclrtlaunch_<kernel> header and launcher, and the errors.
#include "launch_transform.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace {

using ascsim::toolkit::KernelParam;
using ascsim::toolkit::TransformOptions;
using ascsim::toolkit::TransformResult;
using ascsim::toolkit::TransformSource;
using ::testing::HasSubstr;
using ::testing::Not;

// The rewritten text without the two lines the rewrite puts first (#include, #line).
std::string Body(const std::string& source, TransformResult* result = nullptr) {
  TransformOptions options;
  options.display_path = "k.cpp";
  TransformResult r = TransformSource(source, options);
  EXPECT_TRUE(r.ok()) << (r.diagnostics.empty() ? "" : r.diagnostics[0].message);
  const std::string head = "#include \"ascsim/acl_launch.h\"\n#line 1 \"k.cpp\"\n";
  EXPECT_EQ(r.output.substr(0, head.size()), head);
  std::string body = r.output.size() >= head.size() ? r.output.substr(head.size()) : "";
  if (result != nullptr) *result = std::move(r);
  return body;
}

int Lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

TEST(LaunchTransform, RewritesALaunchInPlace) {
  TransformResult r;
  EXPECT_EQ(Body("  add_custom<<<blockDim, nullptr, stream>>>(x, y, z);\n", &r),
            "  ::ascsim::acl::ChevronLaunch(\"add_custom\", &add_custom, blockDim, nullptr, "
            "stream)(x, y, z);\n");
  EXPECT_EQ(r.launches, 1);
  // No arguments, literal zeros, two launches on a line.
  EXPECT_EQ(Body("hello<<<8, nullptr, s>>>(); a<<<1,0,0>>>(p);\n"),
            "::ascsim::acl::ChevronLaunch(\"hello\", &hello, 8, nullptr, s)(); "
            "::ascsim::acl::ChevronLaunch(\"a\", &a, 1,0,0)(p);\n");
  // Spaces around the chevrons.
  EXPECT_EQ(Body("k <<< n, nullptr, s >>> (x);\n"),
            "::ascsim::acl::ChevronLaunch(\"k\", &k ,  n, nullptr, s ) (x);\n");
}

TEST(LaunchTransform, LocalMemoryArraysBecomeLocalArrays) {
  TransformOptions options;
  options.display_path = "k.asc";
  const TransformResult r = TransformSource(
      "void k() {\n  __cbuf__ half l1Buf[baseM * K];\n  __ca__ half a[16][\n 32];\n"
      "  __cc__ unsigned int c[N];\n  __cb__ half* p = nullptr;\n  __cbuf__ half* q;\n}\n",
      options);
  ASSERT_TRUE(r.ok());
  EXPECT_THAT(r.output, HasSubstr("#include \"ascsim/tensor_api/local_array.h\"\n#line 1"));
  EXPECT_THAT(r.output,
              HasSubstr("  ::ascsim::tensor_api::LocalArray<half, ::ascsim::tensor_api::Loc::kL1, "
                        "(baseM * K)> l1Buf{\"l1Buf\"};\n"));
  // Two dimensions over two lines: one declaration, the line kept.
  EXPECT_THAT(r.output, HasSubstr("LocalArray<half, ::ascsim::tensor_api::Loc::kL0A, (16) * "
                                  "(32)> a{\"a\"};\n\n  ::ascsim"));
  EXPECT_THAT(r.output, HasSubstr("LocalArray<unsigned int, ::ascsim::tensor_api::Loc::kL0C, "
                                  "(N)> c{\"c\"};"));
  // Pointers keep the (empty) qualifier.
  EXPECT_THAT(r.output, HasSubstr("  __cb__ half* p = nullptr;\n  __cbuf__ half* q;\n"));
  EXPECT_EQ(Lines(r.output), 3 + 8);  // two #includes and #line, then the 8 source lines
  // A source without such arrays gets no extra include.
  EXPECT_THAT(Body("__cbuf__ half* p;\n"), Not(HasSubstr("local_array")));
}

TEST(LaunchTransform, TemplatesAndQualifiedNames) {
  EXPECT_EQ(Body("kernel<half, 16><<<b, nullptr, s>>>(x);\n"),
            "::ascsim::acl::ChevronLaunch(\"kernel<half, 16>\", &kernel<half, 16>, b, nullptr, "
            "s)(x);\n");
  EXPECT_EQ(Body("ns::inner::k<Tile<4, 8>, N><<<b, nullptr, s>>>(x);\n"),
            "::ascsim::acl::ChevronLaunch(\"ns::inner::k<Tile<4, 8>, N>\", &ns::inner::k<Tile<4, "
            "8>, N>, b, nullptr, s)(x);\n");
  EXPECT_EQ(Body("::k<<<b, nullptr, s>>>();\n"),
            "::ascsim::acl::ChevronLaunch(\"::k\", &::k, b, nullptr, s)();\n");
  // Template arguments that are expressions with parentheses.
  EXPECT_EQ(Body("k<(A > B), sizeof(T)><<<b, nullptr, s>>>();\n"),
            "::ascsim::acl::ChevronLaunch(\"k<(A>B), sizeof(T)>\", &k<(A > B), sizeof(T)>, b, "
            "nullptr, s)();\n");
}

TEST(LaunchTransform, NestedCallsAndTemplatesInTheConfigurationAndArguments) {
  EXPECT_EQ(Body("k<<<std::min<uint32_t>(n, 48), nullptr, streams[f(i)]>>>(p(q(1)), "
                 "static_cast<uint8_t*>(v), {1, 2});\n"),
            "::ascsim::acl::ChevronLaunch(\"k\", &k, std::min<uint32_t>(n, 48), nullptr, "
            "streams[f(i)])(p(q(1)), static_cast<uint8_t*>(v), {1, 2});\n");
  // A launch inside another launch's arguments is rewritten too.
  TransformResult r;
  const std::string body = Body("outer<<<1, nullptr, s>>>(inner<<<2, nullptr, s>>>(), 3);\n", &r);
  EXPECT_EQ(r.launches, 2);
  EXPECT_THAT(body, HasSubstr("ChevronLaunch(\"inner\", &inner, 2, nullptr, s)()"));
}

TEST(LaunchTransform, LaunchOverSeveralLinesKeepsEveryTokenOnItsLine) {
  const std::string source =
      "void run(void* s) {\n"
      "    add_custom<<<blockDim,\n"
      "                 nullptr,\n"
      "                 s>>>(\n"
      "        x,   // first\n"
      "        y);\n"
      "}\n";
  const std::string body = Body(source);
  EXPECT_EQ(Lines(body), Lines(source));
  std::istringstream in(body);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "void run(void* s) {");
  std::getline(in, line);
  EXPECT_EQ(line, "    ::ascsim::acl::ChevronLaunch(\"add_custom\", &add_custom, blockDim,");
  std::getline(in, line);
  EXPECT_EQ(line, "                 nullptr,");
  std::getline(in, line);
  EXPECT_EQ(line, "                 s)(");
  std::getline(in, line);
  EXPECT_EQ(line, "        x,   // first");
}

TEST(LaunchTransform, CommentsStringsAndLiteralsAreLeftAlone) {
  const std::string source =
      "// k<<<1, nullptr, s>>>(x);\n"
      "/* k<<<1, nullptr, s>>>(x);\n"
      "   still a comment */\n"
      "const char* a = \"k<<<1, nullptr, s>>>(x)\";\n"
      "const char* b = \"escaped \\\" k<<<1, nullptr, s>>>(x)\";\n"
      "const char* c = R\"x(k<<<1, nullptr, s>>>(x) )\" still raw)x\";\n"
      "const char* d = u8R\"(k<<<1, nullptr, s>>>())\";\n"
      "const wchar_t* e = L\"k<<<1, nullptr, s>>>()\";\n"
      "char f = '<'; char g = '\"'; int h = 1'000'000;\n"
      "#define LAUNCH(k) k<<<1, nullptr, s>>>()\n"
      "// a line comment that continues \\\n"
      "   k<<<1, nullptr, s>>>();\n";
  TransformOptions options;
  options.display_path = "k.cpp";
  TransformResult r = TransformSource(source, options);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.launches, 0);
  EXPECT_THAT(r.output, Not(HasSubstr("ChevronLaunch")));
  EXPECT_THAT(r.output, HasSubstr(source));
  // The #define is reported (it is not rewritten), as a note, not an error.
  ASSERT_EQ(r.diagnostics.size(), 1u);
  EXPECT_FALSE(r.diagnostics[0].error);
  EXPECT_EQ(r.diagnostics[0].line, 10);
  EXPECT_THAT(r.diagnostics[0].message, HasSubstr("preprocessor directive"));
}

TEST(LaunchTransform, ShiftOperatorsAndOperatorTemplatesAreNotLaunches) {
  const std::string source =
      "int a = x << 3; int b = (y << 1) < z;\n"
      "std::cout << v;\n"
      "friend std::ostream& operator<<<>(std::ostream&, const X&);\n"
      "template <class T> struct S { bool b = 1 < 2; };\n";
  TransformResult r;
  EXPECT_EQ(Body(source, &r), source);
  EXPECT_EQ(r.launches, 0);
}

TEST(LaunchTransform, LaunchAfterADirectiveWithALineSplice) {
  TransformResult r;
  const std::string body =
      Body("#define X \\\n  1\n#include \"a//b.h\"\nk<<<X, nullptr, s>>>();\n", &r);
  EXPECT_EQ(r.launches, 1);
  EXPECT_THAT(body, HasSubstr("#define X \\\n  1\n#include \"a//b.h\"\n::ascsim::acl::"));
}

TEST(LaunchTransform, ByteOrderMarkIsDropped) {
  EXPECT_EQ(Body("\xEF\xBB\xBFk<<<1, nullptr, s>>>();\n"),
            "::ascsim::acl::ChevronLaunch(\"k\", &k, 1, nullptr, s)();\n");
}

TEST(LaunchTransform, Errors) {
  struct Case {
    const char* source;
    int line, column;
    const char* message;
  } cases[] = {
      {"void f() {\n  k<<<1, nullptr, s(x);\n}\n", 2, 4, "has no matching '>>>'"},
      {"k<<<1, nullptr, s>>>;\n", 1, 21, "expected '(' with the kernel arguments"},
      {"k<<<1>>>(x);\n", 1, 2, "needs <<<blockDim, l2ctrl, stream>>> (found 1 value)"},
      {"k<<<1, 2, 3, 4>>>(x);\n", 1, 2, "found 4 values"},
      {"<<<1, nullptr, s>>>(x);\n", 1, 1, "without a kernel before it"},
      {"obj.k<<<1, nullptr, s>>>(x);\n", 1, 6, "must be a function, not a member ('k')"},
      {"k<<<1, nullptr, s>>>(x;\n", 1, 21, "is not closed"},
      {"/* open\n", 1, 1, "unterminated comment"},
      {"const char* s = \"open\n;\n", 1, 17, "unterminated string literal"},
      {"auto r = R\"x(never closed)y\";\n", 1, 10, "unterminated raw string literal"},
  };
  for (const Case& c : cases) {
    TransformOptions options;
    options.display_path = "bad.cpp";
    TransformResult r = TransformSource(c.source, options);
    ASSERT_FALSE(r.ok()) << c.source;
    ASSERT_FALSE(r.diagnostics.empty());
    EXPECT_EQ(r.diagnostics[0].line, c.line) << c.source;
    EXPECT_EQ(r.diagnostics[0].column, c.column) << c.source;
    EXPECT_THAT(r.diagnostics[0].message, HasSubstr(c.message)) << c.source;
  }
  EXPECT_EQ(ascsim::toolkit::FormatDiagnostic("bad.cpp", {3, 7, true, "boom"}),
            "bad.cpp:3:7: error: boom");
}

TEST(LaunchTransform, FindsKernelDefinitionsAndTheirParameters) {
  TransformResult r;
  Body(
      "#include \"kernel_operator.h\"\n"
      "extern \"C\" __global__ __aicore__ void decl_only(GM_ADDR x);\n"
      "extern \"C\" __global__ __aicore__ void add_custom(GM_ADDR x, __gm__ uint8_t *y,\n"
      "    uint32_t n, const AddTiling tiling, float alpha = 1.0f) {\n"
      "  if (n > 0) { }\n"
      "}\n"
      "namespace ops { namespace v2 {\n"
      "__global__ __aicore__ void scale(__gm__ float* __restrict__ x, unsigned int n,\n"
      "                                 Mode mode) {}\n"
      "}}\n"
      "namespace {\n"
      "__global__ __vector__ void hidden(GM_ADDR) {}\n"
      "}\n"
      "template <typename T, int N>\n"
      "__global__ __aicore__ void tmpl(GM_ADDR x) {}\n"
      "__global__ __attribute__((noinline)) void attributed(void) {}\n"
      "void host() { add_custom<<<8, nullptr, nullptr>>>(a, b, 8, t, 2.0f); }\n",
      &r);
  ASSERT_EQ(r.kernels.size(), 5u);
  const auto& add = r.kernels[0];
  EXPECT_EQ(add.name, "add_custom");
  EXPECT_EQ(add.qualified_name, "add_custom");
  EXPECT_EQ(add.line, 3);
  ASSERT_EQ(add.params.size(), 5u);
  EXPECT_EQ(add.params[0].kind, KernelParam::Kind::kPointer);
  EXPECT_EQ(add.params[0].name, "x");
  EXPECT_EQ(add.params[1].kind, KernelParam::Kind::kPointer);
  EXPECT_EQ(add.params[1].type, "__gm__ uint8_t*");
  EXPECT_EQ(add.params[1].name, "y");
  EXPECT_EQ(add.params[2].kind, KernelParam::Kind::kScalar);
  EXPECT_EQ(add.params[3].kind, KernelParam::Kind::kOther);
  EXPECT_EQ(add.params[3].type, "const AddTiling");
  EXPECT_EQ(add.params[3].name, "tiling");
  EXPECT_EQ(add.params[4].type, "float");
  EXPECT_EQ(add.params[4].name, "alpha");
  const auto& scale = r.kernels[1];
  EXPECT_EQ(scale.qualified_name, "ops::v2::scale");
  ASSERT_EQ(scale.params.size(), 3u);
  EXPECT_EQ(scale.params[1].type, "unsigned int");
  EXPECT_EQ(scale.params[1].kind, KernelParam::Kind::kScalar);
  EXPECT_EQ(scale.params[2].kind, KernelParam::Kind::kOther);
  EXPECT_EQ(r.kernels[2].qualified_name, "hidden");
  ASSERT_EQ(r.kernels[2].params.size(), 1u);
  EXPECT_EQ(r.kernels[2].params[0].name, "");  // unnamed
  EXPECT_TRUE(r.kernels[3].is_template);
  EXPECT_EQ(r.kernels[4].name, "attributed");
  EXPECT_TRUE(r.kernels[4].params.empty());
}

// What the preprocessor skips is left alone: a `#if 0` group (an old launch, an apostrophe in a
// note), the branches after a `#if 1`; an unterminated quote inside any conditional group is the
// compiler's to judge (the group may be skipped), not the rewrite's.
TEST(LaunchTransform, SkippedConditionalGroupsAreLeftAlone) {
  TransformResult r;
  const std::string source =
      "#if 0\n"
      "it's an old note: don't launch like this\n"
      "old<<<1>>>(x);\n"
      "#if 1\n"
      "nested<<<1>>>();\n"
      "#else\n"
      "also_skipped<<<>>>;\n"
      "#endif\n"
      "#elif 0\n"
      "still_skipped<<<1>>>(\n"
      "#else\n"
      "live<<<1, nullptr, s>>>(x);\n"
      "#endif\n"
      "#if 1 /* on */\n"
      "on<<<1, nullptr, s>>>(x);\n"
      "#elif defined(X)\n"
      "off<<<1>>>(x);\n"
      "#else\n"
      "const char* c = \"unterminated;\n"
      "#endif\n"
      "#ifdef SOMETHING\n"
      "// fine\n"
      "it's a note the compiler may never see\n"
      "maybe<<<2, nullptr, s>>>(y);\n"
      "#endif\n";
  const std::string body = Body(source, &r);
  EXPECT_EQ(r.launches, 3);
  EXPECT_EQ(Lines(body), Lines(source));
  EXPECT_THAT(body, HasSubstr("old<<<1>>>(x);\n"));
  EXPECT_THAT(body, HasSubstr("nested<<<1>>>();\n"));
  EXPECT_THAT(body, HasSubstr("still_skipped<<<1>>>(\n"));
  EXPECT_THAT(body, HasSubstr("off<<<1>>>(x);\n"));
  EXPECT_THAT(body, HasSubstr("::ascsim::acl::ChevronLaunch(\"live\", &live, 1, nullptr, s)(x);"));
  EXPECT_THAT(body, HasSubstr("::ascsim::acl::ChevronLaunch(\"on\", &on, 1, nullptr, s)(x);"));
  EXPECT_THAT(body,
              HasSubstr("::ascsim::acl::ChevronLaunch(\"maybe\", &maybe, 2, nullptr, s)(y);"));
  // Outside any conditional group an unterminated literal is still an error.
  TransformOptions options;
  EXPECT_FALSE(TransformSource("char c = 'x;\n", options).ok());
}

// Kernels in namespaces and extern "C" blocks; one defined once per #if / #else branch is listed
// per branch (the names may differ) but gets one launcher.
TEST(LaunchTransform, KernelsInBlocksNamespacesAndConditionalBranches) {
  TransformResult r;
  Body(
      "namespace ns {\n"
      "extern \"C\" __global__ __aicore__ void in_ns(GM_ADDR x) {}\n"
      "}\n"
      "extern \"C\" {\n"
      "__global__ __aicore__ void in_block(GM_ADDR x, uint32_t n) {}\n"
      "}\n"
      "#if defined(FAST)\n"
      "extern \"C\" __global__ __aicore__ void twice(GM_ADDR x, uint32_t n) {}\n"
      "#else\n"
      "extern \"C\" __global__ __aicore__ void twice(GM_ADDR x, uint32_t n, float f) {}\n"
      "#endif\n"
      "#if 0\n"
      "extern \"C\" __global__ __aicore__ void gone(GM_ADDR x) {}\n"
      "#endif\n"
      "#ifdef WIDE\n"
      "__global__ __aicore__ void shared(GM_ADDR x, uint32_t n, uint32_t m)\n"
      "#else\n"
      "__global__ __aicore__ void shared(GM_ADDR x)\n"
      "#endif\n"
      "{\n"
      "}\n",
      &r);
  ASSERT_EQ(r.kernels.size(), 6u);
  EXPECT_EQ(r.kernels[4].name, "shared");
  EXPECT_EQ(r.kernels[4].params.size(), 3u);
  EXPECT_EQ(r.kernels[5].name, "shared");
  EXPECT_EQ(r.kernels[5].params.size(), 1u);
  EXPECT_EQ(r.kernels[0].qualified_name, "ns::in_ns");
  EXPECT_EQ(r.kernels[1].qualified_name, "in_block");
  EXPECT_EQ(r.kernels[1].params.size(), 2u);
  EXPECT_EQ(r.kernels[2].qualified_name, "twice");
  EXPECT_EQ(r.kernels[3].qualified_name, "twice");
  EXPECT_EQ(r.kernels[3].params.size(), 3u);
  const std::string defs = ascsim::toolkit::LauncherDefinitions(r.kernels, "/b/k.cpp", 20);
  size_t count = 0;
  for (size_t at = defs.find("aclrtlaunch_twice("); at != std::string::npos;
       at = defs.find("aclrtlaunch_twice(", at + 1)) {
    ++count;
  }
  EXPECT_EQ(count, 1u) << defs;
}

TEST(LaunchTransform, LauncherHeaderAndDefinitions) {
  TransformResult r;
  Body(
      "extern \"C\" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR stream,\n"
      "    uint32_t n, AddTiling tiling, uint32_t) {}\n",
      &r);
  ASSERT_EQ(r.kernels.size(), 1u);
  const std::string header = ascsim::toolkit::LauncherHeader(r.kernels[0], "/src/add_custom.cpp");
  EXPECT_THAT(header, HasSubstr("#ifndef HEADER_ACLRTLAUNCH_ADD_CUSTOM_H"));
  EXPECT_THAT(header, HasSubstr("#include \"acl/acl_base.h\""));
  EXPECT_THAT(header,
              HasSubstr("#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func"));
  // GM pointers as void*, the struct by pointer, a parameter named like ours renamed.
  EXPECT_THAT(header, HasSubstr("extern \"C\" uint32_t aclrtlaunch_add_custom(uint32_t blockDim, "
                                "aclrtStream stream, void* x, void* arg1, uint32_t n, "
                                "::ascsim::acl::LauncherParam<AddTiling> tiling, uint32_t arg4);"));
  const std::string defs = ascsim::toolkit::LauncherDefinitions(r.kernels, "/b/add_custom.cpp", 9);
  EXPECT_THAT(defs, HasSubstr("#line 10 \"/b/add_custom.cpp\"\n"));
  EXPECT_THAT(defs, HasSubstr("return ::ascsim::acl::GeneratedLaunch(\"add_custom\", &add_custom, "
                              "blockDim, stream, x, arg1, n, tiling, arg4);"));
}

// --fatbin-entries: one entry per non-template kernel (qualified name, any parameters), none for
// a template kernel; aclrtBinaryGetFunction finds them by the prefix ascsim/acl_launch.h names.
TEST(LaunchTransform, FatbinEntries) {
  TransformResult r;
  Body(
      "namespace ns { extern \"C\" __global__ __aicore__ void add_custom(GM_ADDR x, uint32_t n) {} }\n"
      "template <int N> __global__ __aicore__ void tk(GM_ADDR x) {}\n"
      "__global__ __aicore__ void empty() {}\n",
      &r);
  ASSERT_EQ(r.kernels.size(), 3u);
  const std::string entries = ascsim::toolkit::FatbinEntries(r.kernels, "/b/k.cpp", 4);
  EXPECT_THAT(entries, HasSubstr("#line 5 \"/b/k.cpp\"\n"));
  EXPECT_THAT(entries, HasSubstr("extern \"C\" __attribute__((visibility(\"default\"))) uint32_t "
                                 "ascsim_fatbin_add_custom(uint32_t blockDim, aclrtStream stream, "
                                 "const ::ascsim::acl::FatbinArgs* args) {"));
  EXPECT_THAT(entries, HasSubstr("return ::ascsim::acl::FatbinLaunch(\"add_custom\", "
                                 "&ns::add_custom, blockDim, stream, args);"));
  EXPECT_THAT(entries, HasSubstr("ascsim_fatbin_empty("));
  EXPECT_THAT(entries, Not(HasSubstr("ascsim_fatbin_tk")));
}

// bisheng's --cce-auto-sync: each non-template kernel is declared built with it, only when the
// source is compiled with ASCSIM_CCE_AUTO_SYNC (ascsim-cc and ascendc_compile_options define it).
TEST(LaunchTransform, AutoSyncDeclarations) {
  TransformResult r;
  Body(
      "namespace ns { extern \"C\" __global__ __aicore__ void a(GM_ADDR x) {} }\n"
      "#if X\n"
      "__global__ __aicore__ void b(GM_ADDR x) {}\n"
      "#else\n"
      "__global__ __aicore__ void b(GM_ADDR x, int n) {}\n"
      "#endif\n"
      "template <class T> __global__ __aicore__ void t(GM_ADDR x) {}\n",
      &r);
  const std::string decl = ascsim::toolkit::AutoSyncDeclarations(r.kernels, "/b/k.cpp", 9);
  EXPECT_EQ(decl,
            "#if defined(ASCSIM_CCE_AUTO_SYNC) && ASCSIM_CCE_AUTO_SYNC\n"
            "#line 10 \"/b/k.cpp\"\n"
            "#include \"ascsim/runtime.h\"\n"
            "static const bool ascsim_cce_auto_sync_0 = "
            "::ascsim::DeclareCompiledWithAutoSync(reinterpret_cast<const void*>(&::ns::a));\n"
            "static const bool ascsim_cce_auto_sync_1 = "
            "::ascsim::DeclareCompiledWithAutoSync(reinterpret_cast<const void*>(&::b));\n"
            "#endif\n");
}

// The whole way through g++: an error in the user's code after a rewritten multi-line launch is
// reported at the user's file and line; so is one inside a launch's arguments.
TEST(LaunchTransform, CompilerErrorsPointAtTheUsersFileAndLine) {
  const std::string dir = TOOLKIT_TEST_WORK_DIR;
  ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
  const std::string user_path = dir + "/user_kernel.cpp";
  const std::string source =
      "#include \"kernel_operator.h\"\n"                                       // 1
      "extern \"C\" __global__ __aicore__ void k(GM_ADDR x, uint32_t n) {}\n"  // 2
      "void run(void* stream, uint8_t* x) {\n"                                 // 3
      "  k<<<8,\n"                                                             // 4
      "      nullptr,\n"                                                       // 5
      "      stream>>>(x,\n"                                                   // 6
      "                8u);\n"                                                 // 7
      "  int unused = undeclared_name;\n"                                      // 8
      "  k<<<8, nullptr, stream>>>(x, also_undeclared);\n"                     // 9
      "}\n";
  TransformOptions options;
  options.display_path = user_path;
  TransformResult r = TransformSource(source, options);
  ASSERT_TRUE(r.ok());
  const std::string out_path = dir + "/user_kernel.transformed.cpp";
  std::ofstream(out_path) << r.output
                          << ascsim::toolkit::LauncherDefinitions(r.kernels, out_path,
                                                                  Lines(r.output) + 1);
  const std::string log = dir + "/compile.log";
  const std::string cmd = "LC_ALL=C " + std::string(TOOLKIT_TEST_CXX) +
                          " -std=c++17 -fsyntax-only " + TOOLKIT_TEST_INCLUDES + " " + out_path +
                          " > " + log + " 2>&1";
  EXPECT_NE(std::system(cmd.c_str()), 0);
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_THAT(text.str(),
              HasSubstr(user_path + ":8:16: error: 'undeclared_name' was not declared"));
  EXPECT_THAT(text.str(), HasSubstr(user_path + ":9:"));
  EXPECT_THAT(text.str(), HasSubstr("'also_undeclared' was not declared"));
  EXPECT_THAT(text.str(), Not(HasSubstr("transformed.cpp:")));
}

}  // namespace

namespace {

// __mix__(aic, aiv) and a __kfc_workspace__ parameter: the kernel type and SetSysWorkspace
// become the body's first statement, on the line of its '{' (line numbers unchanged).
TEST(LaunchTransform, MixAndKfcWorkspacePrologue) {
  TransformResult r;
  const std::string src =
      "extern \"C\" __global__ __mix__(1, 2) void mm(GM_ADDR a, __kfc_workspace__ GM_ADDR ws) {\n"
      "  run();\n"
      "}\n"
      "extern \"C\" __global__ __mix__(1, 1) void one(GM_ADDR a) { run(); }\n"
      "extern \"C\" __global__ __aicore__ void plain(GM_ADDR a) { run(); }\n";
  const std::string body = Body(src, &r);
  ASSERT_EQ(r.kernels.size(), 3u);
  EXPECT_EQ(r.kernels[0].mix_aic, 1);
  EXPECT_EQ(r.kernels[0].mix_aiv, 2);
  EXPECT_EQ(r.kernels[0].kfc_workspace, "ws");
  EXPECT_THAT(body, HasSubstr("GM_ADDR ws) { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2); "
                              "::AscendC::SetSysWorkspace(ws);\n"));
  EXPECT_THAT(body, HasSubstr("void one(GM_ADDR a) { "
                              "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1); run(); }"));
  EXPECT_THAT(body, HasSubstr("void plain(GM_ADDR a) { run(); }"));
  EXPECT_EQ(r.kernels[2].mix_aic, -1);
  EXPECT_EQ(Lines(body), Lines(src));
}

}  // namespace

namespace {

using ascsim::toolkit::BlankSpaceQualifiers;

std::string Blanked(std::string text, int* count = nullptr) {
  const int n = BlankSpaceQualifiers(&text);
  if (count != nullptr) *count = n;
  return text;
}

// bisheng's execution space qualifiers before a declaration's words become spaces of the same
// length (columns and lines unchanged), whatever the spacing inside the brackets.
TEST(BlankSpaceQualifiers, BlanksQualifiersOfDeclarations) {
  int n = 0;
  EXPECT_EQ(Blanked("inline [aicore] int32_t AlignDiv32(int32_t n);\n", &n),
            "inline          int32_t AlignDiv32(int32_t n);\n");
  EXPECT_EQ(n, 1);
  EXPECT_EQ(Blanked("extern \"C\" __attribute__((cce_kernel)) [aicore] void k() {}\n"),
            "extern \"C\" __attribute__((cce_kernel))          void k() {}\n");
  EXPECT_EQ(Blanked("[ host, aicore ] static inline int f();"),
            "                 static inline int f();");
  EXPECT_EQ(Blanked("[host,aicore] constexpr int g();"), "              constexpr int g();");
  EXPECT_EQ(Blanked("[aicore]\nvoid h();"), "        \nvoid h();");
  // Across lines: the newline stays.
  EXPECT_EQ(Blanked("[aicore\n] void h();"), "       \n  void h();");
  EXPECT_EQ(Blanked("struct S { [aicore] inline S() {} [aicore] void Run(); };", &n),
            "struct S {          inline S() {}          void Run(); };");
  EXPECT_EQ(n, 2);
}

// Subscripts, lambda introducers, structured bindings, [[attributes]], other words in brackets,
// literals and preprocessor lines are left alone.
TEST(BlankSpaceQualifiers, LeavesOtherBracketsAlone) {
  const std::string kept =
      "int v = a[aicore] + b[host];\n"
      "bool w = a[host] and b[aicore] or c[aicore] not_eq 0;\n"
      "auto l = [host](int i) { return i; };\n"
      "auto m = [aicore] { return 0; };\n"
      "auto t = [host]<class T>(T x) { return x; };\n"
      "auto u = [aicore] mutable { return 0; };\n"
      "auto [host, aicore] = pair;\n"
      "auto& [aicore] = one;\n"
      "[[aicore]] int attributed();\n"
      "[[nodiscard]] [vector] int other();\n"
      "const char* s = \"[aicore] int\";\n"
      "const char* r = R\"x([host, aicore] void)x\";\n"
      "# 12 \"[aicore] void.h\"\n"
      "#pragma [aicore] void\n"
      "int arr[aicore];\n";
  int n = -1;
  EXPECT_EQ(Blanked(kept, &n), kept);
  EXPECT_EQ(n, 0);
}

// The whole way through g++: a preprocessed translation unit with __aicore__ defined as
// bisheng's [aicore] (as the 2023 samples' tiling headers do without __CCE_KT_TEST__) compiles
// once blanked, and runs; lambdas and subscripts beside it keep their meaning.
TEST(BlankSpaceQualifiers, BlankedTranslationUnitCompilesAndRuns) {
  const std::string dir = TOOLKIT_TEST_WORK_DIR;
  ASSERT_EQ(std::system(("mkdir -p " + dir).c_str()), 0);
  const std::string src = dir + "/space_qualifiers.cpp";
  std::ofstream(src) << "#define __aicore__ [aicore]\n"
                        "#define __host_aicore__ [ host, aicore ]\n"
                        "inline __aicore__ int AlignDiv32(int n) { return (n + 31) / 32; }\n"
                        "__host_aicore__ static int Twice(int n) { return 2 * n; }\n"
                        "struct K {\n"
                        "  __aicore__ inline K() {}\n"
                        "  __aicore__ int Get() const { return 7; }\n"
                        "};\n"
                        "int main() {\n"
                        "  int host = 1, aicore = 2;\n"
                        "  int a[3] = {10, 20, 30};\n"
                        "  auto f = [host](int i) { return host + i; };\n"
                        "  int r = a[host] + a[aicore] + f(3);\n"
                        "  r += AlignDiv32(33) + Twice(4) + K().Get();\n"
                        "  return r == 20 + 30 + 4 + 2 + 8 + 7 ? 0 : 1;\n"
                        "}\n";
  const std::string pre = dir + "/space_qualifiers.ii";
  ASSERT_EQ(std::system((std::string(TOOLKIT_TEST_CXX) + " -std=c++17 -E " + src + " -o " + pre)
                            .c_str()),
            0);
  std::stringstream text;
  text << std::ifstream(pre).rdbuf();
  std::string preprocessed = text.str();
  // Unblanked, g++ rejects it.
  EXPECT_NE(std::system((std::string(TOOLKIT_TEST_CXX) + " -std=c++17 -fsyntax-only -x " +
                         "c++-cpp-output " + pre + " 2>/dev/null")
                            .c_str()),
            0);
  EXPECT_EQ(BlankSpaceQualifiers(&preprocessed), 4);
  std::ofstream(pre) << preprocessed;
  const std::string exe = dir + "/space_qualifiers";
  ASSERT_EQ(std::system((std::string(TOOLKIT_TEST_CXX) + " -std=c++17 -x c++-cpp-output " + pre +
                         " -o " + exe)
                            .c_str()),
            0);
  EXPECT_EQ(std::system(exe.c_str()), 0);
}

}  // namespace
