// The built-in hardware presets: hw/presets/*.yaml, embedded into the binary by
// cmake/embed_presets.cmake so that `placesim` finds them from any directory.
#include <algorithm>
#include <fmt/format.h>
#include <utility>

#include "hw/topology_yaml.hpp"

namespace placesim::hw {

// Defined in the generated presets_embedded.cpp: {file stem, file text} per preset.
const std::vector<std::pair<std::string, std::string>>& embedded_presets();

namespace {

const std::string* find_preset(const std::string& name) {
  for (const auto& [n, text] : embedded_presets())
    if (n == name) return &text;
  return nullptr;
}

}  // namespace

std::vector<PresetInfo> list_presets() {
  static const std::vector<PresetInfo> presets = [] {
    std::vector<PresetInfo> out;
    for (const auto& [name, text] : embedded_presets())
      out.push_back({name, Yaml::load_string(text, "preset:" + name).str_or("description", "")});
    std::sort(out.begin(), out.end(), [](const PresetInfo& a, const PresetInfo& b) { return a.name < b.name; });
    return out;
  }();
  return presets;
}

bool is_preset(const std::string& name) { return find_preset(name) != nullptr; }

const std::string& preset_text(const std::string& name) {
  if (const std::string* text = find_preset(name)) return *text;
  std::string known;
  for (const PresetInfo& p : list_presets()) known += (known.empty() ? "" : ", ") + p.name;
  throw InputError(fmt::format("unknown preset '{}' (presets: {})", name, known));
}

}  // namespace placesim::hw
