// Writing hardware files as text (placesim discover, placesim calibrate): a value that may hold
// any characters, as a YAML double-quoted scalar the loaders read back unchanged.
#pragma once

#include <string>

namespace placesim::hw {

inline std::string yaml_quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace placesim::hw
