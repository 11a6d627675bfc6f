// Builds a seeded random layered DAG, reads its spec and registers the generator; the model is in
// random_dag.hpp.
#include "models/generators/random_dag.hpp"

#include <climits>
#include <fmt/format.h>
#include <random>

#include "models/generators/portable_random.hpp"
#include "models/workload.hpp"

namespace placesim::models {

namespace {

void check(const RandomDagSpec& s) {
  std::string bad;
  if (s.depth < 1) bad = fmt::format("depth must be >= 1, got {}", s.depth);
  else if (s.width < 1) bad = fmt::format("width must be >= 1, got {}", s.width);
  else if (!(s.density >= 0 && s.density <= 1)) bad = fmt::format("density must be in [0, 1], got {}", s.density);
  else if (s.jump < 1) bad = fmt::format("jump must be >= 1, got {}", s.jump);
  else if (!(s.ccr >= 0)) bad = fmt::format("ccr must be >= 0, got {}", s.ccr);
  else if (!(s.flops >= 0)) bad = fmt::format("flops must be >= 0, got {}", s.flops);
  else if (!(s.ref_flops > 0) || !(s.ref_bandwidth > 0)) bad = "ref_flops and ref_bandwidth must be > 0";
  else if (!(s.mean >= 0)) bad = fmt::format("mean must be >= 0, got {}", s.mean);
  else if (!(s.beta >= 0 && s.beta <= 2)) bad = fmt::format("beta must be in [0, 2], got {}", s.beta);
  if (!bad.empty()) throw InputError("random-dag: " + bad);
}

int int_in(const Yaml& y, long long lo) {
  const auto v = y.integer();
  if (v < lo || v > INT_MAX) y.fail(fmt::format("expected an integer >= {}, got '{}'", lo, y.str()));
  return static_cast<int>(v);
}

double number_in(const Yaml& y, double lo, double hi) {
  const double v = y.number();
  if (!(v >= lo && v <= hi)) y.fail(fmt::format("expected a number in [{}, {}], got '{}'", lo, hi, y.str()));
  return v;
}

// The keys parse_random_dag_spec reads; the defaults are RandomDagSpec's.
const std::vector<OptionSpec>& random_dag_options() {
  static const std::vector<OptionSpec> options = [] {
    const RandomDagSpec d;
    return std::vector<OptionSpec>{
        {"seed", fmt::format("{}", d.seed), "seed of the draws (the same seed gives the same graph everywhere)"},
        {"depth", fmt::format("{}", d.depth), "levels"},
        {"width", fmt::format("{}", d.width), "mean ops per level"},
        {"density", fmt::format("{:g}", d.density), "probability of each edge to a level at most jump below"},
        {"jump", fmt::format("{}", d.jump), "levels an edge may span"},
        {"ccr", fmt::format("{:g}", d.ccr), "mean edge time on the reference link over mean op time"},
        {"flops", fmt::format("{:g}", d.flops), "work mode: mean op flops"},
        {"ref_flops", fmt::format("{:g}", d.ref_flops), "flops/s of the reference device (\"10TFLOPS\")"},
        {"ref_bandwidth", fmt::format("{:g}", d.ref_bandwidth), "bytes/s of the reference link (\"10GB/s\")"},
        {"durations", "none",
         fmt::format("durations mode: {{devices: [p1, p2], mean: seconds (default {:g}), beta: heterogeneity in "
                     "[0, 2] (default {:g})}}, a time per listed device; work mode when absent",
                     d.mean, d.beta)},
        {"dtype", to_string(d.dtype), "weight dtype"}};
  }();
  return options;
}

}  // namespace

RandomDagSpec parse_random_dag_spec(const Yaml& model) {
  allow_workload_keys(model, random_dag_options());
  if (model.has("generator") && model.at("generator").str() != "random-dag")
    model.at("generator").fail("expected generator 'random-dag', got '" + model.at("generator").str() + "'");
  RandomDagSpec s;
  if (model.has("seed")) {
    const Yaml seed = model.at("seed");
    const auto v = seed.integer();
    if (v < 0) seed.fail("expected a seed >= 0, got '" + seed.str() + "'");
    s.seed = static_cast<std::uint64_t>(v);
  }
  if (model.has("depth")) s.depth = int_in(model.at("depth"), 1);
  if (model.has("width")) s.width = int_in(model.at("width"), 1);
  // Checked before a draw: 400,000 ops (depth 4000, width 100) took 2 GB and 18 s to place.
  constexpr long long kMaxOps = 1'000'000;
  if (static_cast<long long>(s.depth) * s.width > kMaxOps)
    (model.has("width") ? model.at("width") : model.at("depth"))
        .fail(fmt::format("depth x width is {} x {} = {} ops, more than the {} a random DAG may have (400,000 took "
                          "2 GB)",
                          s.depth, s.width, static_cast<long long>(s.depth) * s.width, kMaxOps));
  if (model.has("density")) s.density = number_in(model.at("density"), 0, 1);
  if (model.has("jump")) s.jump = int_in(model.at("jump"), 1);
  if (model.has("ccr")) s.ccr = number_in(model.at("ccr"), 0, 1e30);
  if (model.has("flops")) s.flops = number_in(model.at("flops"), 0, 1e30);
  if (model.has("ref_flops")) {
    const Yaml r = model.at("ref_flops");
    s.ref_flops = r.flops();
    if (!(s.ref_flops > 0)) r.fail("expected a positive rate, got '" + r.str() + "'");
  }
  if (model.has("ref_bandwidth")) s.ref_bandwidth = model.at("ref_bandwidth").positive_bandwidth();
  if (model.has("dtype")) {
    const Yaml d = model.at("dtype");
    try {
      s.dtype = parse_dtype(d.str());
    } catch (const InputError& e) {
      d.fail(e.detail());
    }
  }
  if (model.has("durations")) {
    const Yaml d = model.at("durations");
    if (!d.is_map()) d.fail("expected durations: {devices: [p1, p2], mean: 10ms, beta: 0.5}");
    d.allow_keys({"devices", "mean", "beta"});
    const Yaml devs = d.at("devices");
    if (!devs.is_seq() || devs.items().empty()) devs.fail("expected a non-empty list of device ids");
    for (const Yaml& dev : devs.items()) s.devices.push_back(dev.str());
    if (d.has("mean")) s.mean = d.at("mean").duration();
    if (d.has("beta")) s.beta = number_in(d.at("beta"), 0, 2);
  }
  return s;
}

Graph generate_random_dag(const RandomDagSpec& spec) {
  check(spec);
  std::mt19937_64 rng(spec.seed);
  Graph g;
  g.name = fmt::format("random-dag-s{}-d{}-w{}", spec.seed, spec.depth, spec.width);
  g.dtype = spec.dtype;

  std::vector<std::vector<int>> level(spec.depth);
  for (int l = 0; l < spec.depth; ++l) {
    const auto n = 1 + uniform_index(rng, 2 * static_cast<std::uint64_t>(spec.width) - 1);
    for (std::uint64_t i = 0; i < n; ++i) {
      Node op;
      op.name = fmt::format("n{}.{}", l, i);
      op.type = "op";
      level[l].push_back(g.add_node(std::move(op)));
    }
  }

  std::vector<char> has_parent(g.nodes.size(), 0);
  for (int l = 0; l < spec.depth; ++l)
    for (int u : level[l])
      for (int k = l + 1; k <= std::min(l + spec.jump, spec.depth - 1); ++k)
        for (int v : level[k])
          if (uniform01(rng) < spec.density) {
            g.add_edge(u, v, 0);
            has_parent[v] = 1;
          }
  for (int l = 1; l < spec.depth; ++l)
    for (int v : level[l])
      if (!has_parent[v]) g.add_edge(level[l - 1][uniform_index(rng, level[l - 1].size())], v, 0);

  const bool timed = !spec.devices.empty();
  const double w = timed ? spec.mean : spec.flops / spec.ref_flops;
  for (Node& op : g.nodes) {
    const double wv = uniform(rng, 0, 2 * w);
    op.output_bytes = uniform(rng, 0, 2 * spec.ccr * w * spec.ref_bandwidth);
    if (timed)
      for (const std::string& dev : spec.devices)
        op.durations[dev] = uniform(rng, wv * (1 - spec.beta / 2), wv * (1 + spec.beta / 2));
    else
      op.flops = wv * spec.ref_flops;
  }
  for (Edge& e : g.edges) {
    e.bytes = g.nodes[e.src].output_bytes;
    if (timed) e.time_s = e.bytes / spec.ref_bandwidth;
    else g.nodes[e.dst].bytes += e.bytes;
  }
  if (!timed)
    for (Node& op : g.nodes) op.bytes += op.output_bytes;
  g.validate();
  return g;
}

void register_random_dag(Registry<WorkloadEntry>& r) {
  r.add("random-dag", {"seeded random layered DAG (Topcuoglu et al.'s HEFT experiments), in work or durations mode",
                       random_dag_options(),
                       [](const Yaml& model, std::uint64_t) { return generate_random_dag(parse_random_dag_spec(model)); }});
}

}  // namespace placesim::models
