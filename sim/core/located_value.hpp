// What every located input value offers beyond its own parser: quantities with units, bounds,
// defaults for absent keys and the "unknown key" message, written once for both readers (Yaml
// for scenarios and hardware, Json for graphs and plans).
//
// `D` (the reader's handle) provides: str(), number(), integer(), boolean(), get(key),
// defined() and fail(what), each failing at its own location.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace placesim {

template <class D>
class LocatedValue {
 public:
  // Each fails with "expected ..." at this value's location.
  double bytes() const;               // "32GiB" or a number of bytes
  double bandwidth() const;           // "16GB/s"
  double duration() const;            // "5us" or seconds, at most kMaxInputSeconds
  double flops() const;               // "125TFLOPS"
  double positive_bandwidth() const;  // > 0, at least kMinInputBandwidth
  double positive_number() const;     // > 0

  // With defaults when the key is absent.
  std::string str_or(std::string_view key, std::string def) const;
  double number_or(std::string_view key, double def) const;
  std::int64_t integer_or(std::string_view key, std::int64_t def) const;
  bool boolean_or(std::string_view key, bool def) const;

 protected:
  // A unit parser's InputError (which has no location) moved to this value's location.
  template <class F>
  double with_loc(F&& f) const;

 private:
  const D& self() const { return static_cast<const D&>(*this); }
};

// "unknown key 'k' (expected one of: a, b, c)", for allow_keys.
std::string unknown_key_message(std::string_view key, const std::vector<std::string>& allowed);

}  // namespace placesim
