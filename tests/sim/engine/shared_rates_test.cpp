// Shared rates (rate_groups.hpp): activities expected to be fixed by the same constraints share one
// solver variable and one progress clock. What they must give is what the activities give
// apart, within rounding: checked by hand on a group a host link splits, and on random graphs of
// flows over a two-level tree beside kernels, DHA and rate caps, sharing from the first
// activity against never sharing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "sim/engine/executor.hpp"
#include "tests/sim/engine/engine_test_util.hpp"

namespace placesim::engine {
namespace {

using test::add;
using test::kGBps;
using test::kS;
using test::kUs;

SimOptions sharing(bool on) {
  SimOptions o;
  o.share_rates = on;
  return o;
}

// A transfer of `bytes` over `links` on a queue of its own; its bytes set, so its unit is bytes.
TaskId add_flow(TaskGraph& g, const std::string& name, UseList links, double bytes) {
  for (Use& u : links) u.amount = bytes;
  const TaskId id = add(g, name, g.add_queue(name), std::move(links), {}, 0, TaskKind::Transfer);
  g.tasks[id].bytes = bytes;
  return id;
}

// Uplink U 4 GB/s; flows a, b, c, d from four hosts through it, e beside a on a's host link h of
// 1.5 GB/s, all at 0. h gives a and e 0.75 GB/s each; b, c and d share what a leaves of U,
// 3.25 / 3 GB/s each. Started together, all five first share one rate (nothing is known
// saturated yet), which h fixes at 0.75: that group is re-sorted, {a, e} by h, {b, c, d} alone,
// then {b, c, d} again by U. a (0.75 GB) ends at 1 s; e (1.5 GB) has 0.75 GB left and h to itself:
// 1.5 s. b, c, d (7.25 / 3 GB each) move 3.25 / 3 GB in the first second and 4 / 3 GB in the
// next, at U / 3 each: all three end at 2 s, members of one group ending at one instant.
TEST(SharedRates, AGroupAHostLinkHoldsBackIsReSorted) {
  TaskGraph g;
  const ResourceId u = g.add_resource("uplink", 4 * kGBps);
  const ResourceId h = g.add_resource("host_a", 1.5 * kGBps);
  std::vector<ResourceId> hosts;
  for (int i = 0; i < 3; ++i) hosts.push_back(g.add_resource(test::numbered("host", i), 10 * kGBps));
  const TaskId a = add_flow(g, "a", {{h, 0}, {u, 0}}, 0.75e9);
  const TaskId e = add_flow(g, "e", {{h, 0}}, 1.5e9);
  std::vector<TaskId> bcd;
  for (int i = 0; i < 3; ++i) bcd.push_back(add_flow(g, test::numbered("f", i), {{hosts[i], 0}, {u, 0}}, 7.25e9 / 3));
  for (const bool on : {true, false}) {
    const Trace tr = simulate(g, sharing(on));
    EXPECT_NEAR(tr.tasks[a].end, kS, 2) << "sharing " << on;
    EXPECT_NEAR(tr.tasks[e].end, 3 * kS / 2, 2) << "sharing " << on;
    for (TaskId t : bcd) {
      EXPECT_NEAR(tr.tasks[t].end, 2 * kS, 2) << "sharing " << on;
      EXPECT_EQ(tr.tasks[t].end, tr.tasks[bcd[0]].end) << "sharing " << on;
    }
  }
}

// Flows between 32 hosts under 4 leaves (25 GB/s host links, 50 GB/s uplinks, so both kinds
// hold flows back), some capped, some after another task; kernels and DHA on three GPUs beside.
TaskGraph random_tree(unsigned seed) {
  std::mt19937 rng(seed);
  auto pick = [&rng](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };
  auto log_uniform = [&rng](double lo, double hi) {
    return std::exp(std::uniform_real_distribution<double>(std::log(lo), std::log(hi))(rng));
  };
  TaskGraph g;
  constexpr int kHosts = 32, kLeaves = 4;
  std::vector<ResourceId> host_up, host_down, leaf_up, leaf_down, gpus;
  for (int i = 0; i < kHosts; ++i) {
    host_up.push_back(g.add_resource(test::numbered("up", i), 25 * kGBps));
    host_down.push_back(g.add_resource(test::numbered("down", i), 25 * kGBps));
  }
  for (int i = 0; i < kLeaves; ++i) {
    leaf_up.push_back(g.add_resource(test::numbered("leaf_up", i), 50 * kGBps));
    leaf_down.push_back(g.add_resource(test::numbered("leaf_down", i), 50 * kGBps));
  }
  for (int i = 0; i < 3; ++i) gpus.push_back(g.add_resource(test::numbered("gpu", i), 1.0));
  for (int t = 0; t < 600; ++t) {
    const std::string name = test::numbered("t", t);
    const int kind = pick(10);
    TaskId id;
    if (kind < 8) {  // a flow
      const int src = pick(kHosts), dst = (src + 1 + pick(kHosts - 1)) % kHosts;
      UseList links{{host_up[src], 0}, {host_down[dst], 0}};
      if (src / (kHosts / kLeaves) != dst / (kHosts / kLeaves)) {
        links.push_back({leaf_up[src / (kHosts / kLeaves)], 0});
        links.push_back({leaf_down[dst / (kHosts / kLeaves)], 0});
      }
      id = add_flow(g, name, links, log_uniform(1e6, 2e9));
      if (pick(6) == 0) g.set_rate_cap(id, log_uniform(1, 50));
    } else if (kind == 8) {  // a kernel
      id = add(g, name, g.add_queue(name), {{gpus[pick(3)], log_uniform(1e-3, 0.3)}});
    } else {  // a DHA: a kernel reading over its host's link
      id = add(g, name, g.add_queue(name), {{gpus[pick(3)], log_uniform(1e-3, 0.3)}, {host_down[pick(kHosts)], log_uniform(1e6, 1e9)}},
               {}, 0, TaskKind::Dha);
      g.tasks[id].bytes = g.tasks[id].uses[1].amount;
    }
    g.tasks[id].latency = static_cast<TimePs>(pick(200'000)) * kUs / 100;
    if (t > 0 && pick(5) == 0) g.tasks[id].deps = {static_cast<TaskId>(pick(t))};
  }
  return g;
}

// Every instant of every task agrees, shared or apart, within a part in 1e9 plus a few
// picoseconds (each group member's completion is rounded up to the picosecond from its own
// arithmetic, and a task after it starts that much later).
TEST(SharedRates, EqualApartWithinRoundingOnRandomTrees) {
  for (unsigned seed = 1; seed <= 8; ++seed) {
    const TaskGraph g = random_tree(seed);
    const Trace shared = simulate(g, sharing(true)), apart = simulate(g, sharing(false));
    double worst = 0;
    for (std::size_t i = 0; i < g.tasks.size(); ++i) {
      for (const auto field : {&TaskRecord::start, &TaskRecord::active, &TaskRecord::end}) {
        const double x = static_cast<double>(shared.tasks[i].*field), y = static_cast<double>(apart.tasks[i].*field);
        worst = std::max(worst, std::abs(x - y) / (y * 1e-9 + 10));
      }
    }
    EXPECT_LE(worst, 1.0) << "seed " << seed << ": the worst instant is off by that many times a part in 1e9 plus 10 ps";
    EXPECT_GT(apart.makespan, kS / 10) << "seed " << seed;
  }
}

}  // namespace
}  // namespace placesim::engine
