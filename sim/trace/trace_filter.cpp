#include "sim/trace/trace_filter.hpp"

#include <fnmatch.h>

#include "sim/core/error.hpp"
#include "sim/core/units.hpp"

namespace placesim::trace {

bool TraceFilter::keeps(std::string_view name) const {
  if (names.empty()) return true;
  const std::string text(name);
  for (const std::string& glob : names)
    if (fnmatch(glob.c_str(), text.c_str(), 0) == 0) return true;
  return false;
}

TraceFilter parse_trace_filter(const std::vector<std::string>& terms, const std::string& option) {
  TraceFilter f;
  bool window = false;
  auto bad = [&](const std::string& what) { throw InputError(SourceLoc{option}, what); };
  for (const std::string& list : terms) {
    for (std::size_t at = 0; at <= list.size();) {
      const std::size_t comma = std::min(list.find(',', at), list.size());
      const std::string term = list.substr(at, comma - at);
      at = comma + 1;
      if (term.empty()) bad("an empty term in '" + list + "': expected name globs and time=FROM..TO, separated by commas");
      if (term.rfind("time=", 0) != 0) {
        f.names.push_back(term);
        continue;
      }
      const std::string span = term.substr(5);
      const std::size_t dots = span.find("..");
      if (dots == std::string::npos) bad("expected time=FROM..TO such as time=100ms..200ms (either end may be left out), got '" + term + "'");
      if (window) bad("more than one time window ('" + term + "'): give one");
      window = true;
      auto end = [&](const std::string& text, TimePs none) {
        if (text.empty()) return none;
        try {
          const double seconds = units::parse_duration(text);
          if (!(seconds >= 0)) bad("a time window's ends are durations >= 0, got '" + text + "'");
          return ceil_ps(seconds);
        } catch (const InputError& e) {
          bad("in '" + term + "': " + e.detail());
        }
        return none;
      };
      f.from = end(span.substr(0, dots), 0);
      f.to = end(span.substr(dots + 2), std::numeric_limits<TimePs>::max());
      if (f.to < f.from) bad("time window '" + term + "' ends before it starts");
    }
  }
  return f;
}

}  // namespace placesim::trace
