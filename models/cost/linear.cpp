// ScheInfer's linear time model (Eq. 3): an op of class c with work n (models/cost/calibration.hpp:
// a GEMM's n = batch * m * k * n multiply-adds; attention, norm, elementwise and gather ops have
// fits of their own, as `placesim calibrate` measures them) on a device of kind d takes
//
//   t = launch + alpha + n * beta
//
// with alpha and beta the hardware file's `calibration: {<d>_<c>: {<dtype>: {alpha, beta}}}`
// fit. launch is the device's, as in the roofline (the runtime's dispatch is host time, not
// the op's: docs/execution.md, "The runtime"): ScheInfer measures the launch
// apart from the GEMM (its t_Launch), and the scheinfer presets give each GPU Table I's launch.
//
// dtype: the model's for a GEMM with a weight operand, so an int4 model's linear layers take the
// int4 fit (ScheInfer's int4 kernels: int4 weights against fp16 activations); the activations'
// (models::activation_dtype) for a GEMM of two activations, which no int4 kernel runs.
//
// CPU threads. A fit measured on T cores (its `threads`, default all) prices an op on c cores
// while k cores are busy (the plan's cpu_cores, as models::on_cores and on_one_core record it;
// where the plan gives no count, the model's `threads` option, else all cores) as
//
//   beta_{c,k} = beta_T * (T / w_T) * (w_k / c)
//
// with w the CPU's contention curve (models::contention_at; 1 without one): T / (w_T beta_T) is one
// core's rate, which k busy cores slow by w_k, and c cores share the work. The fit used is the one
// measured on the thread count nearest k (ties: fewer), so a calibration with a fit per thread
// count is used as measured (T = k: beta_k * k / c) and the curve only bridges the counts between.
// alpha, a start-up time, does not scale. Where the plan gives no count, the op still occupies the
// whole CPU in the engine (docs/execution.md): `threads` changes its time, not what it holds.
//
// Transfers are not a cost model's: the engine prices them on the topology's links. The presets'
// pcie link is Table I's PCIe fit (latency alpha, bandwidth 1 / beta), so an uncontended copy of
// n bytes takes alpha + n * beta there too; the calibration's pcie entry is a record.
//
// A parameter takes no time, a device that does not compute cannot run an op, and a node's
// explicit per-device durations replace the formula, as in the roofline. An op of another class
// (lstm, no shape), or one whose fit the calibration lacks, is priced by the roofline with
// `fallback: roofline`; otherwise the model is not made: InputError at the
// calibration key to add (or at the cost spec, for a class no key can give).
#include <cstdlib>
#include <fmt/format.h>
#include <set>

#include "models/cost/calibration.hpp"
#include "models/cost/cost_models.hpp"

namespace placesim::models {
namespace {

struct LinearOptions {
  int threads = 0;        // cores a CPU op runs on where the plan gives none; 0: all
  bool fallback = false;  // roofline for ops without a fit
  SourceLoc spec_loc;     // the `cost:` entry, for errors no calibration key can locate
};

// An op's fit on a device kind, or why it has none and where to add it.
struct Lookup {
  const OpClassFits* fits = nullptr;
  DType dtype = DType::FP32;
  double n = 0;
  std::string missing;
  SourceLoc where;
};

// The dtype a GEMM's kernel runs in (see the top of this file).
DType kernel_dtype(const OpShape& s, DType model) {
  const auto* g = std::get_if<GemmShape>(&s);
  return g && g->weight == GemmWeight::B ? model : activation_dtype(model);
}

bool has_dtype(const FitsAtThreads& s, DType t) { return s.by_dtype.count(t) != 0; }

class LinearCost final : public CostModel {
 public:
  LinearCost(std::optional<Calibration> cal, LinearOptions o) : cal_(std::move(cal)), opts_(std::move(o)) {}

  std::string name() const override { return "linear"; }

  double duration(const Node& op, const hw::Device& dev, DType dtype) const override {
    if (op.kind == NodeKind::Param || !dev.is_compute() || !op.durations.empty())
      return roofline_.duration(op, dev, dtype);
    const Lookup l = lookup(op, dev, dtype);
    if (!l.fits) {
      if (opts_.fallback) return roofline_.duration(op, dev, dtype);
      throw InputError(l.where, l.missing);
    }
    return dev.launch_s + work_time(*l.fits, l.dtype, l.n, dev);
  }

  Lookup lookup(const Node& op, const hw::Device& dev, DType model) const {
    Lookup l;
    const std::string on = fmt::format("{} '{}'", hw::to_string(dev.kind), dev.id);
    const std::string or_fallback = "or give the cost model `fallback: roofline`";
    const std::optional<OpClassWork> w = op_class_work(op.shape);
    if (!w) {
      l.where = opts_.spec_loc;
      l.missing = fmt::format("op '{}' is of class {}: the linear cost model has fits for gemm, attention, norm, "
                              "elementwise and gather ops only (calibration keys such as gpu_gemm, cpu_norm); give it "
                              "`fallback: roofline` to price the others by the roofline",
                              op.name, kind_name(op.shape));
      return l;
    }
    l.n = w->n;
    l.dtype = kernel_dtype(op.shape, model);
    std::string key = fit_key(dev.kind, w->op_class);
    // A GEMM off the tensor cores' tiles takes the gemm_unaligned fit where there is one.
    if (cal_ && unaligned_gemm(op.shape))
      if (auto u = cal_->fits.find(fit_key(dev.kind, "gemm_unaligned")); u != cal_->fits.end())
        for (const FitsAtThreads& s : u->second.sets)
          if (has_dtype(s, l.dtype)) key = u->first;
    if (!cal_) {
      l.where = opts_.spec_loc;
      l.missing = fmt::format("the hardware has no calibration: block, where the linear cost model reads its fits "
                              "({} for {} op '{}' on {}; models/cost/calibration.hpp), {}",
                              key, w->op_class, op.name, on, or_fallback);
      return l;
    }
    auto it = cal_->fits.find(key);
    if (it == cal_->fits.end()) {
      l.where = cal_->loc;
      l.missing = fmt::format("calibration has no '{}' fits: the linear cost model needs one for {} op '{}' on {} ({}), {}",
                              key, w->op_class, op.name, on, to_string(l.dtype), or_fallback);
      return l;
    }
    bool found = false;
    for (const FitsAtThreads& s : it->second.sets) found = found || has_dtype(s, l.dtype);
    if (!found) {
      l.where = it->second.loc;
      l.missing = fmt::format("calibration '{}' has no {} fit: the linear cost model needs one for {} op '{}' on {}, {}",
                              key, to_string(l.dtype), w->op_class, op.name, on, or_fallback);
      return l;
    }
    l.fits = &it->second;
    return l;
  }

  // Throws, as duration would, for the first op of `g` some compute device of `topo` has no fit
  // for (one device of each kind stands for its kind: the fits are per kind).
  void check(const hw::Topology& topo, const Graph& g) const {
    if (opts_.fallback) return;
    std::set<hw::DeviceKind> seen;
    for (const hw::Device& d : topo.devices) {
      if (!d.is_compute() || !seen.insert(d.kind).second) continue;
      for (const Node& op : g.nodes) {
        if (op.kind != NodeKind::Op || !op.durations.empty()) continue;
        const Lookup l = lookup(op, d, g.dtype);
        if (!l.fits) throw InputError(l.where, l.missing);
      }
    }
  }

 private:
  // alpha + n * beta of the set whose thread count is nearest the op's, beta scaled to it.
  double work_time(const OpClassFits& f, DType t, double n, const hw::Device& dev) const {
    if (dev.kind != hw::DeviceKind::Cpu) {
      const TimeFit& fit = f.sets.front().by_dtype.at(t);
      return fit.alpha + n * fit.beta;
    }
    const int k = dev.busy_cores > 0 ? dev.busy_cores : opts_.threads > 0 ? opts_.threads : dev.cores;
    const int c = dev.run_cores > 0 ? dev.run_cores : k;
    const FitsAtThreads* best = nullptr;
    int best_t = 0;
    for (const FitsAtThreads& s : f.sets) {
      if (!has_dtype(s, t)) continue;
      const int st = s.threads > 0 ? s.threads : dev.cores;
      if (!best || std::abs(st - k) < std::abs(best_t - k) || (std::abs(st - k) == std::abs(best_t - k) && st < best_t)) {
        best = &s;
        best_t = st;
      }
    }
    const TimeFit& fit = best->by_dtype.at(t);
    return fit.alpha + n * fit.beta * (best_t / contention_at(dev, best_t)) * (contention_at(dev, k) / c);
  }

  std::optional<Calibration> cal_;
  LinearOptions opts_;
  RooflineCost roofline_;
};

LinearOptions read_options(const Yaml& spec, const hw::Topology& topo) {
  LinearOptions o;
  o.spec_loc = spec.loc();
  if (!spec.is_map()) return o;
  if (const Yaml v = spec.get("threads"); v.defined() && v.str() != "all") {
    const std::int64_t t = v.integer();
    if (t < 1) v.fail(fmt::format("threads must be at least 1 (the cores a CPU op runs on), or all; got {}", t));
    for (const hw::Device& d : topo.devices)
      if (d.kind == hw::DeviceKind::Cpu && t > d.cores)
        v.fail(fmt::format("threads is {}, but cpu '{}' has {} cores", t, d.id, d.cores));
    o.threads = static_cast<int>(t);
  }
  if (const Yaml v = spec.get("fallback"); v.defined()) {
    const std::string f = v.str();
    if (f != "none" && f != "roofline") v.fail(fmt::format("expected fallback none or roofline, got '{}'", f));
    o.fallback = f == "roofline";
  }
  return o;
}

}  // namespace

void register_linear(Registry<CostModelEntry>& r) {
  r.add("linear",
        {"alpha + n * beta per op class and device kind from the hardware's calibration: fits (as ScheInfer fits them, "
         "README \"Cost models\"; gemm: n = batch*m*k*n; attention: flops; norm, elementwise, gather: element accesses), "
         "CPU beta scaled by thread count and contention",
         {{"threads", "all", "cores a CPU op runs on where the plan gives no cpu_cores: 1 .. the CPU's cores, or all"},
          {"fallback", "none", "ops without a fit: none (an error) or roofline (priced by the roofline)"}},
         [](const Yaml& spec, const hw::Topology& topo, const Graph& graph) {
           const LinearOptions o = read_options(spec, topo);
           std::optional<Calibration> cal;
           if (topo.calibration) cal = read_calibration(*topo.calibration);
           auto m = std::make_shared<const LinearCost>(std::move(cal), o);
           m->check(topo, graph);
           return m;
         }});
}

}  // namespace placesim::models
