#include "sim/explore/axis_values.hpp"

#include <cctype>
#include <charconv>

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

std::vector<bool> numeric_axes(const Scenario& s) {
  std::vector<bool> numeric(s.axes.size(), true);
  for (const Point& p : s.points)
    for (size_t k = 0; k < p.values.size() && k < numeric.size(); ++k)
      if (numeric[k] && !axis_number(p.values[k].second)) numeric[k] = false;
  return numeric;
}

}  // namespace placesim::explore
