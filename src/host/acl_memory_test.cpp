// ACL memory entry points against bad input: sizes that cannot be allocated, frees of host memory
// that is not aclrtMallocHost's, copy kinds outside the enum. Each returns an error code and
// leaves the process usable; none aborts or copies.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "ascsim/runtime.h"
#include "tikicpulib.h"

namespace {

using ::testing::HasSubstr;

TEST(AclMemory, MallocOfSizesThatWouldWrapFails) {
  for (size_t size : {SIZE_MAX, SIZE_MAX - 1, SIZE_MAX - 511, size_t{1} << 63, size_t{1} << 62}) {
    void* p = nullptr;
    EXPECT_EQ(aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION)
        << size;
    EXPECT_EQ(p, nullptr);
    EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("cannot allocate " + std::to_string(size)));
  }
}

TEST(AclMemory, GmAllocOfSizeMaxThrows) {
  EXPECT_THROW(AscendC::GmAlloc(SIZE_MAX), ascsim::OutOfDeviceMemory);
}

TEST(AclMemory, FreeHostRefusesWhatMallocHostDidNotReturn) {
  void* host = nullptr;
  ASSERT_EQ(aclrtMallocHost(&host, 100), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
  // Freed twice.
  EXPECT_EQ(aclrtFreeHost(host), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("aclrtFreeHost"));
  EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("not memory from aclrtMallocHost"));
  // A pointer of the program's own heap and one into the stack.
  void* mine = std::malloc(64);
  int local = 0;
  EXPECT_EQ(aclrtFreeHost(mine), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFreeHost(&local), ACL_ERROR_INVALID_PARAM);
  std::free(mine);  // still the program's: not freed by the failed call
  // The inside of a host allocation.
  ASSERT_EQ(aclrtMallocHost(&host, 100), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(static_cast<char*>(host) + 8), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
  // Null, as CANN's aclrtFreeHost checks it.
  EXPECT_EQ(aclrtFreeHost(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST(AclMemory, FreeHostOfDeviceMemoryLeavesTheDeviceBlockAlone) {
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtFreeHost(dev), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("aclrtMalloc"));  // "use aclrtFree"
  EXPECT_EQ(ascsim::DeviceAllocationSize(dev), 4096u + 32u);  // aclrtMalloc's device block
  EXPECT_EQ(aclrtMemset(dev, 4096, 7, 4096), ACL_SUCCESS);  // still usable device memory
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST(AclMemory, MemcpyRefusesKindsOutsideTheEnum) {
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(dev, 64, 0, 64), ACL_SUCCESS);
  std::vector<uint8_t> host(64, 0xAB);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  // 6 and 7 (INNER/INTER_DEVICE_TO_DEVICE) are enumerators aclrtMemcpy does not take either
  // (hicann/runtime src/acl/aclrt_impl/memory.cpp, MemcpyKindTranslate).
  for (int kind : {-1, 6, 7, 8, 99}) {
    // As a C caller passes it: never held in an enum-typed variable (UBSan checks such loads).
    const auto k = [kind] { return static_cast<aclrtMemcpyKind>(kind); };
    EXPECT_EQ(aclrtMemcpy(dev, 64, host.data(), 64, k()), ACL_ERROR_INVALID_PARAM) << kind;
    EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("kind " + std::to_string(kind)));
    EXPECT_EQ(aclrtMemcpyAsync(dev, 64, host.data(), 64, k(), nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtMemcpyAsync(dev, 64, host.data(), 64, k(), stream), ACL_ERROR_INVALID_PARAM);
    EXPECT_THAT(aclGetRecentErrMsg(), HasSubstr("aclrtMemcpyAsync"));
  }
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  std::vector<uint8_t> back(64, 1);
  ASSERT_EQ(aclrtMemcpy(back.data(), 64, dev, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(back, std::vector<uint8_t>(64, 0));  // nothing was copied
  // The valid kinds still work, HOST_TO_BUF_TO_DEVICE as a host-to-device copy.
  EXPECT_EQ(aclrtMemcpy(dev, 64, host.data(), 64, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(back.data(), 64, host.data(), 64, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(back.data(), 64, dev, 64, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
  EXPECT_EQ(back, host);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

}  // namespace
