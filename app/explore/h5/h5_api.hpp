// What the HDF5 module (libplacesim_h5.so: this folder, the only code that sees HDF5's headers
// or links its libraries) offers the program; sim/core/module.hpp says why it is a module.
// results_h5.hpp and validate_h5.hpp are the program's side (h5_calls.cpp).
#pragma once

#include <string>

#include "app/explore/run_result.hpp"
#include "app/explore/validate.hpp"

namespace placesim::explore::h5 {

// The writers return the file's bytes (h5_file.hpp, MemoryFile), which the program writes.
struct H5Api {
  std::string (*results_image)(const RunSet& set);
  RunSet (*read_results)(const std::string& path);
  std::string (*validate_image)(const ValidateSet& v, const std::string& command);
  void (*check_validate)(const std::string& path);
};

// The module's own functions behind H5Api (results_h5.cpp, validate_h5.cpp).
std::string results_image(const RunSet& set);
RunSet read_results(const std::string& path);
std::string validate_image(const ValidateSet& v, const std::string& command);
void check_validate(const std::string& path);

}  // namespace placesim::explore::h5
