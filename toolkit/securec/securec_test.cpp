// securec (libc_sec): every documented return value and what each leaves in the destination.
#include "securec.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace {

std::string Filled(const char* buf, size_t n) { return std::string(buf, n); }

TEST(SecurecTest, MemcpySuccessAndEveryError) {
  char dst[8];
  const char src[] = "abcdefgh";
  std::memset(dst, 'x', sizeof dst);
  EXPECT_EQ(memcpy_s(dst, sizeof dst, src, 5), EOK);
  EXPECT_EQ(Filled(dst, 8), "abcdexxx");
  EXPECT_EQ(memcpy_s(dst, sizeof dst, src, 0), EOK);  // nothing to copy
  EXPECT_EQ(memcpy_s(dst, sizeof dst, dst, 8), EOK);  // onto itself
  EXPECT_EQ(memcpy_s(dst, 0, src, 1), ERANGE);
  EXPECT_EQ(memcpy_s(dst, SECUREC_MEM_MAX_LEN + 1, src, 1), ERANGE);
  EXPECT_EQ(Filled(dst, 8), "abcdexxx");  // ERANGE writes nothing
  EXPECT_EQ(memcpy_s(nullptr, sizeof dst, src, 1), EINVAL);
  EXPECT_EQ(memcpy_s(dst, sizeof dst, nullptr, 1), EINVAL_AND_RESET);
  EXPECT_EQ(Filled(dst, 8), std::string(8, '\0'));  // reset: destMax bytes zeroed
  std::memset(dst, 'x', sizeof dst);
  EXPECT_EQ(memcpy_s(dst, 4, src, 5), ERANGE_AND_RESET);
  EXPECT_EQ(Filled(dst, 8), std::string(4, '\0') + "xxxx");  // only destMax bytes
  char buf[16] = "0123456789";
  EXPECT_EQ(memcpy_s(buf + 2, 8, buf, 4), EOVERLAP_AND_RESET);
  EXPECT_EQ(Filled(buf, 10), "01" + std::string(8, '\0'));
}

TEST(SecurecTest, MemmoveHandlesOverlapAndSharesTheOtherRules) {
  char buf[16] = "0123456789";
  EXPECT_EQ(memmove_s(buf + 2, 8, buf, 6), EOK);
  EXPECT_EQ(Filled(buf, 10), "0101234589");
  EXPECT_EQ(memmove_s(buf, 0, buf, 1), ERANGE);
  EXPECT_EQ(memmove_s(nullptr, 4, buf, 1), EINVAL);
  EXPECT_EQ(memmove_s(buf, 4, nullptr, 1), EINVAL_AND_RESET);
  EXPECT_EQ(Filled(buf, 6), std::string(4, '\0') + "23");
  EXPECT_EQ(memmove_s(buf, 4, buf + 8, 5), ERANGE_AND_RESET);
}

TEST(SecurecTest, Memset) {
  char buf[8];
  std::memset(buf, 'x', sizeof buf);
  EXPECT_EQ(memset_s(buf, sizeof buf, 'a', 3), EOK);
  EXPECT_EQ(Filled(buf, 8), "aaaxxxxx");
  EXPECT_EQ(memset_s(buf, 4, 'b', 6), ERANGE_AND_RESET);  // the whole destMax gets c
  EXPECT_EQ(Filled(buf, 8), "bbbbxxxx");
  EXPECT_EQ(memset_s(buf, 0, 'c', 1), ERANGE);
  EXPECT_EQ(memset_s(buf, SECUREC_MEM_MAX_LEN + 1, 'c', 1), ERANGE);
  EXPECT_EQ(memset_s(nullptr, 4, 'c', 1), EINVAL);
  EXPECT_EQ(memset_s(nullptr, 0, 'c', 0), ERANGE);
  EXPECT_EQ(memset_s(buf, 0, 'c', 0), EOK);
  EXPECT_EQ(Filled(buf, 8), "bbbbxxxx");
}

TEST(SecurecTest, Strcpy) {
  char dst[6];
  EXPECT_EQ(strcpy_s(dst, sizeof dst, "hello"), EOK);
  EXPECT_STREQ(dst, "hello");
  EXPECT_EQ(strcpy_s(dst, sizeof dst, "hello!"), ERANGE_AND_RESET);  // needs 7 bytes
  EXPECT_EQ(dst[0], '\0');
  EXPECT_EQ(strcpy_s(dst, 0, "a"), ERANGE);
  EXPECT_EQ(strcpy_s(nullptr, 4, "a"), EINVAL);
  std::strcpy(dst, "keep");
  EXPECT_EQ(strcpy_s(dst, sizeof dst, nullptr), EINVAL_AND_RESET);
  EXPECT_EQ(dst[0], '\0');
  char buf[16] = "abcdef";
  EXPECT_EQ(strcpy_s(buf + 2, 10, buf), EOVERLAP_AND_RESET);
  EXPECT_EQ(buf[2], '\0');
}

TEST(SecurecTest, Strncpy) {
  char dst[6];
  EXPECT_EQ(strncpy_s(dst, sizeof dst, "hello world", 5), EOK);
  EXPECT_STREQ(dst, "hello");
  EXPECT_EQ(strncpy_s(dst, sizeof dst, "hi", 10), EOK);  // count beyond the source is fine
  EXPECT_STREQ(dst, "hi");
  EXPECT_EQ(strncpy_s(dst, sizeof dst, "hello world", 6), ERANGE_AND_RESET);
  EXPECT_EQ(dst[0], '\0');
  std::strcpy(dst, "keep");
  EXPECT_EQ(strncpy_s(dst, sizeof dst, "abc", 0), EOK);  // copies nothing, terminates
  EXPECT_EQ(dst[0], '\0');
  EXPECT_EQ(strncpy_s(dst, 0, "abc", 1), ERANGE);
  EXPECT_EQ(strncpy_s(nullptr, 4, "abc", 1), EINVAL);
  EXPECT_EQ(strncpy_s(dst, sizeof dst, nullptr, 1), EINVAL_AND_RESET);
  EXPECT_EQ(strncpy_s(dst, sizeof dst, "abc", SECUREC_STRING_MAX_LEN + 1), ERANGE_AND_RESET);
}

TEST(SecurecTest, StrcatAndStrncat) {
  char dst[8] = "ab";
  EXPECT_EQ(strcat_s(dst, sizeof dst, "cde"), EOK);
  EXPECT_STREQ(dst, "abcde");
  EXPECT_EQ(strncat_s(dst, sizeof dst, "fghij", 2), EOK);
  EXPECT_STREQ(dst, "abcdefg");
  EXPECT_EQ(strcat_s(dst, sizeof dst, "h"), ERANGE_AND_RESET);
  EXPECT_EQ(dst[0], '\0');
  char unterminated[4] = {'a', 'b', 'c', 'd'};
  EXPECT_EQ(strcat_s(unterminated, sizeof unterminated, "x"), EINVAL_AND_RESET);
  EXPECT_EQ(unterminated[0], '\0');
}

TEST(SecurecTest, SprintfAndSnprintf) {
  char dst[8];
  EXPECT_EQ(sprintf_s(dst, sizeof dst, "%d-%s", 42, "ab"), 5);
  EXPECT_STREQ(dst, "42-ab");
  EXPECT_EQ(sprintf_s(dst, sizeof dst, "%s", "too long!"), -1);
  EXPECT_EQ(dst[0], '\0');
  EXPECT_EQ(sprintf_s(dst, 0, "x"), -1);
  EXPECT_EQ(sprintf_s(nullptr, 4, "x"), -1);
  std::strcpy(dst, "keep");
  const char* volatile no_format = nullptr;  // volatile: keeps -Wformat from seeing the null
  EXPECT_EQ(sprintf_s(dst, sizeof dst, no_format), -1);
  EXPECT_EQ(dst[0], '\0');

  // count < destMax: at most count characters; a longer result is cut there and reported as -1
  // with the cut text kept.
  EXPECT_EQ(snprintf_s(dst, sizeof dst, 3, "%s", "abcdef"), -1);
  EXPECT_STREQ(dst, "abc");
  EXPECT_EQ(snprintf_s(dst, sizeof dst, 3, "%s", "ab"), 2);
  EXPECT_STREQ(dst, "ab");
  // count >= destMax: the result must fit in destMax.
  EXPECT_EQ(snprintf_s(dst, sizeof dst, 100, "%s", "abcdefg"), 7);
  EXPECT_EQ(snprintf_s(dst, sizeof dst, 100, "%s", "abcdefgh"), -1);
  EXPECT_EQ(dst[0], '\0');
  EXPECT_EQ(snprintf_s(dst, sizeof dst, static_cast<size_t>(-1), "%d", 7), 1);
  EXPECT_EQ(snprintf_s(dst, sizeof dst, SECUREC_STRING_MAX_LEN, "%d", 7), -1);
}

}  // namespace
