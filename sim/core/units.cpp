#include "sim/core/units.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace placesim::units {
namespace {

struct Split {
  double value;
  std::string_view unit;  // without surrounding spaces, in the text given
};

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

// Views into `text`, no copy: a graph file has several sizes per node, 100k nodes.
Split split(std::string_view text, const char* what) {
  std::string_view s = text;
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  double v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr == s.data())
    throw InputError(fmt::format("expected {} such as {}, got '{}'", what,
                                 std::string_view(what) == "a size" ? "'32GiB'" : "a number with a unit", text));
  std::string_view unit = s.substr(static_cast<std::size_t>(ptr - s.data()));
  while (!unit.empty() && is_space(unit.front())) unit.remove_prefix(1);
  if (!std::isfinite(v)) throw InputError(fmt::format("expected a finite {}, got '{}'", what, text));
  return {v, unit};
}

// Returns the multiplier of a prefix at the start of `u` and removes it; 1 when none.
double take_prefix(std::string_view& u, bool allow_binary) {
  static const std::pair<std::string_view, double> kBinary[] = {
      {"Ki", 1024.0}, {"Mi", 1048576.0}, {"Gi", 1073741824.0}, {"Ti", 1099511627776.0}, {"Pi", 1125899906842624.0}};
  static const std::pair<std::string_view, double> kDecimal[] = {
      {"k", 1e3}, {"K", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}, {"P", 1e15}};
  if (allow_binary)
    for (auto& [p, m] : kBinary)
      if (u.starts_with(p) && u.size() > p.size()) { u.remove_prefix(p.size()); return m; }
  for (auto& [p, m] : kDecimal)
    if (u.starts_with(p) && u.size() > p.size()) { u.remove_prefix(p.size()); return m; }
  return 1.0;
}

// A value with its unit applied: 1e300 is finite, 1e300TB/s is not, and would reach the engine as
// an infinite capacity.
double finite(double v, std::string_view text, const char* what) {
  if (!std::isfinite(v)) throw InputError(fmt::format("{} '{}' is beyond the largest representable value", what, text));
  return v;
}

[[noreturn]] void bad_unit(std::string_view text, const char* expected) {
  throw InputError(fmt::format("unknown unit in '{}': expected {}", text, expected));
}

}  // namespace

double parse_bytes(std::string_view text) {
  auto [v, u] = split(text, "a size");
  if (u.empty()) return v;
  const double m = take_prefix(u, true);
  if (u == "B") return finite(v * m, text, "a size");
  if (u == "b" || u == "bit") return finite(v * m / 8.0, text, "a size");
  bad_unit(text, "B, kB, MB, GB, TB, KiB, MiB, GiB or TiB");
}

double parse_bandwidth(std::string_view text) {
  auto [v, u] = split(text, "a bandwidth");
  if (u.empty()) return v;
  const double m = take_prefix(u, true);
  if (u == "B/s" || u == "Bps") return finite(v * m, text, "a bandwidth");
  if (u == "b/s" || u == "bps" || u == "bit/s") return finite(v * m / 8.0, text, "a bandwidth");
  bad_unit(text, "a rate such as 16GB/s, 12.5GiB/s or 100Gb/s");
}

double parse_duration(std::string_view text) {
  auto [v, u] = split(text, "a duration");
  if (u.empty() || u == "s") return v;
  if (u == "ms") return v * 1e-3;
  if (u == "us" || u == "\xc2\xb5s") return v * 1e-6;
  if (u == "ns") return v * 1e-9;
  if (u == "ps") return v * 1e-12;
  if (u == "min") return finite(v * 60.0, text, "a duration");
  if (u == "h") return finite(v * 3600.0, text, "a duration");
  bad_unit(text, "s, ms, us, ns, ps, min or h");
}

double parse_flops(std::string_view text) {
  auto [v, u] = split(text, "a compute rate");
  if (u.empty()) return v;
  const double m = take_prefix(u, false);
  if (u == "FLOPS" || u == "FLOP/s" || u == "flops" || u == "flop/s" || u == "OPS" || u == "OP/s") return finite(v * m, text, "a compute rate");
  bad_unit(text, "a rate such as 125TFLOPS or 15.7 TFLOP/s");
}

double parse_frequency(std::string_view text) {
  auto [v, u] = split(text, "a frequency");
  if (u.empty()) return v;
  const double m = take_prefix(u, false);
  if (u == "Hz") return finite(v * m, text, "a frequency");
  bad_unit(text, "Hz, MHz or GHz");
}

std::string format_bytes(double bytes) {
  const char* names[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int i = 0;
  double v = bytes;
  while (std::fabs(v) >= 1024.0 && i < 4) { v /= 1024.0; ++i; }
  return i == 0 ? fmt::format("{:.0f} B", v) : fmt::format("{:.2f} {}", v, names[i]);
}

std::string format_seconds(double s, int decimals) {
  const double a = std::fabs(s);
  const auto [scale, unit] = a >= 1.0 || a == 0.0 ? std::pair(1.0, "s")
                             : a >= 1e-3          ? std::pair(1e3, "ms")
                             : a >= 1e-6          ? std::pair(1e6, "us")
                                                  : std::pair(1e9, "ns");
  if (decimals < 0) return fmt::format("{:.4g} {}", s * scale, unit);
  return fmt::format("{:.{}f} {}", s * scale, decimals, unit);
}

}  // namespace placesim::units
