// Kernel binaries (acl_binary.cpp): load the binary tests/CMakeLists.txt builds the way
// ascendc_fatbin_library does, look its kernels up by name, launch them with appended arguments
// (pointers, a struct by value, a scalar) on a stream and on the default stream, against a scalar
// reference; and every error path with its code and message.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"

#ifndef ASCSIM_TEST_FATBIN
#error "ASCSIM_TEST_FATBIN (the test binary's path) comes from tests/CMakeLists.txt"
#endif

namespace {

using ::testing::HasSubstr;

struct AxpbTiling {  // as in testdata/acl_binary_kernels.cc
  uint32_t totalLength;
  float a;
  float b;
};

class AclBinary : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtBinaryLoadFromFile(ASCSIM_TEST_FATBIN, nullptr, &bin_), ACL_SUCCESS)
        << aclGetRecentErrMsg();
  }
  void TearDown() override {
    if (bin_ != nullptr) {
      EXPECT_EQ(aclrtBinaryUnLoad(bin_), ACL_SUCCESS);
    }
  }
  aclrtFuncHandle Function(const char* name) {
    aclrtFuncHandle f = nullptr;
    EXPECT_EQ(aclrtBinaryGetFunction(bin_, name, &f), ACL_SUCCESS) << aclGetRecentErrMsg();
    return f;
  }
  aclrtBinHandle bin_ = nullptr;
};

// y = a*x + b on `blocks` blocks through the binary; n floats (a multiple of 8 per block).
std::vector<float> RunAxpb(aclrtFuncHandle f, uint32_t blocks, uint32_t n, float a, float b,
                           aclrtStream stream, std::vector<float>* x_out) {
  std::vector<float> x(n), y(n, -1.0f);
  for (uint32_t i = 0; i < n; ++i) x[i] = 0.25f * static_cast<float>(i % 97) - 7.0f;
  void *dx = nullptr, *dy = nullptr;
  EXPECT_EQ(aclrtMalloc(&dx, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMalloc(&dy, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(
      aclrtMemcpy(dx, n * sizeof(float), x.data(), n * sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE),
      ACL_SUCCESS);
  aclrtArgsHandle args = nullptr;
  aclrtParamHandle p = nullptr;
  EXPECT_EQ(aclrtKernelArgsInit(f, &args), ACL_SUCCESS);
  EXPECT_EQ(aclrtKernelArgsAppend(args, &dx, sizeof(uintptr_t), &p), ACL_SUCCESS);
  EXPECT_EQ(aclrtKernelArgsAppend(args, &dy, sizeof(uintptr_t), &p), ACL_SUCCESS);
  AxpbTiling tiling{n, a, b};
  EXPECT_EQ(aclrtKernelArgsAppend(args, &tiling, sizeof(tiling), &p), ACL_SUCCESS);
  EXPECT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
  tiling.a = 1000.0f;  // the list holds a copy: changing the variable now changes nothing
  EXPECT_EQ(aclrtLaunchKernelWithConfig(f, blocks, stream, nullptr, args, nullptr), ACL_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(
      aclrtMemcpy(y.data(), n * sizeof(float), dy, n * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST),
      ACL_SUCCESS);
  aclrtFree(dx);
  aclrtFree(dy);
  if (x_out != nullptr) *x_out = x;
  return y;
}

TEST_F(AclBinary, LaunchesAKernelWithPointerAndStructArgumentsOnAStream) {
  aclrtFuncHandle f = Function("axpb_custom");
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  std::vector<float> x;
  const uint32_t n = 8 * 200;  // 200 floats per block: a DataCopy of whole 32-byte blocks
  const std::vector<float> y = RunAxpb(f, 8, n, 1.5f, -0.25f, stream, &x);
  for (uint32_t i = 0; i < n; ++i) {
    const float expected = static_cast<float>(static_cast<double>(x[i]) * 1.5);
    ASSERT_EQ(y[i], expected + -0.25f) << "element " << i;
  }
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(AclBinary, LaunchesOnTheDefaultStreamWithOddBlockCounts) {
  aclrtFuncHandle f = Function("axpb_custom");
  std::vector<float> x;
  const uint32_t n = 3 * 56;
  const std::vector<float> y = RunAxpb(f, 3, n, -2.0f, 3.0f, nullptr, &x);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(y[i], x[i] * -2.0f + 3.0f) << "element " << i;
}

TEST_F(AclBinary, ScalarArgumentsAndReusedArgumentLists) {
  aclrtFuncHandle f = Function("fill_index");
  const uint32_t blocks = 5;
  void* dout = nullptr;
  ASSERT_EQ(aclrtMalloc(&dout, blocks * sizeof(int32_t), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtArgsHandle args = nullptr;
  ASSERT_EQ(aclrtKernelArgsInit(f, &args), ACL_SUCCESS);
  int32_t value = 40;
  ASSERT_EQ(aclrtKernelArgsAppend(args, &dout, sizeof(void*), nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsAppend(args, &value, sizeof(value), nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
  for (int round = 0; round < 2; ++round) {  // one list, launched twice
    ASSERT_EQ(aclrtMemset(dout, blocks * sizeof(int32_t), 0, blocks * sizeof(int32_t)),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtLaunchKernelWithConfig(f, blocks, nullptr, nullptr, args, nullptr), ACL_SUCCESS)
        << aclGetRecentErrMsg();
    std::vector<int32_t> out(blocks);
    ASSERT_EQ(aclrtMemcpy(out.data(), blocks * sizeof(int32_t), dout, blocks * sizeof(int32_t),
                          ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    for (uint32_t b = 0; b < blocks; ++b) EXPECT_EQ(out[b], 40 + static_cast<int32_t>(b));
  }
  aclrtFree(dout);
}

TEST_F(AclBinary, ConfigAttributesAreAccepted) {
  aclrtFuncHandle f = Function("fill_index");
  void* dout = nullptr;
  ASSERT_EQ(aclrtMalloc(&dout, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtArgsHandle args = nullptr;
  ASSERT_EQ(aclrtKernelArgsInit(f, &args), ACL_SUCCESS);
  int32_t value = -3;
  aclrtParamHandle p1 = nullptr, p2 = nullptr;
  ASSERT_EQ(aclrtKernelArgsAppend(args, &dout, sizeof(void*), &p1), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsAppend(args, &value, sizeof(value), &p2), ACL_SUCCESS);
  EXPECT_NE(p1, nullptr);
  EXPECT_NE(p1, p2);
  ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
  aclrtLaunchKernelAttr attr;
  std::memset(&attr, 0, sizeof(attr));
  attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE;
  attr.value.schemMode = 1;
  aclrtLaunchKernelCfg cfg{&attr, 1};
  ASSERT_EQ(aclrtLaunchKernelWithConfig(f, 1, nullptr, &cfg, args, nullptr), ACL_SUCCESS);
  int32_t out = 0;
  ASSERT_EQ(aclrtMemcpy(&out, 4, dout, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(out, -3);
  aclrtFree(dout);
}

TEST_F(AclBinary, ErrorsOfLoadingAndLookingUp) {
  aclrtBinHandle other = nullptr;
  EXPECT_EQ(aclrtBinaryLoadFromFile(nullptr, nullptr, &other), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("binPath is null"));
  EXPECT_EQ(aclrtBinaryLoadFromFile(ASCSIM_TEST_FATBIN, nullptr, nullptr),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("binHandle is null"));
  EXPECT_EQ(aclrtBinaryLoadFromFile("/nonexistent/kernels.o", nullptr, &other),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("cannot load /nonexistent/kernels.o"));

  aclrtFuncHandle f = nullptr;
  EXPECT_EQ(aclrtBinaryGetFunction(bin_, "no_such_kernel", &f), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("has no kernel named no_such_kernel"));
  EXPECT_EQ(aclrtBinaryGetFunction(bin_, "templated_kernel", &f), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtBinaryGetFunction(bin_, nullptr, &f), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("kernelName is null"));
  EXPECT_EQ(aclrtBinaryGetFunction(bin_, "axpb_custom", nullptr), ACL_ERROR_RT_PARAM_INVALID);
  int not_a_handle = 0;
  EXPECT_EQ(aclrtBinaryGetFunction(&not_a_handle, "axpb_custom", &f), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("not a handle from aclrtBinaryLoadFromFile"));
  EXPECT_EQ(aclrtBinaryUnLoad(&not_a_handle), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(AclBinary, ErrorsOfArgumentLists) {
  aclrtFuncHandle f = Function("axpb_custom");
  aclrtFuncHandle g = Function("fill_index");
  aclrtArgsHandle args = nullptr;
  EXPECT_EQ(aclrtKernelArgsInit(f, nullptr), ACL_ERROR_RT_PARAM_INVALID);
  int not_a_handle = 0;
  EXPECT_EQ(aclrtKernelArgsInit(&not_a_handle, &args), ACL_ERROR_RT_PARAM_INVALID);
  ASSERT_EQ(aclrtKernelArgsInit(f, &args), ACL_SUCCESS);
  void* ptr = nullptr;
  EXPECT_EQ(aclrtKernelArgsAppend(args, nullptr, 8, nullptr), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("param is null"));
  EXPECT_EQ(aclrtKernelArgsAppend(args, &ptr, 0, nullptr), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("paramSize is 0"));
  EXPECT_EQ(aclrtKernelArgsAppend(&not_a_handle, &ptr, 8, nullptr), ACL_ERROR_RT_PARAM_INVALID);

  // Not finalized, then too few arguments, then an argument of the wrong size.
  ASSERT_EQ(aclrtKernelArgsAppend(args, &ptr, sizeof(ptr), nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtLaunchKernelWithConfig(f, 1, nullptr, nullptr, args, nullptr),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("is not finalized"));
  ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
  EXPECT_EQ(aclrtKernelArgsAppend(args, &ptr, sizeof(ptr), nullptr), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("finalized already"));
  EXPECT_EQ(aclrtLaunchKernelWithConfig(f, 1, nullptr, nullptr, args, nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(aclGetRecentErrMsg(),
              HasSubstr("axpb_custom takes 3 arguments, the argument list holds 1"));

  aclrtArgsHandle wrong = nullptr;
  ASSERT_EQ(aclrtKernelArgsInit(f, &wrong), ACL_SUCCESS);
  uint32_t small = 0;
  ASSERT_EQ(aclrtKernelArgsAppend(wrong, &ptr, sizeof(ptr), nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsAppend(wrong, &small, sizeof(small), nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsAppend(wrong, &ptr, sizeof(ptr), nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsFinalize(wrong), ACL_SUCCESS);
  EXPECT_EQ(aclrtLaunchKernelWithConfig(f, 1, nullptr, nullptr, wrong, nullptr),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(aclGetRecentErrMsg(),
              HasSubstr("argument 1 of axpb_custom was appended with 4 bytes; the kernel's "
                        "parameter has 8"));

  // A list made for one kernel, launched with another; handles that are not handles.
  EXPECT_EQ(aclrtLaunchKernelWithConfig(g, 1, nullptr, nullptr, args, nullptr),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("made for axpb_custom, not for fill_index"));
  EXPECT_EQ(aclrtLaunchKernelWithConfig(&not_a_handle, 1, nullptr, nullptr, args, nullptr),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtLaunchKernelWithConfig(f, 1, nullptr, nullptr, &not_a_handle, nullptr),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtKernelArgsFinalize(&not_a_handle), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(AclBinary, ABadBlockCountIsTheLaunchsError) {
  aclrtFuncHandle f = Function("fill_index");
  void* dout = nullptr;
  ASSERT_EQ(aclrtMalloc(&dout, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclrtArgsHandle args = nullptr;
  ASSERT_EQ(aclrtKernelArgsInit(f, &args), ACL_SUCCESS);
  int32_t value = 0;
  ASSERT_EQ(aclrtKernelArgsAppend(args, &dout, sizeof(void*), nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsAppend(args, &value, sizeof(value), nullptr), ACL_SUCCESS);
  ASSERT_EQ(aclrtKernelArgsFinalize(args), ACL_SUCCESS);
  EXPECT_NE(aclrtLaunchKernelWithConfig(f, 0, nullptr, nullptr, args, nullptr), ACL_SUCCESS);
  EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("blockDim"));
  aclrtFree(dout);
}

TEST_F(AclBinary, UnloadingInvalidatesItsHandles) {
  aclrtFuncHandle f = Function("fill_index");
  aclrtArgsHandle args = nullptr;
  ASSERT_EQ(aclrtKernelArgsInit(f, &args), ACL_SUCCESS);
  ASSERT_EQ(aclrtBinaryUnLoad(bin_), ACL_SUCCESS);
  EXPECT_EQ(aclrtBinaryUnLoad(bin_), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("unloaded?"));
  aclrtFuncHandle again = nullptr;
  EXPECT_EQ(aclrtBinaryGetFunction(bin_, "fill_index", &again), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtKernelArgsFinalize(args), ACL_ERROR_RT_PARAM_INVALID);
  bin_ = nullptr;  // TearDown has nothing to unload
}

}  // namespace
