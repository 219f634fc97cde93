/*
 * Reading and writing the binary files scripts/gen_data.py makes, and printing half data.
 */
#ifndef DATA_UTILS_H
#define DATA_UTILS_H
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

#include "acl/acl.h"

#define INFO_LOG(fmt, args...) fprintf(stdout, "[INFO]  " fmt "\n", ##args)
#define ERROR_LOG(fmt, args...) fprintf(stdout, "[ERROR]  " fmt "\n", ##args)
#define CHECK_ACL(x)                                                                        \
    do {                                                                                    \
        aclError __ret = x;                                                                 \
        if (__ret != ACL_ERROR_NONE) {                                                      \
            std::cerr << __FILE__ << ":" << __LINE__ << " aclError:" << __ret << " "        \
                      << aclGetRecentErrMsg() << std::endl;                                 \
            exit(1);                                                                        \
        }                                                                                   \
    } while (0)

inline bool ReadFile(const std::string &filePath, size_t fileSize, void *buffer, size_t bufferSize)
{
    struct stat sBuf;
    if (stat(filePath.c_str(), &sBuf) == -1 || !S_ISREG(sBuf.st_mode)) {
        ERROR_LOG("%s is not a file", filePath.c_str());
        return false;
    }
    std::ifstream file(filePath, std::ios::binary);
    if (!file.is_open() || static_cast<size_t>(sBuf.st_size) != fileSize || fileSize > bufferSize) {
        ERROR_LOG("cannot read %zu bytes from %s", fileSize, filePath.c_str());
        return false;
    }
    file.read(static_cast<char *>(buffer), static_cast<std::streamsize>(fileSize));
    return static_cast<bool>(file);
}

inline bool WriteFile(const std::string &filePath, const void *buffer, size_t size)
{
    int fd = open(filePath.c_str(), O_RDWR | O_CREAT | O_TRUNC, S_IRUSR | S_IWRITE);
    if (fd < 0) {
        ERROR_LOG("Open file failed. path = %s", filePath.c_str());
        return false;
    }
    ssize_t written = write(fd, buffer, size);
    (void)close(fd);
    return written == static_cast<ssize_t>(size);
}

[[maybe_unused]] inline void PrintHalf(const aclFloat16 *data, size_t count)
{
    for (size_t i = 0; i < count; ++i) {
        std::cout << aclFloat16ToFloat(data[i]) << (i + 1 == count ? "\n" : " ");
    }
}
#endif // DATA_UTILS_H
