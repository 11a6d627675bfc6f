// Edits of a parsed scenario that leave its nodes as they are, so that one parse serves the
// scenario after `--set` and every sweep point. Setting a key copies the maps on the way to it
// (sharing their other entries) and never writes into a node: the scenario, and every other
// point, keeps its own values. yaml-cpp gives a node it did not parse no location, so each copy
// stands for the node it replaces (Yaml::Origins): an error at it names the file, line and
// column of the original.
#pragma once

#include <memory>
#include <string>
#include <vector>
#include <yaml-cpp/yaml.h>

#include "sim/core/error.hpp"
#include "sim/core/yaml_doc.hpp"

namespace placesim::explore {

// Where every edit's new maps are made: in the parsed document's own yaml-cpp memory. yaml-cpp
// joins two documents' node sets when a node of one goes into the other, copying the incoming
// set into the receiving one; a map made on its own and then given the scenario's nodes would
// copy the scenario's set, which by then holds every earlier point's nodes too (quadratic in the
// points). Made here, a map joins the scenario's set at the cost of itself.
class NodeArena {
 public:
  explicit NodeArena(const YAML::Node& doc);
  YAML::Node new_map();

 private:
  YAML::Node pool_{YAML::NodeType::Sequence};
};

class TreeEdit {
 public:
  // Starts from `doc` (its node, file and origins).
  TreeEdit(NodeArena& arena, const Yaml& doc);

  // root.path[0].path[1]... = value, making maps where keys are absent or null; `where` locates
  // the errors (a key part that is empty, a value on the way that is not a map).
  void set(const std::vector<std::string>& path, const YAML::Node& value, const SourceLoc& where);
  void remove(const std::string& key);  // a top-level key
  // `value`, which a `set` put in, came from `origin` ("--set model.batch=4").
  void graft(const YAML::Node& value, const std::string& origin);

  const YAML::Node& root() const { return root_; }
  std::shared_ptr<const Yaml::Origins> origins() const { return std::make_shared<const Yaml::Origins>(origins_); }
  Yaml yaml() const { return Yaml(root_, file_, origins()); }

 private:
  // `map` as a new map with its entries but `key` given `value` (appended when absent), or left
  // out when `value` is null.
  YAML::Node copy_with(const YAML::Node& map, const std::string& key, const YAML::Node* value);
  YAML::Node with(const YAML::Node& node, const std::vector<std::string>& path, size_t at, const YAML::Node& value,
                  const SourceLoc& where);
  void stands_for(const YAML::Node& made, const YAML::Node& original);

  NodeArena& arena_;
  YAML::Node root_;
  std::string file_;
  Yaml::Origins origins_;
};

}  // namespace placesim::explore
