#include "sim/explore/validate_h5.hpp"

#include <hdf5.h>

#include <cmath>
#include <cstddef>
#include <ctime>
#include <filesystem>
#include <limits>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/file_io.hpp"

namespace placesim::explore {
namespace {

struct H5Failure {
  std::string what;
};

hid_t ok(hid_t id, const char* what) {
  if (id < 0) throw H5Failure{what};
  return id;
}

// Closes an HDF5 identifier with the function of its kind.
class Id {
 public:
  Id(hid_t id, herr_t (*close)(hid_t), const char* what) : id_(ok(id, what)), close_(close) {}
  ~Id() { close_(id_); }
  Id(const Id&) = delete;
  Id& operator=(const Id&) = delete;
  operator hid_t() const { return id_; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

// A variable-length UTF-8 string type; the caller owns it.
hid_t vlen_string() {
  const hid_t t = ok(H5Tcopy(H5T_C_S1), "string type");
  ok(H5Tset_size(t, H5T_VARIABLE), "string size");
  ok(H5Tset_cset(t, H5T_CSET_UTF8), "string charset");
  return t;
}

struct RunRow {
  const char* point;
  const char* placer;
  const char* status;
  const char* message;
  double predicted_s, measured_s, error, task_mean, task_p95;
  int compared, skipped;
};

struct TaskRow {
  int run, task;
  const char* name;
  double predicted_s, measured_s;
};

template <class Row>
void write_table(hid_t file, const char* name, hid_t type, const std::vector<Row>& rows) {
  const hsize_t n = rows.size();
  Id space(H5Screate_simple(1, &n, nullptr), H5Sclose, "dataspace");
  Id set(H5Dcreate2(file, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose, name);
  if (n > 0) ok(H5Dwrite(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows.data()), name);
}

void string_attribute(hid_t file, const char* name, const std::string& value) {
  Id type(vlen_string(), H5Tclose, "string type");
  Id space(H5Screate(H5S_SCALAR), H5Sclose, "scalar space");
  Id attr(H5Acreate2(file, name, type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose, name);
  const char* p = value.c_str();
  ok(H5Awrite(attr, type, &p), name);
}

void write_file(const std::string& path, const ValidateSet& v, const std::string& command) {
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
    RunRow row{points[i].c_str(), r.result.placer.c_str(), r.result.status.c_str(), r.result.message.c_str(),
               nan, nan, nan, nan, nan, 0, 0};
    if (r.diff) {
      const trace::TraceDiff& d = *r.diff;
      row.predicted_s = d.predicted_s;
      row.measured_s = d.measured_s;
      row.error = d.error;
      row.task_mean = d.mean_abs_error;
      row.task_p95 = d.p95_abs_error;
      row.compared = static_cast<int>(d.tasks.size());
      row.skipped = d.skipped;
      for (const trace::TaskError& e : d.tasks)
        tasks.push_back({static_cast<int>(i), e.task, e.name.c_str(), e.predicted_s, e.measured_s});
    }
    runs.push_back(row);
  }

  Id str(vlen_string(), H5Tclose, "string type");
  Id run_type(H5Tcreate(H5T_COMPOUND, sizeof(RunRow)), H5Tclose, "run type");
  ok(H5Tinsert(run_type, "point", HOFFSET(RunRow, point), str), "point");
  ok(H5Tinsert(run_type, "placer", HOFFSET(RunRow, placer), str), "placer");
  ok(H5Tinsert(run_type, "status", HOFFSET(RunRow, status), str), "status");
  ok(H5Tinsert(run_type, "message", HOFFSET(RunRow, message), str), "message");
  ok(H5Tinsert(run_type, "predicted_s", HOFFSET(RunRow, predicted_s), H5T_NATIVE_DOUBLE), "predicted_s");
  ok(H5Tinsert(run_type, "measured_s", HOFFSET(RunRow, measured_s), H5T_NATIVE_DOUBLE), "measured_s");
  ok(H5Tinsert(run_type, "error", HOFFSET(RunRow, error), H5T_NATIVE_DOUBLE), "error");
  ok(H5Tinsert(run_type, "task_mean", HOFFSET(RunRow, task_mean), H5T_NATIVE_DOUBLE), "task_mean");
  ok(H5Tinsert(run_type, "task_p95", HOFFSET(RunRow, task_p95), H5T_NATIVE_DOUBLE), "task_p95");
  ok(H5Tinsert(run_type, "compared", HOFFSET(RunRow, compared), H5T_NATIVE_INT), "compared");
  ok(H5Tinsert(run_type, "skipped", HOFFSET(RunRow, skipped), H5T_NATIVE_INT), "skipped");
  Id task_type(H5Tcreate(H5T_COMPOUND, sizeof(TaskRow)), H5Tclose, "task type");
  ok(H5Tinsert(task_type, "run", HOFFSET(TaskRow, run), H5T_NATIVE_INT), "run");
  ok(H5Tinsert(task_type, "task", HOFFSET(TaskRow, task), H5T_NATIVE_INT), "task");
  ok(H5Tinsert(task_type, "name", HOFFSET(TaskRow, name), str), "name");
  ok(H5Tinsert(task_type, "predicted_s", HOFFSET(TaskRow, predicted_s), H5T_NATIVE_DOUBLE), "predicted_s");
  ok(H5Tinsert(task_type, "measured_s", HOFFSET(TaskRow, measured_s), H5T_NATIVE_DOUBLE), "measured_s");

  Id file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), H5Fclose, "create file");
  write_table(file, "validation", run_type, runs);
  write_table(file, "validation_tasks", task_type, tasks);
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  string_attribute(file, "scenario", v.scenario);
  string_attribute(file, "backend", v.backend);
  string_attribute(file, "scenario_text", v.scenario_text);
  string_attribute(file, "hardware_text", v.hardware_text);
  string_attribute(file, "command", command);
  string_attribute(file, "created", date);
}

}  // namespace

void write_validate_h5(const std::string& path, const ValidateSet& v, const std::string& command) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  const std::string tmp = temp_path_for(path);
  try {
    write_file(tmp, v, command);
  } catch (const H5Failure& f) {
    std::filesystem::remove(tmp, ec);
    throw InputError(SourceLoc{path}, "cannot write the validation file (" + f.what + ")");
  }
  commit_temp_file(tmp, path);
}

}  // namespace placesim::explore
