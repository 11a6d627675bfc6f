// Shared by the tests of bad input: what an InputError says, or "" when nothing is thrown.
#pragma once

#include <functional>
#include <string>

#include "sim/core/error.hpp"

namespace placesim::test {

inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace placesim::test
