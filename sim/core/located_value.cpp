#include "sim/core/located_value.hpp"

#include <fmt/format.h>

#include "sim/core/json_doc.hpp"
#include "sim/core/time.hpp"
#include "sim/core/units.hpp"
#include "sim/core/yaml_doc.hpp"

namespace placesim {

template <class D>
template <class F>
double LocatedValue<D>::with_loc(F&& f) const {
  try {
    return f();
  } catch (const InputError& e) {
    if (!e.loc().file.empty()) throw;
    self().fail(e.detail());
  }
}

template <class D>
double LocatedValue<D>::bytes() const {
  return with_loc([&] { return units::parse_bytes(self().str()); });
}
template <class D>
double LocatedValue<D>::bandwidth() const {
  return with_loc([&] { return units::parse_bandwidth(self().str()); });
}
template <class D>
double LocatedValue<D>::flops() const {
  return with_loc([&] { return units::parse_flops(self().str()); });
}

template <class D>
double LocatedValue<D>::duration() const {
  const double v = with_loc([&] { return units::parse_duration(self().str()); });
  if (v > kMaxInputSeconds)
    self().fail(fmt::format("a time of '{}' is past the {:g} s an input may give (the simulated clock spans 9.2e6 s)",
                            self().str(), kMaxInputSeconds));
  return v;
}

template <class D>
double LocatedValue<D>::positive_bandwidth() const {
  const double v = bandwidth();
  if (!(v > 0)) self().fail(fmt::format("expected a positive bandwidth, got '{}'", self().str()));
  if (v < kMinInputBandwidth)
    self().fail(fmt::format("a bandwidth of '{}' is below the {:g} B/s an input may give", self().str(),
                            kMinInputBandwidth));
  return v;
}

template <class D>
double LocatedValue<D>::positive_number() const {
  const double v = self().number();
  if (!(v > 0)) self().fail(fmt::format("expected a positive number, got '{}'", self().str()));
  return v;
}

template <class D>
std::string LocatedValue<D>::str_or(std::string_view key, std::string def) const {
  const D v = self().get(key);
  return v.defined() ? v.str() : def;
}
template <class D>
double LocatedValue<D>::number_or(std::string_view key, double def) const {
  const D v = self().get(key);
  return v.defined() ? v.number() : def;
}
template <class D>
std::int64_t LocatedValue<D>::integer_or(std::string_view key, std::int64_t def) const {
  const D v = self().get(key);
  return v.defined() ? v.integer() : def;
}
template <class D>
bool LocatedValue<D>::boolean_or(std::string_view key, bool def) const {
  const D v = self().get(key);
  return v.defined() ? v.boolean() : def;
}

std::string unknown_key_message(std::string_view key, const std::vector<std::string>& allowed) {
  return fmt::format("unknown key '{}' (expected one of: {})", key, fmt::join(allowed, ", "));
}

template class LocatedValue<Yaml>;
template class LocatedValue<Json>;

}  // namespace placesim
