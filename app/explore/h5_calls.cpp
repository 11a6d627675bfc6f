// results_h5.hpp and validate_h5.hpp on the HDF5 module (app/explore/h5/h5_api.hpp), loaded the
// first time a results file is written or read.
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fmt/format.h>
#include <system_error>
#include <vector>

#include "scheduler/run_status.hpp"
#include "sim/core/child_call.hpp"
#include "sim/core/file_io.hpp"
#include "sim/core/module.hpp"
#include "sim/core/utf8.hpp"
#include "app/explore/axis_values.hpp"
#include "app/explore/h5/h5_api.hpp"
#include "app/explore/results_h5.hpp"
#include "app/explore/run_result_wire.hpp"
#include "app/explore/validate_h5.hpp"

namespace placesim::explore {

namespace {

const h5::H5Api& h5_module() { return module_api<h5::H5Api>("h5"); }

[[gnu::used]] const void* const kModuleImports[] = {
    module_import(&axis_number), module_import(&scheduler::parse_run_status),
    module_import(static_cast<const char* (*)(scheduler::RunStatus)>(&scheduler::to_string)),
};

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

namespace {

// Every text a results file gave, checked as UTF-8 before anything prints it: the JSON writer
// refuses other bytes only after the work is done, and `plot`'s Python fails on them.
void require_utf8_texts(const RunSet& set, const std::string& path) {
  const auto check = [&](const std::string& text, const std::string& what) {
    require_utf8(text, "results file " + path + " (" + what + ")");
  };
  for (const auto* text : {&set.scenario, &set.scenario_text, &set.hardware_text, &set.baseline, &set.command})
    check(*text, "attributes");
  for (const std::string& axis : set.axes) check(axis, "axes");
  for (const RunResult& r : set.runs) {
    const std::string row = fmt::format("runs row of point {}", r.point_index);
    for (const auto* text : {&r.placer, &r.message}) check(*text, row);
    for (const auto& [axis, value] : r.point) check(axis + value, row);
    for (const auto& [device, bytes] : r.peak_mem_bytes) check(device, "peak_memory");
    if (r.comm_bytes) {
      for (const auto& [device, bytes] : r.comm_bytes->per_gpu) check(device, "comm_bytes");
      for (const auto& [kind, bytes] : r.comm_bytes->by_kind) check(kind, "comm_bytes");
    }
    if (r.milp) check(r.milp->plan_source, "milp");
  }
}

// How long a read may take before the file counts as damaged (a loop in HDF5): 3 s and 1 s per
// 10 MB, where a whole file takes milliseconds and 0.1 s per 10 MB (the child's start and the
// HDF5 module's loading included).
std::chrono::milliseconds read_limit(const std::string& path) {
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  return std::chrono::milliseconds(3'000 + (ec ? 0 : size / 10'000));
}

}  // namespace

// A damaged file can crash HDF5 itself (a corrupt global heap faults in H5HG_read) or make it
// loop: it is read in a child process under a time bound (sim/core/child_call.hpp), and its
// runs come back through the wire form MPI uses.
RunSet read_results_h5(const std::string& path) {
  const std::string bytes = call_in_child(
      [&] {
        const RunSet set = h5_module().read_results(path);
        require_utf8_texts(set, path);
        const std::vector<std::uint8_t> wire = set_to_wire(set);
        return std::string(wire.begin(), wire.end());
      },
      "results file " + path, read_limit(path));
  return set_from_wire(std::vector<std::uint8_t>(bytes.begin(), bytes.end()));
}

void write_validate_h5(const std::string& path, const ValidateSet& v, const std::string& command) {
  write_file_atomic(path, h5_module().validate_image(v, command));
}

void check_validate_h5(const std::string& path) {
  call_in_child(
      [&] {
        h5_module().check_validate(path);
        return std::string();
      },
      "validation file " + path, read_limit(path));
}

}  // namespace placesim::explore
