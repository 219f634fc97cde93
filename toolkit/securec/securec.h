/* securec: the bounds-checked memory and string functions CANN ships as libc_sec (securec.h),
 * for ascsim's toolkit. Signatures and return values as the library documents them
 * (openeuler-mirror/libboundscheck include/securec.h and the <RETURN VALUE> notes of its src/);
 * this is ascsim's own implementation. Link with -lc_sec (the toolkit's lib64).
 *
 * Return values of the errno_t functions:
 *   EOK                 success
 *   EINVAL              dest is NULL (and destMax is valid): nothing written
 *   EINVAL_AND_RESET    src is NULL, or (strcat) dest is not terminated within destMax:
 *                       dest is reset
 *   ERANGE              destMax is 0 or larger than SECUREC_MEM_MAX_LEN / SECUREC_STRING_MAX_LEN:
 *                       nothing written
 *   ERANGE_AND_RESET    the result does not fit in destMax: dest is reset
 *   EOVERLAP_AND_RESET  source and destination overlap (not memmove_s): dest is reset
 * "Reset" is all destMax bytes zeroed for memcpy_s / memmove_s, all destMax bytes set to c for
 * memset_s, and dest[0] = '\0' for the string functions. The printf family returns the number of
 * characters written, or -1 on an error or a truncation (with dest[0] = '\0', except that
 * snprintf_s with count < destMax keeps the truncated text).
 */
#ifndef ASCSIM_SECUREC_H
#define ASCSIM_SECUREC_H

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>

#ifndef SECUREC_MEM_MAX_LEN
#define SECUREC_MEM_MAX_LEN 0x7fffffffUL
#endif
#ifndef SECUREC_STRING_MAX_LEN
#define SECUREC_STRING_MAX_LEN 0x7fffffffUL
#endif

#ifndef SECUREC_DEFINED_ERRNO_TYPE
#define SECUREC_DEFINED_ERRNO_TYPE
#ifndef errno_t
typedef int errno_t;
#endif
#endif

#ifndef EOK
#define EOK 0
#endif
#ifndef EINVAL
#define EINVAL 22
#endif
#ifndef EINVAL_AND_RESET
#define EINVAL_AND_RESET 150
#endif
#ifndef ERANGE
#define ERANGE 34
#endif
#ifndef ERANGE_AND_RESET
#define ERANGE_AND_RESET 162
#endif
#ifndef EOVERLAP_AND_RESET
#define EOVERLAP_AND_RESET 182
#endif

#ifndef SECUREC_API
#define SECUREC_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

SECUREC_API errno_t memset_s(void *dest, size_t destMax, int c, size_t count);
SECUREC_API errno_t memmove_s(void *dest, size_t destMax, const void *src, size_t count);
SECUREC_API errno_t memcpy_s(void *dest, size_t destMax, const void *src, size_t count);
SECUREC_API errno_t strcpy_s(char *strDest, size_t destMax, const char *strSrc);
SECUREC_API errno_t strncpy_s(char *strDest, size_t destMax, const char *strSrc, size_t count);
SECUREC_API errno_t strcat_s(char *strDest, size_t destMax, const char *strSrc);
SECUREC_API errno_t strncat_s(char *strDest, size_t destMax, const char *strSrc, size_t count);
SECUREC_API int vsprintf_s(char *strDest, size_t destMax, const char *format, va_list argList)
    __attribute__((format(printf, 3, 0)));
SECUREC_API int sprintf_s(char *strDest, size_t destMax, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
SECUREC_API int vsnprintf_s(char *strDest, size_t destMax, size_t count, const char *format,
                            va_list argList) __attribute__((format(printf, 4, 0)));
SECUREC_API int snprintf_s(char *strDest, size_t destMax, size_t count, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

#ifdef __cplusplus
}
#endif

#endif /* ASCSIM_SECUREC_H */
