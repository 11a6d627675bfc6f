// results_h5.hpp and validate_h5.hpp on the HDF5 module (sim/explore/h5/h5_api.hpp), loaded the
// first time a results file is written or read.
#include <cstdint>
#include <cstdio>

#include "scheduler/run_status.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/module.hpp"
#include "sim/explore/axis_values.hpp"
#include "sim/explore/h5/h5_api.hpp"
#include "sim/explore/results_h5.hpp"
#include "sim/explore/validate_h5.hpp"

namespace placesim::explore {

namespace {

const h5::H5Api& h5_module() { return module_api<h5::H5Api>("h5"); }

[[gnu::used]] const void* const kModuleImports[] = {
    module_import(&axis_number), module_import(&scheduler::parse_run_status),
    module_import(static_cast<const char* (*)(scheduler::RunStatus)>(&scheduler::to_string))};

}  // namespace

std::string scenario_hash(const std::string& scenario_text, const std::string& hardware_text) {
  std::uint64_t h = 14695981039346656037ull;
  const auto mix = [&](const std::string& text) {
    for (const unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  };
  mix(scenario_text);
  mix(std::string(1, '\0'));  // "ab" + "c" and "a" + "bc" differ
  mix(hardware_text);
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

void write_results_h5(const std::string& path, const RunSet& set) {
  write_file_atomic(path, h5_module().results_image(set));
}

RunSet read_results_h5(const std::string& path) { return h5_module().read_results(path); }

void write_validate_h5(const std::string& path, const ValidateSet& v, const std::string& command) {
  write_file_atomic(path, h5_module().validate_image(v, command));
}

void check_validate_h5(const std::string& path) { h5_module().check_validate(path); }

}  // namespace placesim::explore
