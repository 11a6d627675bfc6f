// The built-in hardware presets: hw/presets/*.yaml, embedded into the binary by
// cmake/embed_presets.cmake so that `placesim` finds them from any directory.
#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <utility>

#include "hw/topology_yaml.hpp"

namespace placesim::hw {

// Defined in the generated presets_embedded.cpp: {file stem, file text} per preset.
const std::vector<std::pair<std::string, std::string>>& embedded_presets();

namespace {

// Natural order: runs of digits compare as numbers, so asymgroup-s2 comes before asymgroup-s10.
bool natural_less(const std::string& a, const std::string& b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
      size_t ei = i, ej = j;
      while (ei < a.size() && std::isdigit(static_cast<unsigned char>(a[ei]))) ++ei;
      while (ej < b.size() && std::isdigit(static_cast<unsigned char>(b[ej]))) ++ej;
      const std::string na = a.substr(i, ei - i), nb = b.substr(j, ej - j);
      if (na.size() != nb.size()) return na.size() < nb.size();  // no leading zeros in preset names
      if (na != nb) return na < nb;
      i = ei;
      j = ej;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

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
    std::sort(out.begin(), out.end(), [](const PresetInfo& a, const PresetInfo& b) { return natural_less(a.name, b.name); });
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
