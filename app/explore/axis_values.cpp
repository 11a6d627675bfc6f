#include "app/explore/axis_values.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>

namespace placesim::explore {

std::optional<double> axis_number(const std::string& text) {
  // One sign at most, then a digit or a point: from_chars alone would also take "inf" and "nan".
  const size_t at = text.find_first_not_of("+-");
  if (at == std::string::npos || at > 1) return std::nullopt;
  if (!std::isdigit(static_cast<unsigned char>(text[at])) && text[at] != '.') return std::nullopt;
  const char* begin = text.data() + (text[0] == '+' ? 1 : 0);  // from_chars takes no '+'
  double v = 0;
  const auto [end, ec] = std::from_chars(begin, text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

nlohmann::ordered_json point_json(const std::vector<std::pair<std::string, std::string>>& point,
                                  const std::vector<std::string>& axes, const std::vector<bool>& numeric) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& [axis, text] : point) {
    const size_t k = static_cast<size_t>(std::find(axes.begin(), axes.end(), axis) - axes.begin());
    const std::optional<double> v = k < numeric.size() && numeric[k] ? axis_number(text) : std::nullopt;
    if (!v) {
      j[axis] = text;
    } else if (std::floor(*v) == *v && std::abs(*v) < 9.0e15) {
      j[axis] = static_cast<std::int64_t>(*v);
    } else {
      j[axis] = *v;
    }
  }
  return j;
}

std::vector<bool> numeric_axes(const Scenario& s) {
  std::vector<bool> numeric(s.axes.size(), true);
  for (const Point& p : s.points)
    for (size_t k = 0; k < p.values.size() && k < numeric.size(); ++k)
      if (numeric[k] && !axis_number(p.values[k].second)) numeric[k] = false;
  return numeric;
}

}  // namespace placesim::explore
