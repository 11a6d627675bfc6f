#include "app/explore/tree_edit.hpp"

#include <fmt/format.h>

namespace placesim::explore {
namespace {

std::string dotted(const std::vector<std::string>& path) {
  std::string key;
  for (const std::string& k : path) key += (key.empty() ? "" : ".") + k;
  return key;
}

// The value of `key` in `map`; undefined when `map` is not a map or lacks it.
YAML::Node value_of(const YAML::Node& map, const std::string& key) {
  if (map.IsDefined() && map.IsMap()) {
    const YAML::Node v = map[key];  // the const lookup adds no key
    if (v.IsDefined()) return v;     // (an absent key's handle is one yaml-cpp cannot copy into another)
  }
  return YAML::Node(YAML::NodeType::Undefined);
}

}  // namespace

NodeArena::NodeArena(const YAML::Node& doc) { pool_.push_back(doc); }

YAML::Node NodeArena::new_map() {
  YAML::Node map(YAML::NodeType::Map);
  pool_.push_back(map);  // joins the arena's memory (and shares it from now on)
  return map;
}

TreeEdit::TreeEdit(NodeArena& arena, const Yaml& doc) : arena_(arena), root_(doc.node()), file_(doc.file()) {
  if (doc.origins()) origins_ = *doc.origins();
}

YAML::Node TreeEdit::copy_with(const YAML::Node& map, const std::string& key, const YAML::Node* value) {
  YAML::Node copy = arena_.new_map();
  bool found = false;
  for (const auto& kv : map) {
    const bool here = kv.first.Scalar() == key;
    found = found || here;
    // The same key and value nodes, with their locations.
    if (!here) copy.force_insert(kv.first, kv.second);
    else if (value) copy.force_insert(kv.first, *value);
  }
  if (!found && value) copy.force_insert(key, *value);
  if (map.IsDefined()) {
    copy.SetStyle(map.Style());  // a flow map stays one in the scenario text a results file keeps
    stands_for(copy, map);
  }
  return copy;
}

YAML::Node TreeEdit::with(const YAML::Node& node, const std::vector<std::string>& path, size_t at,
                          const YAML::Node& value, const SourceLoc& where) {
  if (path[at].empty()) throw InputError(where, fmt::format("malformed key '{}'", dotted(path)));
  if (node.IsDefined() && !node.IsNull() && !node.IsMap())
    throw InputError(where, fmt::format("cannot set '{}': '{}' is not a map", dotted(path), path[at - 1]));
  if (at + 1 == path.size()) return copy_with(node, path[at], &value);
  const YAML::Node inner = with(value_of(node, path[at]), path, at + 1, value, where);
  return copy_with(node, path[at], &inner);
}

// yaml-cpp's Node::operator= would overwrite the content of the node root_ is bound to (the
// scenario's); reset() rebinds.
void TreeEdit::set(const std::vector<std::string>& path, const YAML::Node& value, const SourceLoc& where) {
  root_.reset(with(root_, path, 0, value, where));
}

void TreeEdit::remove(const std::string& key) { root_.reset(copy_with(root_, key, nullptr)); }

void TreeEdit::graft(const YAML::Node& value, const std::string& origin) { origins_.grafts.emplace_back(value, origin); }

void TreeEdit::stands_for(const YAML::Node& made, const YAML::Node& original) {
  // A copy of an earlier copy stands for what that one stood for: the node the text located.
  YAML::Node located = original;
  for (const auto& [earlier, first] : origins_.stand_ins)
    if (original.is(earlier)) located.reset(first);
  origins_.stand_ins.emplace_back(made, located);
}

}  // namespace placesim::explore
