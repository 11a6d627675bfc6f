#include "sim/core/yaml_doc.hpp"

#include <cmath>
#include <fmt/format.h>
#include <vector>

#include "sim/core/file_io.hpp"
#include "sim/core/utf8.hpp"
#include "sim/core/yaml_reader.hpp"

namespace placesim {

Yaml Yaml::load_file(const std::string& path) {
  return load_string(read_input_file(path), path);
}

Yaml Yaml::load_string(const std::string& text, const std::string& name) {
  require_utf8(text, name);
  return Yaml(read_yaml(text, name), name);
}

SourceLoc Yaml::loc() const {
  if (!node_.IsDefined() || grafted_) return SourceLoc{file_};
  YAML::Mark m = node_.Mark();
  if (m.is_null() && origins_)
    for (const auto& [stand_in, original] : origins_->stand_ins)
      if (node_.is(stand_in)) m = original.Mark();
  if (m.is_null()) return SourceLoc{file_};
  return SourceLoc{file_, m.line + 1, m.column + 1};
}

void Yaml::fail(const std::string& what) const { throw InputError(loc(), what); }

namespace {

// A key to look up without copying it. node[std::string] on a map that lacks the key formats
// the key through a std::stringstream for an error message nobody reads (yaml-cpp's zombie
// node): a microsecond a miss, which made the optional fields of a 512-device hardware file a
// tenth of `placesim simulate`'s time. yaml-cpp streams only keys that can be streamed; this
// one compares as the string it views and cannot be.
struct KeyView {
  std::string_view text;
  bool operator==(const KeyView& other) const { return text == other.text; }
};

}  // namespace
}  // namespace placesim

namespace YAML {
template <>
struct convert<placesim::KeyView> {
  // A map key matches when it is a scalar with the same text (as yaml-cpp's std::string keys).
  static bool decode(const Node& node, placesim::KeyView& key) {
    if (!node.IsScalar()) return false;
    key.text = node.Scalar();  // the node's own string, alive as long as the document
    return true;
  }
};
}  // namespace YAML

namespace placesim {
namespace {

YAML::Node lookup(const YAML::Node& map, std::string_view key) { return map[KeyView{key}]; }

}  // namespace

bool Yaml::has(std::string_view key) const {
  return node_.IsMap() && lookup(node_, key).IsDefined();
}

Yaml Yaml::at(std::string_view key) const {
  if (!node_.IsMap()) fail(fmt::format("expected a map with key '{}'", key));
  YAML::Node n = lookup(node_, key);
  if (!n.IsDefined()) fail(fmt::format("missing key '{}'", key));
  return child(n);
}

Yaml Yaml::get(std::string_view key) const {
  if (!node_.IsMap()) return child(YAML::Node(YAML::NodeType::Undefined));
  return child(lookup(node_, key));
}

Yaml Yaml::child(const YAML::Node& n) const {
  if (origins_ && n.IsDefined()) {
    for (const auto& [stand_in, original] : origins_->stand_ins)
      if (n.is(stand_in)) {
        Yaml s = child(original);  // a graft's (named by it), or the file's (loc() finds the original)
        s.node_.reset(n);
        return s;
      }
    for (const auto& [graft, origin] : origins_->grafts)
      if (n.is(graft)) {
        Yaml g(n, origin);
        g.grafted_ = true;
        return g;
      }
  }
  Yaml c(n, file_, origins_);
  c.grafted_ = grafted_;
  return c;
}

void Yaml::allow_keys(std::initializer_list<std::string_view> allowed) const {
  allow_keys(std::vector<std::string>(allowed.begin(), allowed.end()));
}

void Yaml::allow_keys(const std::vector<std::string>& allowed) const {
  if (!node_.IsMap()) fail("expected a map");
  for (auto it = node_.begin(); it != node_.end(); ++it) {
    const std::string k = it->first.Scalar();
    bool ok = false;
    for (const std::string& a : allowed) ok = ok || a == k;
    if (!ok) child(it->first).fail(unknown_key_message(k, allowed));
  }
}

std::vector<std::pair<std::string, Yaml>> Yaml::entries() const {
  if (!node_.IsMap()) fail("expected a map");
  std::vector<std::pair<std::string, Yaml>> out;
  for (auto it = node_.begin(); it != node_.end(); ++it)
    out.emplace_back(it->first.Scalar(), child(it->second));
  return out;
}

std::vector<Yaml> Yaml::items() const {
  if (!node_.IsSequence()) fail("expected a list");
  std::vector<Yaml> out;
  for (const auto& n : node_) out.push_back(child(n));
  return out;
}

std::string Yaml::str() const {
  if (!node_.IsScalar()) fail("expected a string");
  return node_.Scalar();
}

double Yaml::number() const {
  if (!node_.IsScalar()) fail("expected a number");
  double v = 0;
  if (!YAML::convert<double>::decode(node_, v) || !std::isfinite(v))
    fail(fmt::format("expected a number, got '{}'", node_.Scalar()));
  return v;
}

std::int64_t Yaml::integer() const {
  if (!node_.IsScalar()) fail("expected an integer");
  long long v = 0;
  if (!YAML::convert<long long>::decode(node_, v)) fail(fmt::format("expected an integer, got '{}'", node_.Scalar()));
  return v;
}

bool Yaml::boolean() const {
  if (!node_.IsScalar()) fail("expected true or false");
  bool v = false;
  if (!YAML::convert<bool>::decode(node_, v)) fail(fmt::format("expected true or false, got '{}'", node_.Scalar()));
  return v;
}

std::string yaml_to_string(const YAML::Node& n) {
  YAML::Emitter e;
  e.SetMapFormat(YAML::Flow);
  e.SetSeqFormat(YAML::Flow);
  e << n;
  return e.c_str();
}

}  // namespace placesim
