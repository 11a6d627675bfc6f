#include "app/explore/serving/serve_point.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <set>
#include <fmt/format.h>

#include "app/explore/runner.hpp"
#include "app/explore/serving/plan_times.hpp"
#include "app/explore/serving/stream_trace.hpp"
#include "models/request_stream.hpp"
#include "scheduler/score_plan.hpp"

namespace placesim::explore {
namespace {

namespace fs = std::filesystem;

// The spec at one shape, its positions within the model's table.
models::TransformerSpec at_shape(models::TransformerSpec spec, models::Phase phase, std::int64_t batch, std::int64_t seq) {
  const int table = models::arch_of(spec).positions;
  spec.phase = phase;
  spec.batch = static_cast<int>(batch);
  spec.seq = static_cast<int>(table > 0 ? std::min<std::int64_t>(seq, table) : seq);
  return spec;
}

// KV blocks the decode plan leaves room for: the memory its GPUs (or, without one, its host
// memories) have left at its smallest step, over a block's bytes for every layer's keys and
// values. A tensor-parallel plan holds each head's cache on one GPU of its group, so the group's
// free memory is summed.
std::int64_t kv_blocks(const scheduler::Problem& smallest, const scheduler::Plan& plan, const models::TransformerSpec& spec,
                       std::int64_t block_tokens) {
  const models::TransformerArch& a = models::arch_of(spec);
  const int layers = spec.layers > 0 ? std::min(spec.layers, a.layers) : a.layers;
  const double per_token = 2.0 * layers * a.kv_heads * models::head_dim(a) *
                           models::bytes_per_element(models::activation_dtype(spec.dtype));
  const scheduler::PlanScore score = scheduler::score_plan(smallest, plan);
  double free = 0;
  for (const hw::DeviceKind kind : {hw::DeviceKind::Gpu, hw::DeviceKind::HostMemory}) {
    for (auto& [id, peak] : score.memory.peak) {
      const hw::Device& d = smallest.topo->devices[smallest.topo->index(id)];
      if (d.kind == kind && peak > 0 && std::isfinite(d.memory)) free += std::max(0.0, d.memory - peak);
    }
    if (free > 0) break;
  }
  return static_cast<std::int64_t>(std::floor(free / (per_token * static_cast<double>(block_tokens))));
}

// Up to 32 iteration shapes spread evenly over a run of unknown length: every stride-th kept, the
// stride doubled (and every other kept shape dropped) when the sample is full.
class ShapeSample {
 public:
  void see(const IterationShape& s) {
    if (seen_++ % stride_ != 0) return;
    kept_.push_back(s);
    if (kept_.size() < 64) return;
    for (size_t i = 0; 2 * i < kept_.size(); ++i) kept_[i] = kept_[2 * i];
    kept_.resize(kept_.size() / 2);
    stride_ *= 2;
  }
  const std::vector<IterationShape>& shapes() const { return kept_; }

 private:
  std::vector<IterationShape> kept_;
  std::int64_t seen_ = 0, stride_ = 1;
};

// How many copies of the plans fit the machine on disjoint devices: for each kind of compute
// device the plans use, the machine's devices of that kind over the plans' (at least 1 is there).
// `needed` says, for an error, what one copy uses.
int copies_held(const hw::Topology& topo, const std::vector<const scheduler::Plan*>& plans, std::string& needed) {
  std::map<hw::DeviceKind, std::set<int>> used;
  for (const scheduler::Plan* plan : plans)
    for (const int d : plan->device_of)
      if (d >= 0) used[topo.devices[d].kind].insert(d);
  int copies = std::numeric_limits<int>::max();
  needed.clear();
  for (const auto& [used_kind, devices] : used) {
    const hw::DeviceKind kind = used_kind;  // clang 14 cannot capture a structured binding in a lambda
    const auto have = std::count_if(topo.devices.begin(), topo.devices.end(), [&](const hw::Device& d) { return d.kind == kind; });
    copies = std::min(copies, static_cast<int>(have / static_cast<std::int64_t>(devices.size())));
    needed += fmt::format("{}{} of the machine's {} {} devices", needed.empty() ? "" : ", ", devices.size(), have,
                          hw::to_string(kind));
  }
  return used.empty() ? 1 : copies;
}

double mean_tokens(const std::vector<models::Request>& reqs, bool prompt) {
  double sum = 0;
  for (const models::Request& r : reqs) sum += static_cast<double>(prompt ? r.prompt : r.output);
  return reqs.empty() ? 1 : sum / static_cast<double>(reqs.size());
}

}  // namespace

models::TransformerSpec serving_model(const Yaml& model, std::uint64_t seed) {
  const models::TransformerSpec spec = models::parse_transformer_spec(model, seed);
  if (spec.granularity != models::Granularity::Op)
    model.fail("serving needs the transformer at op granularity (its plans are placed per op)");
  if (models::is_moe(models::arch_of(spec)))
    model.fail("serving a mixture-of-experts model is not built yet: its graph's experts follow each batch's routing, "
               "so one plan cannot serve every batch");
  return spec;
}

models::RequestSpec request_spec(const Scenario& s, const Yaml& y) {
  models::RequestSpec spec = models::parse_request_spec(y);
  if (spec.arrival == models::RequestSpec::Arrival::Trace && fs::path(spec.file).is_relative())
    spec.file = (fs::path(s.file).parent_path() / spec.file).string();
  return spec;
}

std::vector<models::Request> requests_for(const models::RequestSpec& spec, const Yaml& y,
                                          const models::TransformerSpec& model) {
  std::vector<models::Request> reqs = models::make_requests(spec);
  const models::TransformerArch& a = models::arch_of(model);
  for (size_t i = 0; a.positions > 0 && i < reqs.size(); ++i)
    if (reqs[i].prompt + reqs[i].output - 1 > a.positions)
      y.fail(fmt::format("request {} (prompt {}, output {} tokens) is longer than {}'s {} positions", i + 1,
                         reqs[i].prompt, reqs[i].output, a.name, a.positions));
  return reqs;
}

Replica prepare_replica(const Scenario& s, const Point& pt, const scheduler::PlacerSpec& placer,
                        const models::TransformerSpec& model, const ServingOptions& opts,
                        const std::vector<models::Request>& reqs) {
  Replica out;
  out.head.placer = placer.label;
  if (placer.kind == scheduler::PlacerKind::Bound) {
    out.head.status = "bound";
    out.head.message = "a bound has no plan to serve with";
    return out;
  }
  // Representative steps to place: the mean prompt, and a full batch at the mean context.
  const auto prompt = static_cast<std::int64_t>(std::ceil(mean_tokens(reqs, true)));
  const auto context = prompt + static_cast<std::int64_t>(std::ceil(mean_tokens(reqs, false) / 2));
  const auto& facts = scheduler::placers().get(placer.name).facts;
  auto problem = [&](models::Phase phase, std::int64_t batch, std::int64_t seq) {
    scheduler::Problem p = build_problem(s, pt, models::generate_transformer(at_shape(model, phase, batch, seq)));
    // A server loads its weights once, unless the placer's plans stream them every step.
    if (facts.generation == scheduler::GenerationWeights::LoadedOnce) p.weights = scheduler::WeightsMode::Resident;
    return p;
  };
  const scheduler::Problem prefill = problem(models::Phase::Prefill, 1, prompt);
  const scheduler::Problem decode = problem(models::Phase::Decode, opts.config.max_batch, context);
  const scheduler::PlacerResult pre = placer.placer->place(prefill), dec = placer.placer->place(decode);
  for (const scheduler::PlacerResult* r : {&pre, &dec})
    if (!r->plan) {
      out.head.status = to_string(r->status);
      out.head.message = fmt::format("{} step: {}", r == &pre ? "prefill" : "decode", r->message);
      return out;
    }
  out.config = opts.config;
  out.config.kv_blocks = kv_blocks(problem(models::Phase::Decode, 1, 1), *dec.plan, model, out.config.block_tokens);
  out.head.kv_blocks = out.config.kv_blocks;
  if (out.config.kv_blocks < 1) {
    out.head.status = "infeasible";
    out.head.message = "the decode plan leaves no memory for a KV block";
    return out;
  }
  std::string needed;
  const int held = copies_held(*decode.topo, {&*pre.plan, &*dec.plan}, needed);
  out.head.replicas = opts.replicas == 0 ? held : opts.replicas;
  if (out.head.replicas > held) {
    out.head.status = "infeasible";
    out.head.message = fmt::format("{} replicas do not fit: one uses {}", out.head.replicas, needed);
    return out;
  }
  out.times = std::make_unique<PlanTimes>(model, prefill, *pre.plan, decode, *dec.plan, opts.bucket);
  return out;
}

ServedRun replay(Replica& replica, const std::vector<models::Request>& reqs, const SloTargets& slo, bool report_error,
                 const std::string& trace_file) {
  ServedRun out = replica.head;
  if (!replica.times) return out;
  if (const std::string unfit = unfit_request(reqs, replica.config); !unfit.empty()) {
    out.status = "infeasible";
    out.message = unfit;
    return out;
  }
  PlanTimes& times = *replica.times;
  const std::int64_t before = times.simulations();
  ShapeSample sample;
  std::vector<IterationEvent> iterations;  // kept only for a trace
  const ServingTrace trace = serve_replicas(reqs, replica.config, out.replicas, [&](const IterationShape& shape) { return times(shape); },
                                            [&](const IterationEvent& e) {
                                              sample.see(e.shape);
                                              if (!trace_file.empty()) iterations.push_back(e);
                                            });
  if (!trace_file.empty()) write_stream_trace_file(trace_file, reqs, trace, iterations);
  out.simulations = times.simulations() - before;  // the run's; the report's exact ones below are not counted
  for (const IterationShape& shape : report_error ? sample.shapes() : std::vector<IterationShape>{})
    out.bucket_error = std::max(out.bucket_error, std::abs(times(shape) / times.exact(shape) - 1));
  out.error_samples = report_error ? static_cast<int>(sample.shapes().size()) : 0;
  ServingConfig all = replica.config;  // the cache's use is over every replica's blocks
  all.kv_blocks *= out.replicas;
  out.metrics = serving_metrics(reqs, trace, all, slo);
  out.iterations = trace.iterations;
  out.peak_blocks = trace.peak_blocks;
  return out;
}

ServingOptions parse_serving(const Yaml& y) {
  ServingOptions o;
  if (!y.defined()) return o;
  if (!y.is_map()) y.fail("serving must be a map: {batching: continuous, max_batch: 256, block_tokens: 16}");
  y.allow_keys({"batching", "max_batch", "token_budget", "block_tokens", "bucket", "replicas", "slo"});
  if (y.has("batching")) {
    try {
      o.config.policy = parse_batching(y.at("batching").str());
    } catch (const InputError& e) {
      y.at("batching").fail(e.detail());
    }
  }
  const auto count = [&](const char* key, std::int64_t def) {
    const std::int64_t v = y.integer_or(key, def);
    if (v < 1 || v > 1'000'000) y.at(key).fail(fmt::format("{} must be from 1 to 1000000; got {}", key, v));
    return v;
  };
  o.config.max_batch = static_cast<int>(count("max_batch", o.config.max_batch));
  o.config.token_budget = count("token_budget", o.config.token_budget);
  o.config.block_tokens = count("block_tokens", o.config.block_tokens);
  if (y.has("bucket")) {
    o.bucket = y.at("bucket").positive_number();
    if (o.bucket > 1) y.at("bucket").fail("bucket is a relative width: above 0, at most 1");
  }
  if (y.has("replicas")) {
    const Yaml r = y.at("replicas");
    if (r.is_scalar() && r.str() == "auto") o.replicas = 0;
    else if (const std::int64_t n = r.integer(); n >= 1 && n <= 4096) o.replicas = static_cast<int>(n);
    else r.fail(fmt::format("replicas must be auto or from 1 to 4096; got {}", n));
  }
  if (y.has("slo")) {
    const Yaml slo = y.at("slo");
    slo.allow_keys({"ttft", "tpot"});
    if (slo.has("ttft")) o.slo.ttft_s = slo.at("ttft").duration();
    if (slo.has("tpot")) o.slo.tpot_s = slo.at("tpot").duration();
  }
  return o;
}

std::vector<ServedRun> serve_point(const Scenario& s, const Point& p, const std::string& trace_dir) {
  const Yaml root = point_yaml(s, p);
  const models::TransformerSpec model = serving_model(root.at("model"), s.seed);
  const ServingOptions opts = parse_serving(root.get("serving"));
  const std::vector<models::Request> reqs = requests_for(request_spec(s, root.at("requests")), root.at("requests"), model);
  std::vector<ServedRun> out;
  for (size_t k = 0; k < s.placers.size(); ++k) {
    Replica replica = prepare_replica(s, p, s.placers[k], model, opts, reqs);
    const std::string trace =
        trace_dir.empty() || !replica.times ? "" : fmt::format("{}/{}-{}.json", trace_dir, p.index, trace_name(s.placers, k));
    out.push_back(replay(replica, reqs, opts.slo, true, trace));
  }
  return out;
}

}  // namespace placesim::explore
