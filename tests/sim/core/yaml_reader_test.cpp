// sim/core/yaml_reader: libyaml's parse built into yaml-cpp's nodes. The peer is yaml-cpp's own
// parser: on every YAML file in the repository that both read, the two trees agree node for
// node (type, text, tag, style, place), but for where a flow map's key is marked.
#include <filesystem>
#include <functional>
#include <gtest/gtest.h>
#include <string>
#include <vector>

#include "tests/error_of.hpp"

#include "sim/core/file_io.hpp"
#include "sim/core/utf8.hpp"
#include "sim/core/yaml_doc.hpp"
#include "sim/core/yaml_reader.hpp"

namespace {

using namespace placesim;
using test::error_of;

// Where a and b differ ("" if nowhere): the path to the first difference and what differs.
// `flow_key` says a is a key of a flow map, which yaml-cpp marks at its value.
std::string difference(const YAML::Node& a, const YAML::Node& b, const std::string& path, bool flow_key = false) {
  if (a.Type() != b.Type()) return path + ": type";
  if (a.Tag() != b.Tag()) return path + ": tag '" + a.Tag() + "' vs '" + b.Tag() + "'";
  if (!flow_key && (a.Mark().line != b.Mark().line || a.Mark().column != b.Mark().column))
    return path + ": mark " + std::to_string(a.Mark().line) + ":" + std::to_string(a.Mark().column) + " vs " +
           std::to_string(b.Mark().line) + ":" + std::to_string(b.Mark().column);
  if (a.IsScalar()) return a.Scalar() == b.Scalar() ? "" : path + ": text";
  if (a.IsNull() || a.size() != b.size()) return a.IsNull() ? "" : path + ": size";
  if (a.Style() != b.Style()) return path + ": style";
  if (a.IsSequence()) {
    for (std::size_t i = 0; i < a.size(); ++i)
      if (std::string d = difference(a[i], b[i], path + "[" + std::to_string(i) + "]"); !d.empty()) return d;
    return "";
  }
  auto ia = a.begin();
  auto ib = b.begin();
  for (; ia != a.end(); ++ia, ++ib) {
    const bool flow = a.Style() == YAML::EmitterStyle::Flow;
    if (std::string d = difference(ia->first, ib->first, path + ".key", flow); !d.empty()) return d;
    if (std::string d = difference(ia->second, ib->second, path + "." + ia->first.Scalar()); !d.empty()) return d;
  }
  return "";
}

TEST(YamlReader, EveryFileOfTheRepositoryReadsAsYamlCppReadsIt) {
  const std::filesystem::path root = PLACESIM_SOURCE_DIR;
  int compared = 0;
  for (const char* dir : {"hw/presets", "scenarios", "tests/bad_inputs", "models/configs"}) {
    if (!std::filesystem::exists(root / dir)) continue;
    for (const auto& f : std::filesystem::recursive_directory_iterator(root / dir)) {
      if (f.path().extension() != ".yaml") continue;
      const std::string text = read_input_file(f.path().string());
      // Files malformed on purpose (tests/bad_inputs; their messages are the catalogue's): not
      // YAML to yaml-cpp, not UTF-8, or two documents, the second of which yaml-cpp would read.
      std::vector<YAML::Node> docs;
      try {
        require_utf8(text, f.path().string());
        docs = YAML::LoadAll(text);
      } catch (const std::exception&) {
        continue;
      }
      if (docs.size() > 1) continue;
      const YAML::Node peer = docs.empty() ? YAML::Node() : docs.front();
      YAML::Node ours;
      try {
        ours = read_yaml(text, f.path().string());
      } catch (const InputError& e) {
        // yaml-cpp reads a key given twice (tests/bad_inputs has one); Yaml never did.
        if (std::string(e.what()).find("is given twice") == std::string::npos)
          ADD_FAILURE() << f.path() << " read by yaml-cpp, not here: " << e.what();
        continue;
      }
      EXPECT_EQ(difference(ours, peer, f.path().string()), "");
      ++compared;
    }
  }
  EXPECT_GT(compared, 100);  // the presets, scenarios and well-formed bad inputs
}

TEST(YamlReader, NullIsWhatYamlCppReadsAsNull) {
  const YAML::Node n = read_yaml("a:\nb: ~\nc: null\nd: Null\ne: NULL\nf: 'null'\ng: \"\"\nh: !!str null\ni: nul\n", "n");
  for (const char* k : {"a", "b", "c", "d", "e"}) EXPECT_TRUE(n[k].IsNull()) << k;
  EXPECT_EQ(n["f"].Scalar(), "null");
  EXPECT_EQ(n["g"].Scalar(), "");
  EXPECT_EQ(n["h"].Scalar(), "null");
  EXPECT_EQ(n["h"].Tag(), "tag:yaml.org,2002:str");
  EXPECT_EQ(n["i"].Scalar(), "nul");
}

TEST(YamlReader, AnAliasIsItsAnchorsNodeAndOnlyAfterIt) {
  const YAML::Node n = read_yaml("a: &x {k: 1}\nb: *x\nc: [*x]\n", "a");
  EXPECT_TRUE(n["b"].is(n["a"]));
  EXPECT_TRUE(n["c"][0].is(n["a"]));
  // Inside the node it names: the document would hold itself.
  EXPECT_EQ(error_of([] { read_yaml("a: &x [1, *x]\n", "s.yaml"); }),
            "s.yaml:1:11: malformed YAML/JSON: alias '*x' names no anchor defined before it");
  EXPECT_EQ(error_of([] { read_yaml("b: *nope\n", "s.yaml"); }),
            "s.yaml:1:4: malformed YAML/JSON: alias '*nope' names no anchor defined before it");
}

TEST(YamlReader, AFileHoldsOneDocument) {
  EXPECT_EQ(read_yaml("a: 1\n---\n", "d")["a"].Scalar(), "1");  // a `---` with nothing after it
  EXPECT_TRUE(read_yaml("# only a comment\n", "d").IsNull());
  const std::string second = "d.yaml:3:1: a second YAML document";
  EXPECT_EQ(error_of([] { read_yaml("a: 1\n---\nb: 2\n", "d.yaml"); }).rfind(second, 0), 0u);
  EXPECT_EQ(error_of([] { read_yaml("a: 1\n...\nb\n", "d.yaml"); }).rfind(second, 0), 0u);
}

TEST(YamlReader, ErrorsAreWhereLibyamlStoppedInCharacters) {
  // "name: " is 6 characters, then c, a, f, é (two bytes): the control character is the 11th.
  EXPECT_EQ(error_of([] { read_yaml("x: 1\nname: caf\xC3\xA9\x01\n", "c.yaml"); }),
            "c.yaml:2:11: malformed YAML/JSON: control characters are not allowed (U+0001)");
  // The second ':' cannot start a value there; the construct begun elsewhere is named.
  EXPECT_EQ(error_of([] { read_yaml("a: b: c\n", "c.yaml"); }),
            "c.yaml:1:5: malformed YAML/JSON: mapping values are not allowed in this context");
  EXPECT_EQ(error_of([] { read_yaml("a:\n  b: 1\n c: 2\n", "c.yaml"); }),
            "c.yaml:3:2: malformed YAML/JSON: did not find expected key (while parsing a block mapping, from line 1, "
            "column 1)");
}

TEST(YamlReader, AKeyGivenTwiceIsAnErrorAtTheSecondInMapsSmallAndLarge) {
  EXPECT_EQ(error_of([] { read_yaml("a: 1\nb: {c: 2,\n c: 3}\n", "k.yaml"); }),
            "k.yaml:3:2: key 'c' is given twice (first at line 2, column 5); give it once");
  // 20 keys (past the pairwise comparison), the last a repeat of the fifth: k0 to k9 take 7
  // characters each from column 2, k10 to k18 8 each from column 72.
  std::string large = "{";
  for (int k = 0; k < 19; ++k) large += "k" + std::to_string(k) + ": 1, ";
  large += "k4: 2}";
  EXPECT_EQ(error_of([&] { read_yaml(large, "k.yaml"); }).rfind("k.yaml:1:144: key 'k4' is given twice (first at line 1, column 30)", 0),
            0u);
  // Maps as keys compare by their text; an alias is its anchor's node, not a second key.
  EXPECT_EQ(error_of([] { read_yaml("? {x: 1}\n: a\n? {x: 1}\n: b\n", "k.yaml"); }).rfind("k.yaml:3:3: key '{x: 1}' is given twice", 0), 0u);
  EXPECT_NO_THROW(read_yaml("a: &m {k: 1}\nb: *m\nc: [*m, *m]\n", "k.yaml"));
}

TEST(YamlReader, NestingStopsAt256Levels) {
  const auto nested = [](int levels) { return std::string(levels, '[') + std::string(levels, ']'); };
  EXPECT_NO_THROW(read_yaml(nested(256), "n.yaml"));
  // The 257th '[' is the 257th character.
  EXPECT_EQ(error_of([&] { read_yaml(nested(257), "n.yaml"); }),
            "n.yaml:1:257: malformed YAML/JSON: values nested deeper than 256 levels");
}

TEST(YamlReader, StylesStayAndAFlowMapsKeyIsMarkedAtItself) {
  const YAML::Node n = read_yaml("a: {x: 1}\nb:\n  y: 2\nc: [1]\n", "s");
  EXPECT_EQ(n["a"].Style(), YAML::EmitterStyle::Flow);
  EXPECT_EQ(n["b"].Style(), YAML::EmitterStyle::Block);
  EXPECT_EQ(n["c"].Style(), YAML::EmitterStyle::Flow);
  // An unknown key of a flow map: the error points at the key (column 5), not at its value.
  EXPECT_EQ(error_of([] { Yaml::load_string("a: {x: 1}\n", "k.yaml").at("a").allow_keys({"y"}); }).rfind("k.yaml:1:5: ", 0),
            0u);
}

}  // namespace
