// The six worked examples of the execution contract (docs/execution.md, "Worked examples").
// Links are 10 GB/s = 1e10 B/s unless said; a transfer of b bytes uses a = b of each link on its
// route and is shared by its byte rate, so alone it progresses at x = 1e10 / 1e9 = 10 per second
// (0.1 s for 1 GB). Times are in ps; an end instant is rounded up to the next picosecond.
#include <gtest/gtest.h>

#include "sim/engine/executor.hpp"
#include "tests/sim/engine/engine_test_util.hpp"

namespace placesim::engine {
namespace {

using test::add;
using test::kGBps;
using test::kS;
using test::kUs;

// Example 1: one 1 GB transfer waits 1 us, then runs alone at 10/s: ends at 1 us + 0.1 s.
// Two together share the link (5/s each): both end at 1 us + 0.2 s.
TEST(Conformance, Example1OneAndTwoTransfersOnALink) {
  {
    TaskGraph g;
    const ResourceId link = g.add_resource("link", 10 * kGBps);
    const TaskId a = add(g, "a", g.add_queue("q0"), {{link, 1e9}}, {}, kUs, TaskKind::Transfer);
    const Trace tr = simulate(g);
    EXPECT_EQ(tr.tasks[a].start, 0);
    EXPECT_EQ(tr.tasks[a].active, kUs);
    EXPECT_EQ(tr.tasks[a].end, kUs + kS / 10);
    EXPECT_EQ(tr.makespan, kUs + kS / 10);
    EXPECT_EQ(tr.consumed[link], 1e9);
  }
  {
    TaskGraph g;
    const ResourceId link = g.add_resource("link", 10 * kGBps);
    const TaskId a = add(g, "a", g.add_queue("q0"), {{link, 1e9}}, {}, kUs, TaskKind::Transfer);
    const TaskId b = add(g, "b", g.add_queue("q1"), {{link, 1e9}}, {}, kUs, TaskKind::Transfer);
    const Trace tr = simulate(g);
    EXPECT_EQ(tr.tasks[a].end, kUs + kS / 5);
    EXPECT_EQ(tr.tasks[b].end, kUs + kS / 5);
  }
}

// Example 2: A over L1 and L2, B over L1, C over L2, 1 GB each, all with 1 us latency.
// L1: A + B -> t = 1e10 / 2e9 = 5; L2 likewise 5: each runs at 5/s, all end at 1 us + 0.2 s.
TEST(Conformance, Example2ThreeTransfersOverTwoLinks) {
  TaskGraph g;
  const ResourceId l1 = g.add_resource("L1", 10 * kGBps), l2 = g.add_resource("L2", 10 * kGBps);
  const TaskId a = add(g, "A", g.add_queue("qa"), {{l1, 1e9}, {l2, 1e9}}, {}, kUs, TaskKind::Transfer);
  const TaskId b = add(g, "B", g.add_queue("qb"), {{l1, 1e9}}, {}, kUs, TaskKind::Transfer);
  const TaskId c = add(g, "C", g.add_queue("qc"), {{l2, 1e9}}, {}, kUs, TaskKind::Transfer);
  const Trace tr = simulate(g);
  for (TaskId t : {a, b, c}) EXPECT_EQ(tr.tasks[t].end, kUs + kS / 5) << g.name(t);
}

// Example 3 (zero latency): a Dha with compute d = 0.05 s (GPU amount 0.05, capacity 1) reading
// 1 GB over the bus. Alone: x = min(1 / 0.05, 1e10 / 1e9) = min(20, 10) = 10 -> ends at 0.1 s.
// With a 1 GB copy on the same bus: bus t = 1e10 / 2e9 = 5 < GPU t = 20 -> both 5/s, both end
// at 0.2 s; the GPU carries 0.05 * 5 = 0.25 meanwhile (a quarter busy), busy_s = 0.05.
TEST(Conformance, Example3DhaSharesTheBusWithACopy) {
  {
    TaskGraph g;
    const ResourceId gpu = g.add_resource("gpu", 1.0), bus = g.add_resource("bus", 10 * kGBps);
    const TaskId dha = add(g, "dha", g.add_queue("gpu.compute"), {{gpu, 0.05}, {bus, 1e9}}, {}, 0, TaskKind::Dha);
    const Trace tr = simulate(g);
    EXPECT_EQ(tr.tasks[dha].end, kS / 10);
  }
  TaskGraph g;
  const ResourceId gpu = g.add_resource("gpu", 1.0), bus = g.add_resource("bus", 10 * kGBps);
  const TaskId dha = add(g, "dha", g.add_queue("gpu.compute"), {{gpu, 0.05}, {bus, 1e9}}, {}, 0, TaskKind::Dha);
  const TaskId copy = add(g, "copy", g.add_queue("bus.copy"), {{bus, 1e9}}, {}, 0, TaskKind::Transfer);
  SimOptions opts;
  opts.record_usage = true;
  const Trace tr = simulate(g, opts);
  EXPECT_EQ(tr.tasks[dha].end, kS / 5);
  EXPECT_EQ(tr.tasks[copy].end, kS / 5);
  EXPECT_DOUBLE_EQ(tr.busy_s[gpu], 0.05);
  EXPECT_DOUBLE_EQ(tr.busy_s[bus], 0.2);  // 2e9 B / 1e10 B/s
  ASSERT_EQ(tr.usage[gpu].size(), 2u);
  EXPECT_EQ(tr.usage[gpu][0].t, 0);
  EXPECT_DOUBLE_EQ(tr.usage[gpu][0].value, 0.25);  // a quarter of the GPU
  EXPECT_EQ(tr.usage[gpu][1].t, kS / 5);
  EXPECT_EQ(tr.usage[gpu][1].value, 0.0);
  ASSERT_EQ(tr.usage[bus].size(), 2u);
  EXPECT_DOUBLE_EQ(tr.usage[bus][0].value, 1e10);  // saturated
}

// Example 4: two kernels of d = 1 s on two queues of one GPU (amount 1 each, capacity 1):
// t = 1 / 2 -> both end at 2 s. With an exclusive GPU (concurrent_kernels: false) the first
// (in start order) runs alone at 1/s and ends at 1 s, the second then at 2 s.
TEST(Conformance, Example4TwoKernelsOnTwoStreams) {
  for (bool exclusive : {false, true}) {
    TaskGraph g;
    const ResourceId gpu = g.add_resource("gpu", 1.0, exclusive);
    const TaskId k0 = add(g, "k0", g.add_queue("gpu.s0"), {{gpu, 1.0}});
    const TaskId k1 = add(g, "k1", g.add_queue("gpu.s1"), {{gpu, 1.0}});
    const Trace tr = simulate(g);
    EXPECT_EQ(tr.tasks[k0].end, exclusive ? kS : 2 * kS);
    EXPECT_EQ(tr.tasks[k1].end, 2 * kS);
    EXPECT_EQ(tr.tasks[k1].start, 0);
    EXPECT_EQ(tr.tasks[k1].active, exclusive ? kS : 0);  // waited for the GPU
    EXPECT_DOUBLE_EQ(tr.busy_s[gpu], 2.0);
  }
}

// Example 5: a zero-byte transfer (no uses) ends when its 1 us latency is over.
TEST(Conformance, Example5ZeroByteTransfer) {
  TaskGraph g;
  g.add_resource("link", 10 * kGBps);
  const TaskId t = add(g, "empty", g.add_queue("q"), {}, {}, kUs, TaskKind::Transfer);
  const Trace tr = simulate(g);
  EXPECT_EQ(tr.tasks[t].active, kUs);
  EXPECT_EQ(tr.tasks[t].end, kUs);
  EXPECT_EQ(tr.makespan, kUs);
}

// Example 6 (zero latency): L0 25 GB/s, L1 10 GB/s; A (1 GB) over L0, B (1 GB) over L0 then L1.
// Max-min over byte rates, filling one level t: L0 saturates at 2 t = 25e9 (t = 12.5e9), L1 at
// t = 10e9, so L1 binds first: B = 10 GB/s. L0 has 25e9 - 10e9 = 15e9 left for A alone: A =
// 15 GB/s. A ends at 1e9 / 15e9 = 1/15 s (0.0667 s); B keeps 10 GB/s (L1 still binds it) and
// ends at 0.1 s. (Normalising B by its slowest link would give 0.056 s and 0.116 s.)
TEST(Conformance, Example6SlowLinkLeavesTheRestOfTheFastOne) {
  TaskGraph g;
  const ResourceId l0 = g.add_resource("L0", 25 * kGBps), l1 = g.add_resource("L1", 10 * kGBps);
  const TaskId a = add(g, "A", g.add_queue("qa"), {{l0, 1e9}}, {}, 0, TaskKind::Transfer);
  const TaskId b = add(g, "B", g.add_queue("qb"), {{l0, 1e9}, {l1, 1e9}}, {}, 0, TaskKind::Transfer);
  SimOptions opts;
  opts.record_usage = true;
  const Trace tr = simulate(g, opts);
  EXPECT_EQ(tr.tasks[a].end, (kS + 14) / 15);  // 1/15 s, rounded up to the picosecond
  EXPECT_EQ(tr.tasks[b].end, kS / 10);
  ASSERT_FALSE(tr.usage[l0].empty());
  EXPECT_DOUBLE_EQ(tr.usage[l0][0].value, 25e9);  // saturated by 15 + 10 GB/s
  EXPECT_DOUBLE_EQ(tr.usage[l1][0].value, 10e9);
}

// Example 6, second part (zero latency, one 10 GB/s link): a 1 KB and a 1 GB transfer get
// 5 GB/s each, whatever their sizes. The 1 KB one ends at 1e3 / 5e9 = 2e-7 s (200 ns); the 1 GB
// one has then moved 1e3 B and runs alone at 10 GB/s: (1e9 - 1e3) / 1e10 = 0.1 s - 100 ns more,
// ending at 0.1 s + 100 ns.
TEST(Conformance, Example6SmallAndLargeTransferHalveTheLink) {
  TaskGraph g;
  const ResourceId link = g.add_resource("link", 10 * kGBps);
  const TaskId small = add(g, "1KB", g.add_queue("q0"), {{link, 1e3}}, {}, 0, TaskKind::Transfer);
  const TaskId large = add(g, "1GB", g.add_queue("q1"), {{link, 1e9}}, {}, 0, TaskKind::Transfer);
  const Trace tr = simulate(g);
  EXPECT_EQ(tr.tasks[small].end, 200 * kUs / 1000);
  EXPECT_NEAR(static_cast<double>(tr.tasks[large].end), static_cast<double>(kS / 10 + 100 * kUs / 1000), 1.0);
}

}  // namespace
}  // namespace placesim::engine
