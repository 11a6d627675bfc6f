// Collectives contend with whatever else shares their links (flow fidelity) and the analytic
// fidelity does not see it; they wait for their predecessors per rank; and each rank's done
// task ends when that rank is through. Links: B = 10 GB/s, L = 1 us.
#include <gtest/gtest.h>

#include "sim/engine/collectives/link_network.hpp"
#include "tests/sim/engine/collectives_test_util.hpp"
#include "tests/sim/engine/engine_test_util.hpp"

namespace placesim::engine {
namespace {

using test::add;
using test::kB;
using test::kL;
using test::kS;
using test::kUs;
using test::spec_of;

constexpr double kBytes = 1e9;

// Two ring all-reduces of S over the same n = 6 ranks at once. At every step each ring link
// carries one flow of each, S/n bytes apiece: they share it at B/2 and end together, so a step
// takes L + 2S/(nB) and flow gives 2(n-1)(L + 2S/(nB)); analytic keeps 2(n-1)(L + S/(nB)).
// Flow is later by 2(n-1) S/(nB) = 10 x 16.67 ms = 166.7 ms, nearly twice the analytic time.
TEST(CollectivesContention, TwoAllReducesOnOneRing) {
  const int n = 6;
  double end[2];
  for (Fidelity f : {Fidelity::Flow, Fidelity::Analytic}) {
    TaskGraph g;
    const LinkNetwork net = ring_network(g, n, kB, kUs);
    for (const char* name : {"a", "b"}) {
      CollectiveSpec s = spec_of(CollectiveOp::AllReduce, "ring", n, kBytes);
      s.name = name;
      s.fidelity = f;
      lower_collective(g, s, net);
    }
    end[f == Fidelity::Analytic] = to_seconds(simulate(g).makespan);
  }
  const double alone = 2 * (n - 1) * (kL + kBytes / (n * kB));
  EXPECT_NEAR(end[1], alone, 1e-12);
  EXPECT_NEAR(end[0], 2 * (n - 1) * (kL + 2 * kBytes / (n * kB)), 2 * n * 1e-12);
  EXPECT_NEAR(end[0] - end[1], 2 * (n - 1) * kBytes / (n * kB), 2 * n * 1e-12);
}

// A 1 GB transfer over link 0 -> 1 (no latency) alongside a ring all-gather of S = 6 GB on 6
// ranks (steps of 1 GB: T = L + 0.1 s alone). The transfer has the link alone for the first
// microsecond (rank 0's send waits its latency), they share it at 5 GB/s until the transfer
// ends at 0.2 s - L, and the send has it alone for its last 1e4 bytes: it ends at 0.2 s, while
// the other step-0 sends end at T. Step s of rank j ends at T after the later of its own step
// s-1 and rank j-1's, so the delay spreads around the ring: the last step ends at
// 0.2 + 4T = 0.6 s + 4 L, against 5T = 0.5 s + 5 L uncontended (and in analytic fidelity).
TEST(CollectivesContention, TransferDelaysOneRingStep) {
  const int n = 6;
  TaskGraph g;
  const LinkNetwork net = ring_network(g, n, kB, kUs);
  add(g, "copy", g.add_queue("copy"), net.uses(0, 1, 1e9), {}, 0, TaskKind::Transfer);
  lower_collective(g, spec_of(CollectiveOp::AllGather, "ring", n, 6e9), net);
  EXPECT_NEAR(to_seconds(simulate(g).makespan), 0.6 + 4 * kL, 10 * 1e-12);
}

// Predecessors per rank: rank 0 of a broadcast chain (n = 4, k = 1, slot T = L + S/B) may only
// start after a 1 s compute; everything shifts by 1 s. Rank i's done task ends when its own
// forward ends, (i+1) T after the start, and the last rank's when its receive does, (n-1) T.
TEST(CollectivesContention, AfterDepsAndDoneTasks) {
  const int n = 4;
  TaskGraph g;
  const LinkNetwork net = ring_network(g, n, kB, kUs);
  const ResourceId gpu = g.add_resource("gpu", 1.0);
  const TaskId pre = add(g, "pre", g.add_queue("gpu"), {{gpu, 1.0}});
  CollectiveSpec s = spec_of(CollectiveOp::Broadcast, "ring", n, kBytes);
  s.after = {{pre}, {}, {}, {}};
  const std::vector<TaskId> done = lower_collective(g, s, net);
  const Trace tr = simulate(g);
  const TimePs slot = kUs + kS / 10;
  for (int i = 0; i < n; ++i) EXPECT_EQ(tr.tasks[done[i]].end, kS + std::min(i + 1, n - 1) * slot) << i;
}

}  // namespace
}  // namespace placesim::engine
