// The HDF5 results file through the HDF5 C API (serial, 1.10), in the HDF5 module (h5_api.hpp);
// the layout it writes and reads is docs/formats.md, "Results files".
#include "app/explore/results_h5.hpp"


#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <limits>
#include <optional>
#include <system_error>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/error.hpp"
#include "app/explore/axis_values.hpp"
#include "app/explore/h5/h5_api.hpp"
#include "app/explore/h5/h5_file.hpp"

namespace placesim::explore {

namespace {

using namespace h5;
using Json = nlohmann::ordered_json;

// In-memory rows; the file types are packed copies of these.
struct RunRow {
  std::int32_t point_index;
  const char* point;
  const char* placer;
  const char* status;
  double makespan_s;
  double predicted_s;
  double speedup;
  double gap;
  double placement_s;
  const char* message;
  std::uint64_t seed;
  const char* choices;
};

struct PeakRow {
  std::int32_t run;
  const char* device;
  double bytes;
};

struct CommRow {
  std::int32_t run;
  const char* scope;
  const char* name;
  double bytes;
};

struct GenerationRow {
  std::int32_t run;
  std::int32_t input_tokens;
  std::int32_t output_tokens;
  std::int32_t kv_stride;
  double ttft_s;
  double tpot_s;
  std::int8_t weights_shared;
};

struct MilpRow {
  std::int32_t run;
  const char* plan_source;
  double makespan_s;
  double objective_s;
  double bound_s;
  std::int32_t solves;
  std::int32_t optimal;
  std::int64_t nodes;
};

// A served stream's figures (RunResult::serving); latencies in seconds.
struct ServingRow {
  std::int32_t run;
  std::int32_t replicas;
  std::int64_t kv_blocks, iterations, peak_blocks, simulations, preemptions;
  std::int32_t error_samples;
  double bucket_error;
  double stat[3][4];  // TTFT, TPOT, end to end: mean, p50, p90, p99
  double requests_per_s, tokens_per_s, slo_attainment, goodput_per_s, kv_mean_use;
  double ttft_quantiles[101];  // NaN when no request was served
};
constexpr const char* kServingMetrics[3] = {"ttft", "tpot", "e2e"};
constexpr const char* kServingStats[4] = {"mean", "p50", "p90", "p99"};

// Files before schema 6 have no `choices` member, and HDF5 reads only members the file has.
Handle run_type(hid_t str, bool with_choices = true) {
  Handle t(H5Tcreate(H5T_COMPOUND, sizeof(RunRow)), H5Tclose, "runs type");
  check(H5Tinsert(t, "point_index", HOFFSET(RunRow, point_index), H5T_NATIVE_INT32), "runs type");
  check(H5Tinsert(t, "point", HOFFSET(RunRow, point), str), "runs type");
  check(H5Tinsert(t, "placer", HOFFSET(RunRow, placer), str), "runs type");
  check(H5Tinsert(t, "status", HOFFSET(RunRow, status), str), "runs type");
  check(H5Tinsert(t, "makespan_s", HOFFSET(RunRow, makespan_s), H5T_NATIVE_DOUBLE), "runs type");
  check(H5Tinsert(t, "predicted_s", HOFFSET(RunRow, predicted_s), H5T_NATIVE_DOUBLE), "runs type");
  check(H5Tinsert(t, "speedup", HOFFSET(RunRow, speedup), H5T_NATIVE_DOUBLE), "runs type");
  check(H5Tinsert(t, "gap", HOFFSET(RunRow, gap), H5T_NATIVE_DOUBLE), "runs type");
  check(H5Tinsert(t, "placement_s", HOFFSET(RunRow, placement_s), H5T_NATIVE_DOUBLE), "runs type");
  check(H5Tinsert(t, "message", HOFFSET(RunRow, message), str), "runs type");
  check(H5Tinsert(t, "seed", HOFFSET(RunRow, seed), H5T_NATIVE_UINT64), "runs type");
  if (with_choices) check(H5Tinsert(t, "choices", HOFFSET(RunRow, choices), str), "runs type");
  return t;
}

Handle peak_type(hid_t str) {
  Handle t(H5Tcreate(H5T_COMPOUND, sizeof(PeakRow)), H5Tclose, "peak_memory type");
  check(H5Tinsert(t, "run", HOFFSET(PeakRow, run), H5T_NATIVE_INT32), "peak_memory type");
  check(H5Tinsert(t, "device", HOFFSET(PeakRow, device), str), "peak_memory type");
  check(H5Tinsert(t, "bytes", HOFFSET(PeakRow, bytes), H5T_NATIVE_DOUBLE), "peak_memory type");
  return t;
}

Handle comm_type(hid_t str) {
  Handle t(H5Tcreate(H5T_COMPOUND, sizeof(CommRow)), H5Tclose, "comm_bytes type");
  check(H5Tinsert(t, "run", HOFFSET(CommRow, run), H5T_NATIVE_INT32), "comm_bytes type");
  check(H5Tinsert(t, "scope", HOFFSET(CommRow, scope), str), "comm_bytes type");
  check(H5Tinsert(t, "name", HOFFSET(CommRow, name), str), "comm_bytes type");
  check(H5Tinsert(t, "bytes", HOFFSET(CommRow, bytes), H5T_NATIVE_DOUBLE), "comm_bytes type");
  return t;
}

Handle generation_type() {
  Handle t(H5Tcreate(H5T_COMPOUND, sizeof(GenerationRow)), H5Tclose, "generation type");
  check(H5Tinsert(t, "run", HOFFSET(GenerationRow, run), H5T_NATIVE_INT32), "generation type");
  check(H5Tinsert(t, "input_tokens", HOFFSET(GenerationRow, input_tokens), H5T_NATIVE_INT32), "generation type");
  check(H5Tinsert(t, "output_tokens", HOFFSET(GenerationRow, output_tokens), H5T_NATIVE_INT32), "generation type");
  check(H5Tinsert(t, "kv_stride", HOFFSET(GenerationRow, kv_stride), H5T_NATIVE_INT32), "generation type");
  check(H5Tinsert(t, "ttft_s", HOFFSET(GenerationRow, ttft_s), H5T_NATIVE_DOUBLE), "generation type");
  check(H5Tinsert(t, "tpot_s", HOFFSET(GenerationRow, tpot_s), H5T_NATIVE_DOUBLE), "generation type");
  check(H5Tinsert(t, "weights_shared", HOFFSET(GenerationRow, weights_shared), H5T_NATIVE_INT8), "generation type");
  return t;
}

Handle milp_type(hid_t str) {
  Handle t(H5Tcreate(H5T_COMPOUND, sizeof(MilpRow)), H5Tclose, "milp type");
  check(H5Tinsert(t, "run", HOFFSET(MilpRow, run), H5T_NATIVE_INT32), "milp type");
  check(H5Tinsert(t, "plan_source", HOFFSET(MilpRow, plan_source), str), "milp type");
  check(H5Tinsert(t, "makespan_s", HOFFSET(MilpRow, makespan_s), H5T_NATIVE_DOUBLE), "milp type");
  check(H5Tinsert(t, "objective_s", HOFFSET(MilpRow, objective_s), H5T_NATIVE_DOUBLE), "milp type");
  check(H5Tinsert(t, "bound_s", HOFFSET(MilpRow, bound_s), H5T_NATIVE_DOUBLE), "milp type");
  check(H5Tinsert(t, "solves", HOFFSET(MilpRow, solves), H5T_NATIVE_INT32), "milp type");
  check(H5Tinsert(t, "optimal", HOFFSET(MilpRow, optimal), H5T_NATIVE_INT32), "milp type");
  check(H5Tinsert(t, "nodes", HOFFSET(MilpRow, nodes), H5T_NATIVE_INT64), "milp type");
  return t;
}

Handle serving_type() {
  Handle t(H5Tcreate(H5T_COMPOUND, sizeof(ServingRow)), H5Tclose, "serving type");
  const auto add = [&](const std::string& name, std::size_t offset, hid_t type) {
    check(H5Tinsert(t, name.c_str(), offset, type), "serving type");
  };
  add("run", HOFFSET(ServingRow, run), H5T_NATIVE_INT32);
  add("replicas", HOFFSET(ServingRow, replicas), H5T_NATIVE_INT32);
  add("kv_blocks", HOFFSET(ServingRow, kv_blocks), H5T_NATIVE_INT64);
  add("iterations", HOFFSET(ServingRow, iterations), H5T_NATIVE_INT64);
  add("peak_blocks", HOFFSET(ServingRow, peak_blocks), H5T_NATIVE_INT64);
  add("simulations", HOFFSET(ServingRow, simulations), H5T_NATIVE_INT64);
  add("preemptions", HOFFSET(ServingRow, preemptions), H5T_NATIVE_INT64);
  add("error_samples", HOFFSET(ServingRow, error_samples), H5T_NATIVE_INT32);
  add("bucket_error", HOFFSET(ServingRow, bucket_error), H5T_NATIVE_DOUBLE);
  for (int m = 0; m < 3; ++m)
    for (int k = 0; k < 4; ++k)
      add(std::string(kServingMetrics[m]) + "_" + kServingStats[k] + "_s", HOFFSET(ServingRow, stat) + sizeof(double) * (4 * m + k),
          H5T_NATIVE_DOUBLE);
  add("requests_per_s", HOFFSET(ServingRow, requests_per_s), H5T_NATIVE_DOUBLE);
  add("tokens_per_s", HOFFSET(ServingRow, tokens_per_s), H5T_NATIVE_DOUBLE);
  add("slo_attainment", HOFFSET(ServingRow, slo_attainment), H5T_NATIVE_DOUBLE);
  add("goodput_per_s", HOFFSET(ServingRow, goodput_per_s), H5T_NATIVE_DOUBLE);
  add("kv_mean_use", HOFFSET(ServingRow, kv_mean_use), H5T_NATIVE_DOUBLE);
  const hsize_t dims[1] = {101};
  Handle quantiles(H5Tarray_create2(H5T_NATIVE_DOUBLE, 1, dims), H5Tclose, "serving type");
  add("ttft_quantiles_s", HOFFSET(ServingRow, ttft_quantiles), quantiles);
  return t;
}

// The metrics' percentiles in the order of ServingRow::stat.
template <class Metrics>
auto stats_of(Metrics& m) {
  return std::array{&m.ttft, &m.tpot, &m.e2e};
}

ServingRow serving_row(std::int32_t run, const ServingResult& r) {
  ServingRow row{run, r.replicas, r.kv_blocks, r.iterations, r.peak_blocks, r.simulations, r.metrics.preemptions,
                 r.error_samples, r.bucket_error, {}, r.metrics.requests_per_s, r.metrics.tokens_per_s,
                 r.metrics.slo_attainment, r.metrics.goodput_per_s, r.metrics.kv_mean_use, {}};
  const auto stats = stats_of(r.metrics);
  for (int k = 0; k < 3; ++k) {
    const Percentiles& p = *stats[k];
    row.stat[k][0] = p.mean, row.stat[k][1] = p.p50, row.stat[k][2] = p.p90, row.stat[k][3] = p.p99;
  }
  const bool some = r.metrics.ttft_quantiles.size() == 101;
  for (int q = 0; q <= 100; ++q)
    row.ttft_quantiles[q] = some ? r.metrics.ttft_quantiles[static_cast<size_t>(q)] : std::numeric_limits<double>::quiet_NaN();
  return row;
}

ServingResult serving_of(const ServingRow& row) {
  ServingResult r;
  r.replicas = row.replicas;
  r.kv_blocks = row.kv_blocks;
  r.iterations = row.iterations;
  r.peak_blocks = row.peak_blocks;
  r.simulations = row.simulations;
  r.metrics.preemptions = row.preemptions;
  r.error_samples = row.error_samples;
  r.bucket_error = row.bucket_error;
  const auto stats = stats_of(r.metrics);
  for (int k = 0; k < 3; ++k) *stats[k] = {row.stat[k][0], row.stat[k][1], row.stat[k][2], row.stat[k][3]};
  r.metrics.requests_per_s = row.requests_per_s;
  r.metrics.tokens_per_s = row.tokens_per_s;
  r.metrics.slo_attainment = row.slo_attainment;
  r.metrics.goodput_per_s = row.goodput_per_s;
  r.metrics.kv_mean_use = row.kv_mean_use;
  if (!std::isnan(row.ttft_quantiles[0])) r.metrics.ttft_quantiles.assign(row.ttft_quantiles, row.ttft_quantiles + 101);
  return r;
}

double or_nan(const std::optional<double>& v) { return v ? *v : std::numeric_limits<double>::quiet_NaN(); }

std::optional<double> from_nan(double v) {
  if (std::isnan(v)) return std::nullopt;
  return v;
}

std::string utc_now_iso() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// --- writing ---

std::string point_json(const RunResult& r) {
  Json point = Json::object();
  for (const auto& [axis, value] : r.point) point[axis] = value;
  return point.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// An axis's dataset in group `point`: HDF5 names cannot hold '/'.
std::string axis_dataset(std::string axis) {
  std::replace(axis.begin(), axis.end(), '/', '_');
  return axis;
}

// Group `point`: the typed value of each axis per row of `runs`.
void write_axes(hid_t file, const RunSet& set) {
  Handle props = untimed(H5P_GROUP_CREATE);
  Handle group(H5Gcreate2(file, "point", H5P_DEFAULT, props, H5P_DEFAULT), H5Gclose, "point");
  Handle str = string_type();
  for (size_t k = 0; k < set.axes.size(); ++k) {
    const std::string name = axis_dataset(set.axes[k]);
    const auto text = [&](const RunResult& r) -> const std::string& {
      static const std::string none;
      return k < r.point.size() ? r.point[k].second : none;
    };
    if (k < set.axis_numeric.size() && set.axis_numeric[k]) {
      std::vector<double> values;
      for (const RunResult& r : set.runs) values.push_back(axis_number(text(r)).value_or(std::numeric_limits<double>::quiet_NaN()));
      write_array(group, name.c_str(), H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, values.size(), values.data());
    } else {
      std::vector<const char*> values;
      for (const RunResult& r : set.runs) values.push_back(text(r).c_str());
      write_array(group, name.c_str(), str, str, values.size(), values.data());
    }
    Handle set_id(H5Dopen2(group, name.c_str(), H5P_DEFAULT), H5Dclose, name.c_str());
    write_string_attr(set_id, "axis", set.axes[k]);
  }
}

std::string file_image(const RunSet& set) {
  const MemoryFile file;
  write_provenance(file, kResultsSchemaVersion, set.command);
  write_string_attr(file, "scenario", set.scenario);
  write_string_attr(file, "scenario_text", set.scenario_text);
  write_string_attr(file, "hardware_text", set.hardware_text);
  write_string_attr(file, "scenario_hash", scenario_hash(set.scenario_text, set.hardware_text));
  write_string_attr(file, "baseline", set.baseline);
  write_string_attr(file, "axes", Json(set.axes).dump());
  write_string_attr(file, "created", utc_now_iso());

  std::vector<std::string> points, choices;  // own the texts the rows point into
  points.reserve(set.runs.size());
  choices.reserve(set.runs.size());
  std::vector<RunRow> runs;
  std::vector<PeakRow> peaks;
  std::vector<CommRow> comms;
  std::vector<GenerationRow> generations;
  std::vector<MilpRow> milps;
  std::vector<ServingRow> served;
  for (std::size_t i = 0; i < set.runs.size(); ++i) {
    const RunResult& r = set.runs[i];
    points.push_back(point_json(r));
    choices.push_back(r.choices.dump(-1, ' ', false, Json::error_handler_t::replace));
    runs.push_back({r.point_index, points.back().c_str(), r.placer.c_str(), scheduler::to_string(r.status), or_nan(r.makespan_s),
                    or_nan(r.predicted_s), or_nan(r.speedup), or_nan(r.gap), r.placement_s, r.message.c_str(), r.seed,
                    choices.back().c_str()});
    for (const auto& [device, bytes] : r.peak_mem_bytes) {
      peaks.push_back({static_cast<std::int32_t>(i), device.c_str(), bytes});
    }
    const auto run = static_cast<std::int32_t>(i);
    if (const auto& g = r.generation)
      generations.push_back({run, g->input_tokens, g->output_tokens, g->kv_stride, or_nan(g->ttft_s), or_nan(g->tpot_s),
                             static_cast<std::int8_t>(g->weights_shared ? *g->weights_shared : -1)});
    if (const auto& v = r.serving) served.push_back(serving_row(run, *v));
    if (const auto& m = r.milp)
      milps.push_back({run, m->plan_source.c_str(), or_nan(m->makespan_s), or_nan(m->objective_s), or_nan(m->bound_s),
                       m->solves, m->optimal, m->nodes});
    if (!r.comm_bytes) continue;
    comms.push_back({run, "total", "", r.comm_bytes->total});
    comms.push_back({run, "inter_node", "", r.comm_bytes->inter_node});
    for (const auto& [device, bytes] : r.comm_bytes->per_gpu) comms.push_back({run, "per_gpu", device.c_str(), bytes});
    for (const auto& [kind, bytes] : r.comm_bytes->by_kind) comms.push_back({run, "by_kind", kind.c_str(), bytes});
  }
  Handle str = string_type();
  write_table(file, "runs", run_type(str), runs);
  write_table(file, "peak_memory", peak_type(str), peaks);
  write_table(file, "comm_bytes", comm_type(str), comms);
  write_table(file, "generation", generation_type(), generations);
  write_table(file, "milp", milp_type(str), milps);
  write_table(file, "serving", serving_type(), served);
  write_axes(file, set);
  return file.image();
}

// --- reading ---

std::string read_string_attr(hid_t file, const char* name) {
  Handle attr(H5Aopen(file, name, H5P_DEFAULT), H5Aclose, name);
  Handle str = string_type();
  char* text = nullptr;
  check(H5Aread(attr, str, &text), name);
  std::string value = text ? text : "";
  H5free_memory(text);
  return value;
}

int read_int_attr(hid_t file, const char* name) {
  Handle attr(H5Aopen(file, name, H5P_DEFAULT), H5Aclose, name);
  int value = 0;
  check(H5Aread(attr, H5T_NATIVE_INT, &value), name);
  return value;
}

// Frees the variable-length strings HDF5 allocated while reading rows, however reading ends.
class VlenRelease {
 public:
  VlenRelease(hid_t mem, hid_t space, void* rows) : mem_(mem), space_(space), rows_(rows) {}
  VlenRelease(const VlenRelease&) = delete;
  VlenRelease& operator=(const VlenRelease&) = delete;
  ~VlenRelease() { H5Dvlen_reclaim(mem_, space_, H5P_DEFAULT, rows_); }

 private:
  hid_t mem_;
  hid_t space_;
  void* rows_;
};

// Reads a 1-D dataset into rows of memory type `mem` and hands each row to `take`, which copies
// out what it keeps.
template <class Row, class Take>
void read_table(hid_t file, const char* name, hid_t mem, Take take) {
  Handle set(H5Dopen2(file, name, H5P_DEFAULT), H5Dclose, name);
  Handle space(H5Dget_space(set), H5Sclose, name);
  const hssize_t n = H5Sget_simple_extent_npoints(space);
  if (n < 0) throw H5Failure{name};
  if (n == 0) return;
  std::vector<Row> rows(static_cast<std::size_t>(n));
  check(H5Dread(set, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows.data()), name);
  const VlenRelease release(mem, space, rows.data());
  for (const Row& row : rows) take(row);
}

std::string text_of(const char* s) { return s ? s : ""; }

std::vector<std::pair<std::string, std::string>> parse_point(const std::string& text) {
  const Json point = Json::parse(text);
  std::vector<std::pair<std::string, std::string>> axes;
  for (const auto& [axis, value] : point.items()) axes.emplace_back(axis, value.get<std::string>());
  return axes;
}

RunSet read_file(const std::string& path) {
  Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose, "open");
  // placesim validate's file has a schema of its own (and older ones none): say which it is.
  if (H5Lexists(file, "validation", H5P_DEFAULT) > 0)
    throw InputError("results file " + path + " is placesim validate's (predicted against measured), not a `run` "
                     "results file: `placesim plot measured` reads it");
  if (H5Aexists(file, "schema_version") <= 0) {
    throw InputError("results file " + path + " is not a placesim results file (no schema_version)");
  }
  const int version = read_int_attr(file, "schema_version");
  if (version < kOldestReadableSchemaVersion || version > kResultsSchemaVersion) {
    throw InputError("results file " + path + " has schema version " + std::to_string(version) +
                     ", this placesim reads " + std::to_string(kOldestReadableSchemaVersion) + " to " +
                     std::to_string(kResultsSchemaVersion));
  }
  RunSet set;
  set.scenario = read_string_attr(file, "scenario");
  set.scenario_text = read_string_attr(file, "scenario_text");
  set.hardware_text = read_string_attr(file, "hardware_text");
  set.baseline = read_string_attr(file, "baseline");
  set.axes = Json::parse(read_string_attr(file, "axes")).get<std::vector<std::string>>();
  set.axis_numeric.assign(set.axes.size(), false);
  if (version >= 6) {
    set.command = read_string_attr(file, "command");
    for (size_t k = 0; k < set.axes.size(); ++k) {
      const std::string name = "point/" + axis_dataset(set.axes[k]);
      Handle axis(H5Dopen2(file, name.c_str(), H5P_DEFAULT), H5Dclose, name.c_str());
      Handle type(H5Dget_type(axis), H5Tclose, name.c_str());
      set.axis_numeric[k] = H5Tget_class(type) == H5T_FLOAT;
    }
  }

  Handle str = string_type();
  read_table<RunRow>(file, "runs", run_type(str, version >= 6), [&](const RunRow& row) {
    RunResult r;
    r.point_index = row.point_index;
    r.point = parse_point(text_of(row.point));
    r.placer = text_of(row.placer);
    try {
      r.status = scheduler::parse_run_status(text_of(row.status));
    } catch (const InputError& e) {
      throw InputError("results file " + path + ": runs row " + std::to_string(set.runs.size()) + ": " + e.what());
    }
    r.makespan_s = from_nan(row.makespan_s);
    r.predicted_s = from_nan(row.predicted_s);
    r.speedup = from_nan(row.speedup);
    r.gap = from_nan(row.gap);
    r.placement_s = row.placement_s;
    r.message = text_of(row.message);
    r.seed = row.seed;
    if (version >= 6) r.choices = Json::parse(text_of(row.choices));
    set.runs.push_back(std::move(r));
  });
  // The run a row of `table` belongs to.
  const auto run_of = [&](const char* table, std::int32_t run) -> RunResult& {
    if (run < 0 || static_cast<std::size_t>(run) >= set.runs.size()) {
      throw InputError("results file " + path + ": " + table + " names run " + std::to_string(run) + " of " +
                       std::to_string(set.runs.size()));
    }
    return set.runs[static_cast<std::size_t>(run)];
  };
  read_table<PeakRow>(file, "peak_memory", peak_type(str), [&](const PeakRow& row) {
    run_of("peak_memory", row.run).peak_mem_bytes[text_of(row.device)] = row.bytes;
  });
  if (version < 3) return set;  // no communication volumes before schema 3
  read_table<CommRow>(file, "comm_bytes", comm_type(str), [&](const CommRow& row) {
    std::optional<scheduler::CommBytes>& c = run_of("comm_bytes", row.run).comm_bytes;
    if (!c) c.emplace();
    const std::string scope = text_of(row.scope);
    if (scope == "total") c->total = row.bytes;
    else if (scope == "inter_node") c->inter_node = row.bytes;
    else if (scope == "per_gpu") c->per_gpu[text_of(row.name)] = row.bytes;
    else if (scope == "by_kind") c->by_kind[text_of(row.name)] = row.bytes;
    else throw InputError("results file " + path + ": comm_bytes has an unknown scope '" + scope + "'");
  });
  if (version < 4) return set;  // no generations before schema 4
  read_table<GenerationRow>(file, "generation", generation_type(), [&](const GenerationRow& row) {
    GenerationResult& g = run_of("generation", row.run).generation.emplace();
    g.input_tokens = row.input_tokens;
    g.output_tokens = row.output_tokens;
    g.kv_stride = row.kv_stride;
    g.ttft_s = from_nan(row.ttft_s);
    g.tpot_s = from_nan(row.tpot_s);
    if (row.weights_shared >= 0) g.weights_shared = row.weights_shared == 1;
  });
  if (version < 5) return set;  // no MILP records before schema 5
  read_table<MilpRow>(file, "milp", milp_type(str), [&](const MilpRow& row) {
    scheduler::MilpRecord& m = run_of("milp", row.run).milp.emplace();
    m.plan_source = text_of(row.plan_source);
    m.makespan_s = from_nan(row.makespan_s);
    m.objective_s = from_nan(row.objective_s);
    m.bound_s = from_nan(row.bound_s);
    m.solves = row.solves;
    m.optimal = row.optimal;
    m.nodes = row.nodes;
  });
  if (version < 7) return set;  // no served streams before schema 7
  read_table<ServingRow>(file, "serving", serving_type(), [&](const ServingRow& row) {
    run_of("serving", row.run).serving = serving_of(row);
  });
  return set;
}

}  // namespace

std::string h5::results_image(const RunSet& set) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // failures are reported by our exceptions
  try {
    return file_image(set);
  } catch (const H5Failure& f) {  // in memory, with no disk involved: memory ran out
    throw OutOfMemory("cannot build the results file in memory (HDF5: " + f.what + ")");
  }
}

RunSet h5::read_results(const std::string& path) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) throw InputError("results file " + path + " does not exist");
  if (H5Fis_hdf5(path.c_str()) <= 0) throw InputError("results file " + path + " is not an HDF5 file");
  try {
    return read_file(path);
  } catch (const H5Failure& f) {
    throw InputError("results file " + path + " is not a placesim results file (cannot read " + f.what + ")");
  } catch (const nlohmann::json::exception& e) {
    throw InputError("results file " + path + " holds malformed JSON: " + e.what());
  }
}

}  // namespace placesim::explore
