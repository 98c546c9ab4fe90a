// parse_json, the one reader of JSON text from outside: nesting is refused past the bound
// before a document is built (one 200 KB line of '[' once ended `quax serve`, `quax card` and
// `quax train --resume` on a stack overflow in the JSON library's recursive code), every
// error is one line naming what was read, and a syntax error says where the parser stopped.
#include <gtest/gtest.h>

#include <string>

#include "core/bounded_json.h"

namespace quax {
namespace {

std::string nested_arrays(int depth) { return std::string(depth, '[') + std::string(depth, ']'); }

TEST(BoundedJson, AcceptsNestingUpToTheBoundAndRefusesOneMore) {
  EXPECT_EQ(parse_json("[1, [2, {\"a\": [3]}]]", "x").dump(), "[1,[2,{\"a\":[3]}]]");
  EXPECT_NO_THROW(parse_json(nested_arrays(kMaxJsonDepth), "x"));
  try {
    parse_json(nested_arrays(kMaxJsonDepth + 1), "metrics line 3");
    FAIL() << "a document one level deeper than the bound was accepted";
  } catch (const JsonError& e) {
    EXPECT_EQ(std::string(e.what()), "metrics line 3: nested deeper than 64 levels");
    EXPECT_EQ(e.byte, 0u);
  }
  // Objects count as arrays do.
  std::string objects;
  for (int i = 0; i <= kMaxJsonDepth; ++i) objects += "{\"a\":";
  objects += "1" + std::string(kMaxJsonDepth + 1, '}');
  EXPECT_THROW(parse_json(objects, "x"), JsonError);
  EXPECT_NO_THROW(parse_json(nested_arrays(3), "x", 3));
  EXPECT_THROW(parse_json(nested_arrays(4), "x", 3), JsonError);
}

TEST(BoundedJson, ADocumentNestedTwoHundredThousandDeepIsRefusedNotACrash) {
  const std::string deep = "{\"size\": " + nested_arrays(200000) + "}";
  std::string error;
  const auto j = parse_json_or_discarded(deep, "quax.json", &error);
  EXPECT_TRUE(j.is_discarded());
  EXPECT_EQ(error, "quax.json: nested deeper than 64 levels");
  // Unclosed, as a hostile file may be.
  EXPECT_THROW(parse_json(std::string(200000, '['), "x"), JsonError);
}

TEST(BoundedJson, SyntaxErrorsAreOneLineWithWhereTheParserStopped) {
  try {
    parse_json("{\"a\": 1", "result line");
    FAIL();
  } catch (const JsonError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("result line: ", 0), 0u) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_GT(e.byte, 7u);  // past the end: the line was cut short
  }
  // A long hostile text is not quoted back.
  const std::string junk = "[" + std::string(10000, 'x') + "]";
  std::string error;
  EXPECT_TRUE(parse_json_or_discarded(junk, "body", &error).is_discarded());
  EXPECT_LT(error.size(), 200u) << error;
}

}  // namespace
}  // namespace quax
