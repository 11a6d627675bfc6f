// Parsing YAML text into yaml-cpp's nodes, with libyaml's parser.
//
// yaml-cpp holds placesim's YAML documents (Yaml, the sweeps' edits, the text kept in results),
// but its own scanner was most of the cost of reading one: a 40 KB hardware file took 8-11 ms,
// a third of `placesim simulate` on a thousand flows. libyaml's event parser reads it in about
// 1 ms, and the nodes are built from its events as yaml-cpp's own builder builds them (same
// types, marks, tags, styles; an alias is its anchor's node), in 2.5-4 ms in all.
//
// A node's mark is where libyaml's event starts (line and column from 0, columns counting
// characters): a flow map's key is marked at the key itself (yaml-cpp marked it at its value).
// What yaml-cpp reads as null stays null: a plain scalar without a tag that is empty, ~, null,
// Null or NULL. Malformed text is an InputError at the place libyaml names, with what it expected
// and the construct it was reading; so is a second document (a file holds one), a key given
// twice in one map (at the second, naming the first), an alias to an anchor not defined before it
// (so no document is cyclic), and nesting deeper than 256 levels.
#pragma once

#include <string>
#include <string_view>
#include <yaml-cpp/yaml.h>

namespace placesim {

// The document in `text` (a null node if it has none), named `name` in errors. `text` is UTF-8
// (require_utf8).
YAML::Node read_yaml(std::string_view text, const std::string& name);

}  // namespace placesim
