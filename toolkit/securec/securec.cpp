// libc_sec for the toolkit: see securec.h for the contract. Every check happens before anything
// is written, so a failing call leaves only its documented reset behind.
#include "securec.h"

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace {

bool Overlap(const void* a, size_t a_len, const void* b, size_t b_len) {
  const auto pa = reinterpret_cast<uintptr_t>(a), pb = reinterpret_cast<uintptr_t>(b);
  return pa < pb + b_len && pb < pa + a_len;
}

bool BadMemMax(size_t destMax) { return destMax == 0 || destMax > SECUREC_MEM_MAX_LEN; }
bool BadStrMax(size_t destMax) { return destMax == 0 || destMax > SECUREC_STRING_MAX_LEN; }

// memcpy_s and memmove_s share every rule but the overlap one.
errno_t CopyChecked(void* dest, size_t destMax, const void* src, size_t count, bool may_overlap) {
  if (BadMemMax(destMax)) return ERANGE;
  if (dest == nullptr) return EINVAL;
  if (src == nullptr) {
    std::memset(dest, 0, destMax);
    return EINVAL_AND_RESET;
  }
  if (count > destMax) {
    std::memset(dest, 0, destMax);
    return ERANGE_AND_RESET;
  }
  if (count == 0 || dest == src) return EOK;
  if (!may_overlap && Overlap(dest, count, src, count)) {
    std::memset(dest, 0, destMax);
    return EOVERLAP_AND_RESET;
  }
  std::memmove(dest, src, count);
  return EOK;
}

// The common checks of the string functions; returns EOK when the call may go on.
errno_t StringArgs(char* dest, size_t destMax, const char* src) {
  if (BadStrMax(destMax)) return ERANGE;
  if (dest == nullptr) return EINVAL;
  if (src == nullptr) {
    dest[0] = '\0';
    return EINVAL_AND_RESET;
  }
  return EOK;
}

// Copies `len` characters of src and a terminator to dest (capacity checked by the caller).
errno_t PutString(char* dest, size_t destMax, const char* src, size_t len, size_t dest_used) {
  char* at = dest + dest_used;
  if (at == src) {  // copying a string onto itself
    at[len] = '\0';
    return EOK;
  }
  if (Overlap(dest, dest_used + len + 1, src, len + 1)) {
    dest[0] = '\0';
    return EOVERLAP_AND_RESET;
  }
  (void)destMax;
  std::memcpy(at, src, len);
  at[len] = '\0';
  return EOK;
}

}  // namespace

extern "C" {

errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
  return CopyChecked(dest, destMax, src, count, false);
}

errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count) {
  return CopyChecked(dest, destMax, src, count, true);
}

errno_t memset_s(void* dest, size_t destMax, int c, size_t count) {
  if (destMax <= SECUREC_MEM_MAX_LEN && dest != nullptr && count <= destMax) {
    std::memset(dest, c, count);
    return EOK;
  }
  if (destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) return ERANGE;
  if (dest == nullptr) return EINVAL;
  std::memset(dest, c, destMax);  // count > destMax: the whole buffer gets c
  return ERANGE_AND_RESET;
}

errno_t strcpy_s(char* strDest, size_t destMax, const char* strSrc) {
  const errno_t rc = StringArgs(strDest, destMax, strSrc);
  if (rc != EOK) return rc;
  const size_t len = strnlen(strSrc, destMax);
  if (len >= destMax) {
    strDest[0] = '\0';
    return ERANGE_AND_RESET;
  }
  return PutString(strDest, destMax, strSrc, len, 0);
}

errno_t strncpy_s(char* strDest, size_t destMax, const char* strSrc, size_t count) {
  const errno_t rc = StringArgs(strDest, destMax, strSrc);
  if (rc != EOK) return rc;
  if (count > SECUREC_STRING_MAX_LEN) {
    strDest[0] = '\0';
    return ERANGE_AND_RESET;
  }
  // At most `count` characters are copied; they and the terminator must fit.
  const size_t len = strnlen(strSrc, count < destMax ? count : destMax);
  if (len >= destMax) {
    strDest[0] = '\0';
    return ERANGE_AND_RESET;
  }
  return PutString(strDest, destMax, strSrc, len, 0);
}

errno_t strcat_s(char* strDest, size_t destMax, const char* strSrc) {
  return strncat_s(strDest, destMax, strSrc, SECUREC_STRING_MAX_LEN);
}

errno_t strncat_s(char* strDest, size_t destMax, const char* strSrc, size_t count) {
  const errno_t rc = StringArgs(strDest, destMax, strSrc);
  if (rc != EOK) return rc;
  if (count > SECUREC_STRING_MAX_LEN) {
    strDest[0] = '\0';
    return ERANGE_AND_RESET;
  }
  const size_t used = strnlen(strDest, destMax);
  if (used == destMax) {  // strDest is not terminated inside destMax
    strDest[0] = '\0';
    return EINVAL_AND_RESET;
  }
  const size_t len = strnlen(strSrc, count < destMax ? count : destMax);
  if (used + len >= destMax) {
    strDest[0] = '\0';
    return ERANGE_AND_RESET;
  }
  return PutString(strDest, destMax, strSrc, len, used);
}

int vsprintf_s(char* strDest, size_t destMax, const char* format, va_list argList) {
  if (format == nullptr || strDest == nullptr || BadStrMax(destMax)) {
    if (strDest != nullptr && !BadStrMax(destMax)) strDest[0] = '\0';
    return -1;
  }
  const int n = std::vsnprintf(strDest, destMax, format, argList);
  if (n < 0 || static_cast<size_t>(n) >= destMax) {  // an encoding error, or it did not fit
    strDest[0] = '\0';
    return -1;
  }
  return n;
}

int sprintf_s(char* strDest, size_t destMax, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = vsprintf_s(strDest, destMax, format, args);
  va_end(args);
  return n;
}

int vsnprintf_s(char* strDest, size_t destMax, size_t count, const char* format, va_list argList) {
  if (format == nullptr || strDest == nullptr || BadStrMax(destMax) ||
      (count > SECUREC_STRING_MAX_LEN - 1 && count != static_cast<size_t>(-1))) {
    if (strDest != nullptr && !BadStrMax(destMax)) strDest[0] = '\0';
    return -1;
  }
  if (destMax > count) {
    // At most `count` characters: a longer result is truncated there and reported with -1, the
    // truncated text kept (securec's documented behaviour).
    const int n = std::vsnprintf(strDest, count + 1, format, argList);
    if (n < 0) {
      strDest[0] = '\0';
      return -1;
    }
    return static_cast<size_t>(n) > count ? -1 : n;
  }
  const int n = std::vsnprintf(strDest, destMax, format, argList);
  if (n < 0 || static_cast<size_t>(n) >= destMax) {
    strDest[0] = '\0';
    return -1;
  }
  return n;
}

int snprintf_s(char* strDest, size_t destMax, size_t count, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int n = vsnprintf_s(strDest, destMax, count, format, args);
  va_end(args);
  return n;
}

}  // extern "C"
