// quoted_input: what errors that quote a user's input show of it.
#include <gtest/gtest.h>

#include <string>

#include "core/quoted_input.h"

namespace quax {
namespace {

TEST(QuotedInput, ShortPrintableTextIsQuotedAsIs) {
  EXPECT_EQ(quoted_input("c5"), "'c5'");
  EXPECT_EQ(quoted_input(""), "''");
  EXPECT_EQ(quoted_input("e2-f3 swap"), "'e2-f3 swap'");
}

TEST(QuotedInput, LongTextIsCutAtTheLimit) {
  const std::string exact(kQuotedInputLimit, 'a');
  EXPECT_EQ(quoted_input(exact), "'" + exact + "'");
  const std::string ten_megabytes(10'000'000, 'a');
  EXPECT_EQ(quoted_input(ten_megabytes), "'" + exact + "'...");
}

TEST(QuotedInput, UnprintableBytesAreEscaped) {
  EXPECT_EQ(quoted_input(std::string("a\0b", 3)), "'a\\x00b'");
  EXPECT_EQ(quoted_input("a\nb\r\t\x1b[2J\x7f"), "'a\\x0ab\\x0d\\x09\\x1b[2J\\x7f'");
  EXPECT_EQ(quoted_input("\xc3\xa9\xff"), "'\\xc3\\xa9\\xff'");
  // The quote itself and the backslash cannot be mistaken for the end of the quote or an escape.
  EXPECT_EQ(quoted_input("it's \\x41"), "'it\\'s \\\\x41'");
  // Every result is printable ASCII, whatever the bytes.
  std::string all;
  for (int b = 0; b < 256; ++b) all += static_cast<char>(b);
  for (size_t at = 0; at < all.size(); at += 50)
    for (char ch : quoted_input(all.substr(at, 50))) EXPECT_TRUE(ch >= 0x20 && ch < 0x7f) << static_cast<int>(ch);
}

TEST(QuotedInput, ACutCountsInputBytesNotEscapes) {
  // 60 NUL bytes and more: the first 60 shown, each as four characters.
  std::string out = quoted_input(std::string(100, '\0'));
  EXPECT_EQ(out.size(), 2 + 4 * kQuotedInputLimit + 3);
  EXPECT_EQ(out.substr(out.size() - 4), "'...");
}

// A library's message that may carry an input byte: escaped and cut, not quoted.
TEST(QuotedInput, PrintableLineEscapesWithoutQuoting) {
  EXPECT_EQ(printable_line("end of sequence flow not found"), "end of sequence flow not found");
  EXPECT_EQ(printable_line("unknown escape character: \n"), "unknown escape character: \\x0a");
  EXPECT_EQ(printable_line("can't"), "can't");
  EXPECT_EQ(printable_line(std::string(1000, 'y')), std::string(kQuotedInputLimit, 'y') + "...");
}

}  // namespace
}  // namespace quax
