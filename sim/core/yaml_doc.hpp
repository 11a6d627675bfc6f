// Reading user files in YAML with their locations.
//
// Every scenario and hardware file is read through `Yaml` (parsed by libyaml into yaml-cpp's
// nodes: yaml_reader.hpp), so that every error a user sees names the file, line and column and
// what was expected. Graph and plan files, which are JSON and can be large, go through `Json`
// (json_doc.hpp), which offers the same accessors (located_value.hpp has those both share).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <vector>
#include <yaml-cpp/yaml.h>

#include "sim/core/error.hpp"
#include "sim/core/located_value.hpp"

namespace placesim {

class Yaml : public LocatedValue<Yaml> {
 public:
  // Nodes of a document that its own text does not locate.
  struct Origins {
    // Nodes grafted in from elsewhere (a `--set key=value` value), each with the name of where it
    // came from: an error inside one names that ("--set model.batch=-1"), not the document's
    // file at a line the value never had.
    std::vector<std::pair<YAML::Node, std::string>> grafts;
    // Nodes made in place of one of the document's (a sweep point's copy of a map, with one key
    // changed), each with the node it stands for, which locates it: yaml-cpp gives a node it did
    // not parse no location.
    std::vector<std::pair<YAML::Node, YAML::Node>> stand_ins;
  };

  Yaml() = default;
  Yaml(YAML::Node node, FileName file, std::shared_ptr<const Origins> origins = nullptr)
      : node_(std::move(node)), file_(file), origins_(std::move(origins)) {}
  Yaml(const Yaml&) = default;
  // yaml-cpp's Node::operator= overwrites the *content* of the node it is bound to (and so of
  // every other handle to it); a Yaml handle must rebind instead.
  Yaml& operator=(const Yaml& o) {
    node_.reset(o.node_);
    file_ = o.file_;
    origins_ = o.origins_;
    grafted_ = o.grafted_;
    return *this;
  }

  static Yaml load_file(const std::string& path);                        // InputError if unreadable/malformed
  static Yaml load_string(const std::string& text, const std::string& name);

  const YAML::Node& node() const { return node_; }
  const std::string& file() const { return file_.str(); }
  const std::shared_ptr<const Origins>& origins() const { return origins_; }
  SourceLoc loc() const;
  [[noreturn]] void fail(const std::string& what) const;

  bool defined() const { return node_.IsDefined() && !node_.IsNull(); }
  bool is_map() const { return node_.IsMap(); }
  bool is_seq() const { return node_.IsSequence(); }
  bool is_scalar() const { return node_.IsScalar(); }

  // Map access. `at` requires the key; `get` returns an undefined Yaml when absent.
  bool has(std::string_view key) const;
  Yaml at(std::string_view key) const;
  Yaml get(std::string_view key) const;
  // Fails on the first key not in `allowed`, pointing at that key.
  void allow_keys(std::initializer_list<std::string_view> allowed) const;
  void allow_keys(const std::vector<std::string>& allowed) const;  // keys known only at run time
  std::vector<std::pair<std::string, Yaml>> entries() const;  // map entries in file order
  std::vector<Yaml> items() const;                            // sequence items

  // Scalars. Each fails with "expected ..." at this node's location (quantities with units and
  // defaults: LocatedValue).
  std::string str() const;
  double number() const;
  std::int64_t integer() const;
  bool boolean() const;

 private:
  // This document's node, a graft's (named by its origin) or a stand-in (located as its original).
  Yaml child(const YAML::Node& n) const;

  YAML::Node node_;
  FileName file_;  // shared: every child handle carries it
  std::shared_ptr<const Origins> origins_;
  bool grafted_ = false;  // inside a graft: its marks are those of its own text, not file_'s
};

// Emits a YAML node as compact text (for scenario text stored in results, `--set` values).
std::string yaml_to_string(const YAML::Node& n);

}  // namespace placesim
