// A hash map keyed by std::string that is searched with a std::string_view, so a lookup by a
// name read from a file (a view of its text) makes no string.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace placesim {

struct StringHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};

template <class V>
using StringMap = std::unordered_map<std::string, V, StringHash, std::equal_to<>>;

}  // namespace placesim
