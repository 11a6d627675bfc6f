#include "sim/core/yaml_doc.hpp"

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "sim/core/time.hpp"
#include "sim/core/units.hpp"

namespace placesim {

Yaml Yaml::load_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(SourceLoc{path}, "is a directory, expected a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(SourceLoc{path}, "cannot open file");
  std::stringstream ss;
  ss << in.rdbuf();
  return load_string(ss.str(), path);
}

namespace {

// yaml-cpp keeps both entries of a map key given twice and answers lookups with the first, so a
// second value would be silently ignored: refuse it, naming both places. Each node is visited
// once (an alias shares its anchor's node, found by its position), without recursion.
void refuse_duplicate_keys(const YAML::Node& root, const std::string& name) {
  std::set<std::size_t> seen;
  std::vector<YAML::Node> todo{root};
  while (!todo.empty()) {
    const YAML::Node n = todo.back();
    todo.pop_back();
    if (!n.IsMap() && !n.IsSequence()) continue;
    if (!n.Mark().is_null() && !seen.insert(static_cast<std::size_t>(n.Mark().pos)).second) continue;
    if (n.IsSequence()) {
      for (const YAML::Node& item : n) todo.push_back(item);
      continue;
    }
    std::map<std::string, YAML::Mark> keys;
    for (const auto& kv : n) {
      const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : YAML::Dump(kv.first);
      const YAML::Mark at = kv.first.Mark();
      if (auto [first, added] = keys.emplace(key, at); !added)
        throw InputError(SourceLoc{name, at.line + 1, at.column + 1},
                         fmt::format("key '{}' is given twice (first at line {}, column {}); give it once",
                                     key, first->second.line + 1, first->second.column + 1));
      todo.push_back(kv.second);
    }
  }
}

}  // namespace

// Every input is UTF-8: a name with other bytes would reach the JSON writer, which refuses it
// only after the work is done. The first bad byte is an error at its line and column.
void require_utf8(const std::string& text, const std::string& name) {
  int line = 1, column = 1;
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    const int extra = c < 0x80 ? 0 : (c >> 5) == 0x6 ? 1 : (c >> 4) == 0xE ? 2 : (c >> 3) == 0x1E ? 3 : -1;
    bool ok = extra >= 0 && i + static_cast<size_t>(extra) < text.size();
    for (int k = 1; ok && k <= extra; ++k) ok = (static_cast<unsigned char>(text[i + k]) >> 6) == 0x2;
    if (ok && extra > 0) {  // no overlong forms, surrogates or code points past U+10FFFF
      std::uint32_t cp = c & (0x3F >> extra);
      for (int k = 1; k <= extra; ++k) cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
      const std::uint32_t least[] = {0, 0x80, 0x800, 0x10000};
      ok = cp >= least[extra] && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
    }
    if (!ok)
      throw InputError(SourceLoc{name, line, column}, fmt::format("byte 0x{:02X} is not UTF-8: inputs are UTF-8 text", c));
    if (c == '\n') line += 1, column = 1;
    else column += 1;
    i += static_cast<size_t>(extra) + 1;
  }
}

Yaml Yaml::load_string(const std::string& text, const std::string& name) {
  require_utf8(text, name);
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw InputError(SourceLoc{name, e.mark.line + 1, e.mark.column + 1}, "malformed YAML/JSON: " + e.msg);
  }
  refuse_duplicate_keys(root, name);
  return Yaml(root, name);
}

SourceLoc Yaml::loc() const {
  if (!node_.IsDefined() || grafted_) return SourceLoc{file_};
  const YAML::Mark m = node_.Mark();
  if (m.is_null()) return SourceLoc{file_};
  return SourceLoc{file_, m.line + 1, m.column + 1};
}

void Yaml::fail(const std::string& what) const { throw InputError(loc(), what); }

bool Yaml::has(std::string_view key) const {
  return node_.IsMap() && node_[std::string(key)].IsDefined();
}

Yaml Yaml::at(std::string_view key) const {
  if (!node_.IsMap()) fail(fmt::format("expected a map with key '{}'", key));
  YAML::Node n = node_[std::string(key)];
  if (!n.IsDefined()) fail(fmt::format("missing key '{}'", key));
  return child(n);
}

Yaml Yaml::get(std::string_view key) const {
  if (!node_.IsMap()) return child(YAML::Node(YAML::NodeType::Undefined));
  return child(node_[std::string(key)]);
}

Yaml Yaml::child(const YAML::Node& n) const {
  if (grafts_ && n.IsDefined())
    for (const auto& [graft, origin] : *grafts_)
      if (n.is(graft)) {
        Yaml g(n, origin);
        g.grafted_ = true;
        return g;
      }
  Yaml c(n, file_, grafts_);
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
    if (!ok) {
      std::string list;
      for (const std::string& a : allowed) list += (list.empty() ? "" : ", ") + a;
      child(it->first).fail(fmt::format("unknown key '{}' (expected one of: {})", k, list));
    }
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

template <class F>
auto Yaml::with_loc(F&& f) const -> decltype(f()) {
  try {
    return f();
  } catch (const InputError& e) {
    if (!e.loc().file.empty()) throw;
    fail(e.detail());
  }
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

double Yaml::bytes() const { return with_loc([&] { return units::parse_bytes(str()); }); }
double Yaml::bandwidth() const { return with_loc([&] { return units::parse_bandwidth(str()); }); }
double Yaml::duration() const {
  const double v = with_loc([&] { return units::parse_duration(str()); });
  if (v > kMaxInputSeconds)
    fail(fmt::format("a time of '{}' is past the {:g} s an input may give (the simulated clock spans 9.2e6 s)", str(),
                     kMaxInputSeconds));
  return v;
}
double Yaml::flops() const { return with_loc([&] { return units::parse_flops(str()); }); }

double Yaml::positive_bandwidth() const {
  const double v = bandwidth();
  if (!(v > 0)) fail(fmt::format("expected a positive bandwidth, got '{}'", str()));
  if (v < kMinInputBandwidth)
    fail(fmt::format("a bandwidth of '{}' is below the {:g} B/s an input may give", str(), kMinInputBandwidth));
  return v;
}

double Yaml::positive_number() const {
  const double v = number();
  if (!(v > 0)) fail(fmt::format("expected a positive number, got '{}'", str()));
  return v;
}

std::string Yaml::str_or(std::string_view key, std::string def) const {
  Yaml v = get(key);
  return v.defined() ? v.str() : def;
}
double Yaml::number_or(std::string_view key, double def) const {
  Yaml v = get(key);
  return v.defined() ? v.number() : def;
}
std::int64_t Yaml::integer_or(std::string_view key, std::int64_t def) const {
  Yaml v = get(key);
  return v.defined() ? v.integer() : def;
}
bool Yaml::boolean_or(std::string_view key, bool def) const {
  Yaml v = get(key);
  return v.defined() ? v.boolean() : def;
}

std::string yaml_to_string(const YAML::Node& n) {
  YAML::Emitter e;
  e.SetMapFormat(YAML::Flow);
  e.SetSeqFormat(YAML::Flow);
  e << n;
  return e.c_str();
}

}  // namespace placesim
