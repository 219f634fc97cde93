/*
 * Reading the inputs matmul_relu_custom.py writes and writing the kernel's output, as raw binary
 * files; CHECK_ACL for the ACL calls of the npu build.
 */
#ifndef DATA_UTILS_H
#define DATA_UTILS_H
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

#ifndef __CCE_KT_TEST__
#include "acl/acl.h"

#define CHECK_ACL(x)                                                                    \
    do {                                                                                \
        aclError __ret = x;                                                             \
        if (__ret != ACL_ERROR_NONE) {                                                  \
            const char *__msg = aclGetRecentErrMsg();                                   \
            std::cerr << __FILE__ << ":" << __LINE__ << " " << #x << " failed: aclError " \
                      << __ret << " " << (__msg != nullptr ? __msg : "") << std::endl;  \
            std::exit(1);                                                               \
        }                                                                               \
    } while (0)
#endif

#define INFO_LOG(fmt, args...) fprintf(stdout, "[INFO]  " fmt "\n", ##args)
#define ERROR_LOG(fmt, args...) fprintf(stderr, "[ERROR] " fmt "\n", ##args)

// Reads exactly fileSize bytes of filePath into buffer (which holds bufferSize bytes).
inline bool ReadFile(const std::string &filePath, size_t fileSize, void *buffer, size_t bufferSize)
{
    if (fileSize > bufferSize) {
        ERROR_LOG("%s: %zu bytes do not fit a buffer of %zu", filePath.c_str(), fileSize, bufferSize);
        return false;
    }
    std::ifstream file(filePath, std::ios::binary | std::ios::ate);
    if (!file) {
        ERROR_LOG("cannot open %s", filePath.c_str());
        return false;
    }
    std::streamsize actual = file.tellg();
    if (actual != static_cast<std::streamsize>(fileSize)) {
        ERROR_LOG("%s has %lld bytes, expected %zu", filePath.c_str(), static_cast<long long>(actual),
            fileSize);
        return false;
    }
    file.seekg(0);
    file.read(static_cast<char *>(buffer), static_cast<std::streamsize>(fileSize));
    return static_cast<bool>(file);
}

// Writes size bytes of buffer to filePath, replacing it.
inline bool WriteFile(const std::string &filePath, const void *buffer, size_t size)
{
    std::ofstream file(filePath, std::ios::binary | std::ios::trunc);
    if (!file) {
        ERROR_LOG("cannot create %s", filePath.c_str());
        return false;
    }
    file.write(static_cast<const char *>(buffer), static_cast<std::streamsize>(size));
    return static_cast<bool>(file);
}
#endif  // DATA_UTILS_H
