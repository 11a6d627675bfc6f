// sim/core/json_doc: JSON read with the line and column of every value, the accessors Yaml
// offers, and every malformed input an error at its place (columns count characters).
#include <gtest/gtest.h>

#include "tests/error_of.hpp"

#include "sim/core/json_doc.hpp"

namespace {

using namespace placesim;

using test::error_of;

TEST(Json, ValuesCarryFileLineColumn) {
  const Json doc = Json::load_string("{\"a\": 1,\n \"b\": {\"c\": \"fast\", \"d\": \"12GB/s\"},\n \"e\": [true, null, -2.5e3]}",
                                     "f.json");
  EXPECT_EQ(doc.at("a").integer(), 1);
  EXPECT_EQ(doc.at("b").at("d").bandwidth(), 12e9);
  EXPECT_EQ(error_of([&] { doc.at("b").at("c").number(); }), "f.json:2:13: expected a number, got 'fast'");
  EXPECT_EQ(error_of([&] { doc.at("zz"); }), "f.json:1:1: missing key 'zz'");
  EXPECT_EQ(error_of([&] { doc.allow_keys({"a", "e"}); }), "f.json:2:2: unknown key 'b' (expected one of: a, e)");
  const std::vector<Json> e = doc.at("e").items();
  ASSERT_EQ(e.size(), 3u);
  EXPECT_TRUE(e[0].boolean());
  EXPECT_FALSE(e[1].defined());  // null, as in Yaml
  EXPECT_EQ(e[2].number(), -2500);
  EXPECT_EQ(e[2].loc().str(), "f.json:3:20");
  EXPECT_EQ(doc.at("b").str_or("zz", "x"), "x");
  EXPECT_EQ(doc.number_or("a", 7), 1);
  EXPECT_FALSE(doc.get("zz").defined());
  EXPECT_EQ(error_of([&] { doc.at("a").at("x"); }), "f.json:1:7: expected a map with key 'x'");
  EXPECT_EQ(error_of([&] { doc.at("e").entries(); }), "f.json:3:7: expected a map");
  EXPECT_EQ(error_of([&] { e[2].integer(); }), "f.json:3:20: expected an integer, got '-2.5e3'");
}

// A container's first child and a key's value are not stored: each is the value parsed next
// (json_doc.cpp). Empty containers beside full ones, at every depth, keep their own members.
TEST(Json, EmptyAndNestedContainersKeepTheirMembers) {
  const Json doc = Json::load_string(
      R"({"a": {}, "b": [], "c": [[], [1, {"x": [2, {}]}], {}], "d": {"e": {"f": 3}, "g": []}, "h": "end"})", "n.json");
  const auto top = doc.entries();
  ASSERT_EQ(top.size(), 5u);
  EXPECT_EQ(top[0].first, "a");
  EXPECT_TRUE(top[0].second.entries().empty());
  EXPECT_TRUE(doc.at("b").items().empty());
  const std::vector<Json> c = doc.at("c").items();
  ASSERT_EQ(c.size(), 3u);
  EXPECT_TRUE(c[0].items().empty());
  const std::vector<Json> c1 = c[1].items();
  ASSERT_EQ(c1.size(), 2u);
  EXPECT_EQ(c1[0].integer(), 1);
  const std::vector<Json> x = c1[1].at("x").items();
  ASSERT_EQ(x.size(), 2u);
  EXPECT_EQ(x[0].integer(), 2);
  EXPECT_TRUE(x[1].is_map());
  EXPECT_TRUE(x[1].entries().empty());
  EXPECT_TRUE(c[2].entries().empty());
  EXPECT_EQ(doc.at("d").at("e").at("f").integer(), 3);
  EXPECT_FALSE(doc.at("d").has("f"));  // a grandchild is not a member
  EXPECT_TRUE(doc.at("d").at("g").items().empty());
  EXPECT_EQ(doc.at("h").str(), "end");
  EXPECT_EQ(doc.at("h").loc().str(), "n.json:1:92");
}

TEST(Json, EntriesKeepFileOrderAndEscapesAreDecoded) {
  const Json doc = Json::load_string(R"({"z": 1, "a\"b": 2, "caf\u00e9 \ud83d\ude00": 3, "tab\t": "x\ny"})", "e.json");
  const auto entries = doc.entries();
  ASSERT_EQ(entries.size(), 4u);
  EXPECT_EQ(entries[0].first, "z");
  EXPECT_EQ(entries[1].first, "a\"b");
  EXPECT_EQ(entries[2].first, "caf\xC3\xA9 \xF0\x9F\x98\x80");
  EXPECT_EQ(entries[3].second.str(), "x\ny");
}

// Strings are scanned eight bytes at a time and columns of ASCII text counted in bytes
// (json_doc.cpp): a quote, an escape or a control character at every place in a long string, and
// characters of several bytes before a value on a long line, read as they do one byte at a time.
TEST(Json, LongStringsAndLinesReadAsShortOnes) {
  for (int k = 0; k < 20; ++k) {
    const std::string plain(static_cast<std::size_t>(k), 'x');
    const std::string tail = "yz0123456789";
    const Json doc = Json::load_string("[\"" + plain + "\", \"" + plain + "\\n" + tail + "\", \"" + plain + "\xC3\xA9" + tail +
                                           "\", " + std::to_string(k) + "]",
                                       "s.json");
    const std::vector<Json> items = doc.items();
    ASSERT_EQ(items.size(), 4u);
    EXPECT_EQ(items[0].str(), plain);
    EXPECT_EQ(items[1].str(), plain + "\n" + tail);
    EXPECT_EQ(items[2].str(), plain + "\xC3\xA9" + tail);
    // Columns in characters, the "é" one: 1 + the characters before the number, item by item
    // with what follows each (quotes, ", ").
    const int column = 1 + (2 + k + 3) + (1 + k + 2 + 12 + 3) + (1 + k + 1 + 12 + 3);
    EXPECT_EQ(items[3].loc().str(), "s.json:1:" + std::to_string(column)) << k;
    EXPECT_EQ(error_of([&] { Json::load_string("[\"" + plain + "\t" + tail + "\"]", "c.json"); }),
              "c.json:1:" + std::to_string(3 + k) +
                  ": malformed JSON: a control character in a string (write it as an escape, e.g. \\n)")
        << k;
    EXPECT_EQ(error_of([&] { Json::load_string("[\"" + plain, "u.json"); }),
              "u.json:1:2: malformed JSON: a string that is never closed (no '\"' after it)")
        << k;
  }
  // An ASCII file: columns far along one line (a minified graph is one line).
  std::string line = "[";
  for (int i = 0; i < 1000; ++i) line += "\"name" + std::to_string(i) + "\",";
  const Json doc = Json::load_string(line + "true]", "l.json");
  EXPECT_EQ(doc.items().back().loc().str(), "l.json:1:" + std::to_string(line.size() + 1));
}

TEST(Json, MalformedInputIsAnErrorAtItsPlace) {
  auto error = [](const std::string& text) { return error_of([&] { Json::load_string(text, "m.json"); }); };
  EXPECT_EQ(error("{\"nodes\": [\n  {\"name\": \"a\"\n]}"),
            "m.json:3:1: malformed JSON: expected ',' or '}' after a member of an object, got ']'");
  EXPECT_EQ(error("[1, 2,]"), "m.json:1:7: malformed JSON: expected a value (an object, array, string, number, true, "
                              "false or null), got ']'");
  EXPECT_EQ(error("{\"a\": 01}"), "m.json:1:8: malformed JSON: expected ',' or '}' after a member of an object, got '1'");
  EXPECT_EQ(error("{\"a\": tru}"), "m.json:1:7: malformed JSON: expected a value, got 't' (did you mean true?)");
  EXPECT_EQ(error("{\"a\": \"x}"), "m.json:1:7: malformed JSON: a string that is never closed (no '\"' after it)");
  EXPECT_EQ(error("{\"a\": \"\\q\"}"), "m.json:1:8: malformed JSON: unknown escape \\q in a string");
  EXPECT_EQ(error("{\"a\": \"\\udc00\"}"), "m.json:1:8: malformed JSON: \\u escape of a lone low surrogate (not a character)");
  EXPECT_EQ(error("{a: 1}"), "m.json:1:2: malformed JSON: expected a key (a string in double quotes), got 'a'");
  EXPECT_EQ(error("{} {}"), "m.json:1:4: malformed JSON: expected the end of the file after the document's value");
  EXPECT_EQ(error(""), "m.json:1:1: malformed JSON: expected a value, got the end of the file");
  EXPECT_EQ(error(std::string(1000, '[')), "m.json:1:258: malformed JSON: values nested deeper than 256 levels");
  // Columns count characters: "é" is one.
  EXPECT_EQ(error("{\"\xC3\xA9\": x}"), "m.json:1:7: malformed JSON: expected a value (an object, array, string, "
                                        "number, true, false or null), got 'x'");
}

TEST(Json, AKeyGivenTwiceIsAnErrorAtTheSecondNamingTheFirst) {
  EXPECT_EQ(error_of([] { Json::load_string("{\"a\": 1,\n \"b\": {\"c\": 2,\n  \"c\": 3}}", "d.json"); }),
            "d.json:3:3: key 'c' is given twice (first at line 2, column 8); give it once");
  // In a large object too (checked with a hash map there).
  std::string big = "{";
  for (int i = 0; i < 100; ++i) big += "\"k" + std::to_string(i) + "\": " + std::to_string(i) + ",\n";
  big += "\"k42\": 0}";
  EXPECT_EQ(error_of([&] { Json::load_string(big, "big.json"); }),
            "big.json:101:1: key 'k42' is given twice (first at line 43, column 1); give it once");
}

TEST(Json, InputsAreUtf8) {
  // A lone continuation byte is an error at its line and column, before any parsing.
  EXPECT_EQ(error_of([] { Json::load_string("{\"a\": 1,\n \"name\": \"x\x80y\"}", "u.json"); }),
            "u.json:2:12: byte 0x80 is not UTF-8: inputs are UTF-8 text");
}

}  // namespace
