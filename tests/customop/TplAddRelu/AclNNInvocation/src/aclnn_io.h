// What the AclNN invocation programs of these tests share (C++11, as the official samples): ACL
// set-up, device tensors from and to the .bin files scripts/gen_data.py writes, and a check macro
// that prints aclGetRecentErrMsg.
#ifndef ACLNN_IO_H_
#define ACLNN_IO_H_

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"

#define CHECK_RET(cond, what)                                                          \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            std::printf("[ERROR] %s failed: %s\n", what, aclGetRecentErrMsg());        \
            return 1;                                                                  \
        }                                                                              \
    } while (0)

struct DeviceTensor {
    std::vector<int64_t> shape;
    size_t bytes = 0;
    void *data = nullptr;
    aclTensor *tensor = nullptr;
};

inline size_t ElementCount(const std::vector<int64_t> &shape)
{
    size_t n = 1;
    for (size_t i = 0; i < shape.size(); ++i) {
        n *= static_cast<size_t>(shape[i]);
    }
    return n;
}

// A device tensor of `shape`, filled from `path` when given (else zeroed).
inline bool MakeTensor(DeviceTensor &t, const std::vector<int64_t> &shape, aclDataType type,
                       const std::string &path)
{
    t.shape = shape;
    t.bytes = ElementCount(shape) * aclDataTypeSize(type);
    if (aclrtMalloc(&t.data, t.bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
        return false;
    }
    std::vector<char> host(t.bytes, 0);
    if (!path.empty()) {
        std::ifstream in(path.c_str(), std::ios::binary);
        if (!in.read(host.data(), static_cast<std::streamsize>(t.bytes))) {
            std::printf("[ERROR] cannot read %zu bytes from %s\n", t.bytes, path.c_str());
            return false;
        }
    }
    if (aclrtMemcpy(t.data, t.bytes, host.data(), t.bytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
        return false;
    }
    std::vector<int64_t> strides(shape.size(), 1);
    for (size_t i = shape.size(); i-- > 1;) {
        strides[i - 1] = strides[i] * shape[i];
    }
    t.tensor = aclCreateTensor(shape.data(), shape.size(), type, strides.data(), 0, ACL_FORMAT_ND,
                               shape.data(), shape.size(), t.data);
    return t.tensor != nullptr;
}

inline bool SaveTensor(const DeviceTensor &t, const std::string &path)
{
    std::vector<char> host(t.bytes);
    if (aclrtMemcpy(host.data(), t.bytes, t.data, t.bytes, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) {
        return false;
    }
    std::ofstream out(path.c_str(), std::ios::binary);
    out.write(host.data(), static_cast<std::streamsize>(t.bytes));
    return static_cast<bool>(out);
}

inline void FreeTensor(DeviceTensor &t)
{
    if (t.tensor != nullptr) {
        aclDestroyTensor(t.tensor);
    }
    if (t.data != nullptr) {
        aclrtFree(t.data);
    }
    t.tensor = nullptr;
    t.data = nullptr;
}

// aclnn<Op>(workspace of `size` bytes, executor, stream), then waits for the stream.
template <class Run>
inline int RunWithWorkspace(Run run, uint64_t size, aclOpExecutor *executor, aclrtStream stream)
{
    void *workspace = nullptr;
    if (size > 0) {
        CHECK_RET(aclrtMalloc(&workspace, size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS, "aclrtMalloc");
    }
    const int ret = run(workspace, size, executor, stream);
    CHECK_RET(ret == ACL_SUCCESS, "aclnn launch");
    CHECK_RET(aclrtSynchronizeStreamWithTimeout(stream, 60000) == ACL_SUCCESS, "aclrtSynchronizeStream");
    if (workspace != nullptr) {
        aclrtFree(workspace);
    }
    return 0;
}

#endif  // ACLNN_IO_H_
