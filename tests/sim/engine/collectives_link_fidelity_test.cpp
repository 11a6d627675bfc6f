// The link fidelity (docs/execution.md, "Collectives: flow, link and analytic fidelity"): one
// activity per resource a collective's flows use. It equals flow on an uncontended symmetric
// ring, shares links by max-min as flows do, and loses the steps' order (worked below). Links:
// B = 10 GB/s, L = 1 us.
#include <gtest/gtest.h>

#include "sim/engine/collectives/link_network.hpp"
#include "tests/sim/engine/collectives_test_util.hpp"
#include "tests/sim/engine/engine_test_util.hpp"

namespace placesim::engine {
namespace {

using test::add;
using test::kB;
using test::kL;
using test::kUs;
using test::makespan_s;
using test::spec_of;


CollectiveSpec at(CollectiveSpec s, Fidelity f) {
  s.fidelity = f;
  return s;
}

// Ring all-reduce of S on n ranks: each link carries 2(n-1) S/n bytes after 2(n-1) latencies in
// a chain, so link fidelity ends at 2(n-1)(L + S/(nB)), the flows' time, step for step.
TEST(CollectivesLinkFidelity, UncontendedRingEqualsFlow) {
  for (int n : {2, 3, 8, 33}) {
    const CollectiveSpec s = spec_of(CollectiveOp::AllReduce, "ring", n, 1e9);
    double t[2];
    for (Fidelity f : {Fidelity::Flow, Fidelity::Link}) {
      TaskGraph g;
      t[f == Fidelity::Link] = makespan_s(g, ring_network(g, n, kB, kUs), at(s, f));
    }
    const double closed = 2 * (n - 1) * (kL + 1e9 / (n * kB));
    EXPECT_NEAR(t[1], closed, 1e-6 * closed) << n;
    EXPECT_NEAR(t[1], t[0], 1e-6 * t[0]) << n;
  }
}

// Two all-reduces on one ring at once: on each link two activities of 2(n-1) S/n bytes share
// B, so both end at 2(n-1)(L + 2S/(nB)), as their flows do (collectives_contention_test.cpp).
TEST(CollectivesLinkFidelity, TwoAllReducesShareTheRingAsFlowsDo) {
  const int n = 6;
  TaskGraph g;
  const LinkNetwork net = ring_network(g, n, kB, kUs);
  for (const char* name : {"a", "b"}) {
    CollectiveSpec s = at(spec_of(CollectiveOp::AllReduce, "ring", n, 1e9), Fidelity::Link);
    s.name = name;
    lower_collective(g, s, net);
  }
  EXPECT_NEAR(to_seconds(simulate(g).makespan), 2 * (n - 1) * (kL + 2 * 1e9 / (n * kB)), 1e-12);
}

// What it loses: a 1 GB transfer over link 0 -> 1 beside a ring all-gather of 6 GB on 6 ranks.
// In flows the transfer delays one step and the delay travels round the ring: 0.6 s + 4L
// (collectives_contention_test.cpp). At link fidelity link 0 -> 1 carries 1 GB + 5 GB without a
// pause from 0 (the transfer alone for the all-gather's 5L of latency, then both), so it, and
// the collective, end at 0.6 s; the other links end at 5L + 0.5 s.
TEST(CollectivesLinkFidelity, TransferBesideAnAllGather) {
  const int n = 6;
  TaskGraph g;
  const LinkNetwork net = ring_network(g, n, kB, kUs);
  add(g, "copy", g.add_queue("copy"), net.uses(0, 1, 1e9), {}, 0, TaskKind::Transfer);
  lower_collective(g, at(spec_of(CollectiveOp::AllGather, "ring", n, 6e9), Fidelity::Link), net);
  EXPECT_NEAR(to_seconds(simulate(g).makespan), 0.6, 1e-12);
}

// Tasks grow with the links crossed: a ring all-reduce on 64 ranks is 64 link activities and a
// join, where its flows are 2 x 64 x 63 transfers (and 64 joins); both count the same traffic.
TEST(CollectivesLinkFidelity, TasksGrowWithLinksNotSteps) {
  const int n = 64;
  std::size_t tasks[2];
  double sent[2];
  for (Fidelity f : {Fidelity::Flow, Fidelity::Link}) {
    TaskGraph g;
    const LinkNetwork net = ring_network(g, n, kB, kUs);
    lower_collective(g, at(spec_of(CollectiveOp::AllReduce, "ring", n, 1e9), f), net);
    tasks[f == Fidelity::Link] = g.tasks.size();
    sent[f == Fidelity::Link] = 0;
    for (const Traffic& t : g.traffic) sent[f == Fidelity::Link] += t.bytes;
  }
  EXPECT_EQ(tasks[1], 65u);
  EXPECT_EQ(tasks[0], 2u * 64 * 63 + 64);
  EXPECT_DOUBLE_EQ(sent[1], sent[0]);
  EXPECT_DOUBLE_EQ(sent[1], 64 * 2 * 63 * (1e9 / 64));
}

// Each rank waits for every rank's predecessors, as the analytic fidelity does: rank 3's
// predecessor ends at 1 ms, so nothing moves before 1 ms + the chain of latencies.
TEST(CollectivesLinkFidelity, WaitsForEveryRanksPredecessors) {
  const int n = 4;
  TaskGraph g;
  const LinkNetwork net = ring_network(g, n, kB, kUs);
  const ResourceId cpu = g.add_resource("cpu", 1.0);
  const TaskId before = add(g, "before", g.add_queue("cpu"), {{cpu, 1e-3}}, {}, 0, TaskKind::Compute);
  CollectiveSpec s = at(spec_of(CollectiveOp::AllReduce, "ring", n, 1e9), Fidelity::Link);
  s.after.assign(n, {});
  s.after[3] = {before};
  lower_collective(g, s, net);
  EXPECT_NEAR(to_seconds(simulate(g).makespan), 1e-3 + 2 * (n - 1) * (kL + 1e9 / (n * kB)), 1e-12);
}

}  // namespace
}  // namespace placesim::engine
