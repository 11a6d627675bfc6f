#include "app/explore/validate_h5.hpp"

#include <hdf5.h>

#include <cmath>
#include <cstddef>
#include <ctime>
#include <filesystem>
#include <limits>
#include <vector>

#include "sim/core/error.hpp"
#include "app/explore/h5/h5_api.hpp"
#include "app/explore/h5/h5_file.hpp"

namespace placesim::explore {
namespace {

using namespace h5;

struct RunRow {
  const char* point;
  const char* placer;
  const char* status;
  const char* message;
  double predicted_s, measured_s, model_error, task_mean, task_p95;
  int compared, skipped;
  double fastest_s, slowest_s, spread;
  int repeats;
};

struct TaskRow {
  int run, task;
  const char* name;
  double predicted_s, measured_s;
};

std::string file_image(const ValidateSet& v, const std::string& command) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<std::string> points;
  for (const ValidateRun& r : v.runs) {
    nlohmann::ordered_json p = nlohmann::ordered_json::object();
    for (auto& [axis, value] : r.result.point) p[axis] = value;
    points.push_back(p.dump());
  }
  std::vector<RunRow> runs;
  std::vector<TaskRow> tasks;
  for (size_t i = 0; i < v.runs.size(); ++i) {
    const ValidateRun& r = v.runs[i];
    RunRow row{points[i].c_str(), r.result.placer.c_str(), scheduler::to_string(r.result.status), r.result.message.c_str(),
               nan, nan, nan, nan, nan, 0, 0, nan, nan, nan, 0};
    if (r.diff) {
      const trace::TraceDiff& d = *r.diff;
      row.predicted_s = d.predicted_s;
      row.measured_s = d.measured_s;
      row.model_error = d.model_error;
      row.task_mean = d.mean_abs_error;
      row.task_p95 = d.p95_abs_error;
      row.compared = static_cast<int>(d.tasks.size());
      row.skipped = d.skipped;
      row.fastest_s = r.spread.min_s;
      row.slowest_s = r.spread.max_s;
      row.spread = r.spread.relative;
      row.repeats = static_cast<int>(r.spread.makespans_s.size());
      for (const trace::TaskError& e : d.tasks)
        tasks.push_back({static_cast<int>(i), e.task, e.name.c_str(), e.predicted_s, e.measured_s});
    }
    runs.push_back(row);
  }

  Handle str = string_type();
  Handle run_type(H5Tcreate(H5T_COMPOUND, sizeof(RunRow)), H5Tclose, "run type");
  check(H5Tinsert(run_type, "point", HOFFSET(RunRow, point), str), "point");
  check(H5Tinsert(run_type, "placer", HOFFSET(RunRow, placer), str), "placer");
  check(H5Tinsert(run_type, "status", HOFFSET(RunRow, status), str), "status");
  check(H5Tinsert(run_type, "message", HOFFSET(RunRow, message), str), "message");
  check(H5Tinsert(run_type, "predicted_s", HOFFSET(RunRow, predicted_s), H5T_NATIVE_DOUBLE), "predicted_s");
  check(H5Tinsert(run_type, "measured_s", HOFFSET(RunRow, measured_s), H5T_NATIVE_DOUBLE), "measured_s");
  check(H5Tinsert(run_type, "model_error", HOFFSET(RunRow, model_error), H5T_NATIVE_DOUBLE), "model_error");
  check(H5Tinsert(run_type, "task_mean", HOFFSET(RunRow, task_mean), H5T_NATIVE_DOUBLE), "task_mean");
  check(H5Tinsert(run_type, "task_p95", HOFFSET(RunRow, task_p95), H5T_NATIVE_DOUBLE), "task_p95");
  check(H5Tinsert(run_type, "compared", HOFFSET(RunRow, compared), H5T_NATIVE_INT), "compared");
  check(H5Tinsert(run_type, "skipped", HOFFSET(RunRow, skipped), H5T_NATIVE_INT), "skipped");
  check(H5Tinsert(run_type, "fastest_s", HOFFSET(RunRow, fastest_s), H5T_NATIVE_DOUBLE), "fastest_s");
  check(H5Tinsert(run_type, "slowest_s", HOFFSET(RunRow, slowest_s), H5T_NATIVE_DOUBLE), "slowest_s");
  check(H5Tinsert(run_type, "spread", HOFFSET(RunRow, spread), H5T_NATIVE_DOUBLE), "spread");
  check(H5Tinsert(run_type, "repeats", HOFFSET(RunRow, repeats), H5T_NATIVE_INT), "repeats");
  Handle task_type(H5Tcreate(H5T_COMPOUND, sizeof(TaskRow)), H5Tclose, "task type");
  check(H5Tinsert(task_type, "run", HOFFSET(TaskRow, run), H5T_NATIVE_INT), "run");
  check(H5Tinsert(task_type, "task", HOFFSET(TaskRow, task), H5T_NATIVE_INT), "task");
  check(H5Tinsert(task_type, "name", HOFFSET(TaskRow, name), str), "name");
  check(H5Tinsert(task_type, "predicted_s", HOFFSET(TaskRow, predicted_s), H5T_NATIVE_DOUBLE), "predicted_s");
  check(H5Tinsert(task_type, "measured_s", HOFFSET(TaskRow, measured_s), H5T_NATIVE_DOUBLE), "measured_s");

  const MemoryFile file;
  write_table(file, "validation", run_type, runs);
  write_table(file, "validation_tasks", task_type, tasks);
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  write_provenance(file, kValidateSchemaVersion, command);
  write_string_attr(file, "scenario", v.scenario);
  write_string_attr(file, "backend", v.backend);
  write_string_attr(file, "scenario_text", v.scenario_text);
  write_string_attr(file, "hardware_text", v.hardware_text);
  write_string_attr(file, "created", date);
  return file.image();
}

}  // namespace

std::string h5::validate_image(const ValidateSet& v, const std::string& command) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // failures are reported by our exceptions
  try {
    return file_image(v, command);
  } catch (const H5Failure& f) {  // in memory, with no disk involved: memory ran out
    throw OutOfMemory("cannot build the validation file in memory (HDF5: " + f.what + ")");
  }
}

void h5::check_validate(const std::string& path) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // failures are reported by our exceptions
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw InputError(SourceLoc{path}, "no such file");
  if (H5Fis_hdf5(path.c_str()) <= 0) throw InputError(SourceLoc{path}, "not an HDF5 file (expected a validation file)");
  const hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  if (id < 0) throw InputError(SourceLoc{path}, "cannot open it as HDF5");
  Handle file(id, H5Fclose, "open");
  for (const char* table : {"validation", "validation_tasks"})
    if (H5Lexists(file, table, H5P_DEFAULT) <= 0)
      throw InputError(SourceLoc{path}, std::string("not a validation file of placesim validate (no `") + table +
                                            "` table)");
  if (H5Aexists(file, "scenario") <= 0)
    throw InputError(SourceLoc{path}, "not a validation file of placesim validate (no scenario attribute)");
}

}  // namespace placesim::explore
