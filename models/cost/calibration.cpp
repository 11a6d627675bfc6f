// Reading the calibration block's fits (the schema is in calibration.hpp).
#include "models/cost/calibration.hpp"

#include <cmath>
#include <fmt/format.h>

namespace placesim::models {
namespace {

constexpr hw::DeviceKind kFitDevices[] = {hw::DeviceKind::Gpu, hw::DeviceKind::Cpu};
constexpr const char* kOpClasses[] = {"gemm", "gemm_unaligned", "attention", "norm", "elementwise", "gather"};

double nonnegative(const Yaml& v, const char* what) {
  const double x = v.number();
  if (!(x >= 0)) v.fail(fmt::format("{} must be >= 0 (a time cannot be negative), got {}", what, x));
  return x;
}

TimeFit read_fit(const Yaml& y) {
  if (!y.is_map()) y.fail("expected a fit {alpha: SECONDS, beta: SECONDS_PER_UNIT}");
  y.allow_keys({"alpha", "beta", "r2", "samples"});
  return TimeFit{nonnegative(y.at("alpha"), "alpha"), nonnegative(y.at("beta"), "beta")};
}

int read_threads(const Yaml& v) {
  const std::int64_t t = v.integer();
  if (t < 1) v.fail(fmt::format("threads must be at least 1 (the cores these fits were measured on), got {}", t));
  return static_cast<int>(t);
}

DType dtype_at(const Yaml& key) {
  try {
    return parse_dtype(key.str());
  } catch (const InputError& e) {
    key.fail(e.detail());
  }
}

// One map of fits by dtype (and, on a CPU, the thread count they were measured on).
FitsAtThreads read_set(const Yaml& y, hw::DeviceKind device) {
  if (!y.is_map()) y.fail("expected a map of fits by dtype, e.g. {fp16: {alpha: 1e-7, beta: 3.2e-12}}");
  FitsAtThreads s;
  for (auto it = y.node().begin(); it != y.node().end(); ++it) {
    const Yaml key(it->first, y.file()), value(it->second, y.file());
    const std::string name = key.str();
    if (name == "threads") {
      if (device != hw::DeviceKind::Cpu) key.fail("threads applies to a CPU's fits only");
      s.threads = read_threads(value);
      continue;
    }
    s.by_dtype[dtype_at(key)] = read_fit(value);
  }
  if (s.by_dtype.empty()) y.fail("expected at least one fit, keyed by dtype (fp32, fp16, bf16, int8 or int4)");
  return s;
}

OpClassFits read_class(const std::string& key, const Yaml& y, hw::DeviceKind device) {
  OpClassFits f{key, y.loc(), {}};
  if (!y.is_seq()) {
    f.sets.push_back(read_set(y, device));
    return f;
  }
  if (device != hw::DeviceKind::Cpu) y.fail("expected one map of fits (a list, one entry per thread count, is for a CPU)");
  for (const Yaml& item : y.items()) {
    FitsAtThreads s = read_set(item, device);
    for (const FitsAtThreads& o : f.sets)
      if (o.threads == s.threads)
        item.fail(fmt::format("a second entry for {} threads (one per thread count)", s.threads));
    f.sets.push_back(std::move(s));
  }
  if (f.sets.empty()) y.fail("expected at least one entry of fits");
  return f;
}

}  // namespace

std::optional<OpClassWork> op_class_work(const OpShape& s) {
  if (const auto* g = std::get_if<GemmShape>(&s)) return OpClassWork{"gemm", g->batch * g->m * g->k * g->n};
  if (const auto* a = std::get_if<AttentionShape>(&s)) return OpClassWork{"attention", shape_flops(*a)};
  if (const auto* e = std::get_if<ElementwiseShape>(&s))
    return OpClassWork{e->weight_elements > 0 ? "norm" : "elementwise",
                       e->inputs * e->elements + e->weight_elements + e->elements};
  if (const auto* t = std::get_if<GatherShape>(&s)) return OpClassWork{"gather", (t->tables + 1) * t->rows * t->width};
  return std::nullopt;
}

bool unaligned_gemm(const OpShape& s) {
  const auto* g = std::get_if<GemmShape>(&s);
  const auto off = [](double d) { return std::fmod(d, kGemmAlignment) != 0; };
  return g && (off(g->m) || off(g->n) || off(g->k));
}

std::string fit_key(hw::DeviceKind device, const std::string& op_class) {
  return fmt::format("{}_{}", hw::to_string(device), op_class);
}

Calibration read_calibration(const Yaml& block) {
  if (!block.is_map()) block.fail("expected a calibration map");
  Calibration c;
  c.loc = block.loc();
  for (hw::DeviceKind d : kFitDevices)
    for (const char* op_class : kOpClasses) {
      const std::string key = fit_key(d, op_class);
      if (block.has(key)) c.fits.emplace(key, read_class(key, block.at(key), d));
    }
  return c;
}

}  // namespace placesim::models
