#include "tests/peer/flow_sets.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "sim/engine/executor.hpp"

namespace placesim::peer {

namespace {

// Link rates per direction from the hardware the simulator models (bytes/s): 10 GbE, InfiniBand
// EDR / HDR (and one NVLink) / NDR, PCIe 3.0 / 4.0 / 5.0 x16, an A6000 NVLink bridge. Half the
// links take one of these (ties between equal links), half a rate drawn log-uniformly over the
// same span (no two alike).
constexpr double kLinkFigures[] = {1.25e9, 12.5e9, 25e9, 50e9, 15.75e9, 31.5e9, 63e9, 56e9};

// No flow starts before 1 ms. The engine rounds every event instant up to the picosecond (the
// execution contract), which leaves each completion under a picosecond late per event before it:
// at most 400 ps with 200 flows, 200 starts and 200 ends, below 1e-6 of any instant after 1 ms,
// so a comparison at 1e-6 relative measures the sharing, not the clock's resolution.
constexpr std::int64_t kFirstStartUs = 1000;

}  // namespace

FlowSet random_flow_set(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto uniform_int = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto log_uniform = [&rng](double lo, double hi) {
    return std::exp(std::uniform_real_distribution<double>(std::log(lo), std::log(hi))(rng));
  };
  FlowSet set;
  const int links = uniform_int(2, 12);
  for (int l = 0; l < links; ++l) {
    set.link_bw.push_back(uniform_int(0, 1) == 0 ? kLinkFigures[uniform_int(0, std::size(kLinkFigures) - 1)]
                                                 : log_uniform(1.25e9, 63e9));
  }
  const int flows = uniform_int(10, 200);
  std::vector<int> order(links);
  for (int f = 0; f < flows; ++f) {
    Flow flow;
    for (int l = 0; l < links; ++l) order[l] = l;
    std::shuffle(order.begin(), order.end(), rng);
    const int hops = uniform_int(1, std::min(4, links));
    for (int h = 0; h < hops; ++h) flow.route.push_back(Hop{order[h], uniform_int(0, 1) == 0});
    flow.bytes = static_cast<std::uint64_t>(std::llround(log_uniform(1e3, 1e9)));
    flow.start_us = kFirstStartUs + (uniform_int(0, 3) == 0 ? 0 : uniform_int(0, 20000));
    set.flows.push_back(std::move(flow));
  }
  return set;
}

std::vector<double> placesim_completion_times(const FlowSet& set, const engine::SimOptions& opts) {
  engine::TaskGraph g;
  for (std::size_t l = 0; l < set.link_bw.size(); ++l) {
    g.add_resource("link" + std::to_string(l) + ".fwd", set.link_bw[l]);  // resource 2 l
    g.add_resource("link" + std::to_string(l) + ".bwd", set.link_bw[l]);  // resource 2 l + 1
  }
  for (std::size_t f = 0; f < set.flows.size(); ++f) {
    const Flow& flow = set.flows[f];
    const std::string name = "flow" + std::to_string(f);
    engine::Task t;
    t.kind = engine::TaskKind::Transfer;
    t.queue = g.add_queue(name);
    t.bytes = static_cast<double>(flow.bytes);
    for (const Hop& h : flow.route) t.uses.push_back({2 * h.link + (h.forward ? 0 : 1), t.bytes});
    t.latency = flow.start_us * (kPsPerSecond / 1'000'000);
    g.add_task(name, std::move(t));
  }
  const engine::Trace tr = engine::simulate(g, opts);
  std::vector<double> ends;
  for (const engine::TaskRecord& r : tr.tasks) ends.push_back(to_seconds(r.end));
  return ends;
}

}  // namespace placesim::peer
