// What a collective's flow lowering holds per transfer (sim/engine/collectives/lowering.cpp):
// the ranks' gates waited for by a connection's first transfer only, one traffic record per
// connection, one copy of each route's list of uses. Each must leave the run as it was.
#include <gtest/gtest.h>

#include <set>

#include "sim/engine/collectives/link_network.hpp"
#include "tests/sim/engine/collectives_test_util.hpp"

namespace placesim::engine {
namespace {

using test::kB;
using test::kGBps;
using test::kUs;
using test::spec_of;

constexpr int kN = 4;
constexpr double kS = 4e8;

// A ring all-reduce on a switch, each rank after a compute task of (r + 1) us of its own.
struct Gated {
  TaskGraph g;
  std::vector<TaskId> gates;
  std::size_t first_transfer = 0;
};

Gated gated_ring() {
  Gated x;
  const LinkNetwork net = switch_network(x.g, kN, kB, kUs);
  CollectiveSpec s = spec_of(CollectiveOp::AllReduce, "ring", kN, kS);
  for (int r = 0; r < kN; ++r) {
    const ResourceId gpu = x.g.add_resource(test::numbered("gpu", r), 1.0);
    x.gates.push_back(test::add(x.g, test::numbered("gate", r), x.g.add_queue(test::numbered("q", r)),
                                UseList{{gpu, 1e-6 * (r + 1)}}));
    s.after.push_back({x.gates.back()});
  }
  x.first_transfer = x.g.tasks.size();
  lower_collective(x.g, s, net);
  return x;
}

TEST(CollectiveLowering, OnlyAConnectionsFirstTransferWaitsForTheGates) {
  const Gated x = gated_ring();
  const std::set<TaskId> gates(x.gates.begin(), x.gates.end());
  std::set<QueueId> seen;
  int firsts = 0;
  for (std::size_t t = x.first_transfer; t < x.g.tasks.size(); ++t) {
    const Task& task = x.g.tasks[t];
    if (task.kind != TaskKind::Transfer || task.uses.empty()) continue;
    int waits = 0;
    for (TaskId d : task.deps) waits += gates.count(d) ? 1 : 0;
    if (seen.insert(task.queue).second) {
      ++firsts;
      EXPECT_EQ(waits, 2) << x.g.name(static_cast<TaskId>(t));
    } else {
      EXPECT_EQ(waits, 0) << x.g.name(static_cast<TaskId>(t));
    }
  }
  EXPECT_EQ(firsts, kN);  // a ring's connections: i -> i+1
}

// The lowering before: every transfer waited for both ranks' gates. Same instants, task by task.
TEST(CollectiveLowering, GatesOnEveryTransferChangeNoInstant) {
  const Gated x = gated_ring();
  TaskGraph every = x.g;
  for (std::size_t t = x.first_transfer; t < every.tasks.size(); ++t) {
    Task& task = every.tasks[t];
    if (task.kind != TaskKind::Transfer || task.uses.empty()) continue;
    const std::string name(every.name(static_cast<TaskId>(t)));  // "coll.s3.c0.1>2"
    const auto gt = name.rfind('>');
    const auto dot = name.rfind('.', gt);
    for (int r : {std::stoi(name.substr(dot + 1, gt - dot - 1)), std::stoi(name.substr(gt + 1))}) {
      if (std::find(task.deps.begin(), task.deps.end(), x.gates[r]) == task.deps.end()) task.deps.push_back(x.gates[r]);
    }
  }
  const Trace want = simulate(every), got = simulate(x.g);
  ASSERT_EQ(got.tasks.size(), want.tasks.size());
  for (std::size_t t = 0; t < got.tasks.size(); ++t) {
    EXPECT_EQ(got.tasks[t].start, want.tasks[t].start) << x.g.name(static_cast<TaskId>(t));
    EXPECT_EQ(got.tasks[t].end, want.tasks[t].end) << x.g.name(static_cast<TaskId>(t));
  }
  // Rank 3's gate ends last, at 4 us; the ring's 2(n-1) steps of L + S/(n B) follow it at the
  // slowest (each step waits for rank 3's previous one).
  EXPECT_NEAR(to_seconds(got.makespan), 4e-6 + 2 * (kN - 1) * (2 * test::kL + kS / (kN * kB)), 1e-12);
}

TEST(CollectiveLowering, ATrafficRecordPerConnectionOfAllItsBytes) {
  const Gated x = gated_ring();
  ASSERT_EQ(x.g.traffic.size(), static_cast<std::size_t>(kN));
  for (const Traffic& t : x.g.traffic) {
    EXPECT_EQ(t.dst, (t.src + 1) % kN);
    EXPECT_DOUBLE_EQ(t.bytes, 2.0 * (kN - 1) * kS / kN);  // 2(n-1) steps of S/n
    // Counted once the connection's last transfer has ended: its record names that one.
    for (std::size_t u = static_cast<std::size_t>(t.task) + 1; u < x.g.tasks.size(); ++u)
      EXPECT_NE(x.g.tasks[u].queue, x.g.tasks[t.task].queue);
  }
}

// What every task holds: its lists inline up to two dependencies and one use, its latency,
// bytes, queue and kind (docs/engine-scale.md counts the graph's bytes per task from it).
TEST(CollectiveLowering, ATaskIsOneCacheLine) { EXPECT_EQ(sizeof(Task), 64u); }

TEST(CollectiveLowering, EachRouteListIsHeldOnce) {
  const Gated x = gated_ring();  // switch: i -> j crosses up_i and down_j
  std::set<const Use*> lists;
  int transfers = 0;
  for (std::size_t t = x.first_transfer; t < x.g.tasks.size(); ++t) {
    const Task& task = x.g.tasks[t];
    if (task.uses.empty()) continue;
    ++transfers;
    EXPECT_TRUE(task.uses.borrowed());
    lists.insert(task.uses.data());
  }
  EXPECT_EQ(transfers, 2 * (kN - 1) * kN);
  EXPECT_EQ(lists.size(), static_cast<std::size_t>(kN));  // a route per connection
}

}  // namespace
}  // namespace placesim::engine
