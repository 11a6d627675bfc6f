// Amounts so small that an activity's progress rate leaves the range of a double: a transfer of
// 1e-300 bytes on a 25 GB/s link progresses at 2.5e310 per second. Each used to abort the
// executor ("no finite positive rate", or a zero bound in the solver); each is now simulated,
// and a task's time follows from the contract by hand: no activity ends in under a picosecond
// (rate_groups.cpp, reschedule), and a latency is waited in full.
#include <gtest/gtest.h>

#include "sim/engine/collectives/link_network.hpp"
#include "sim/engine/executor.hpp"
#include "tests/sim/engine/engine_test_util.hpp"
#include "tests/error_of.hpp"

namespace placesim::engine::test {
namespace {

TaskId transfer(TaskGraph& g, ResourceId link, double bytes, double rate_cap = kUnbounded) {
  Task t;
  t.kind = TaskKind::Transfer;
  t.queue = g.add_queue("q");
  t.bytes = bytes;
  t.uses = {{link, bytes}};
  return g.add_task("x", std::move(t), {.rate_cap = rate_cap});
}

// 1e-300 bytes at 25 GB/s take 4e-311 s: the one-picosecond minimum.
TEST(TinyAmounts, ATransferOfAFewUlpsOfAByteTakesOnePicosecond) {
  for (double bytes : {1e-300, 1e-320}) {
    TaskGraph g;
    transfer(g, g.add_resource("link", 25 * kGBps), bytes);
    EXPECT_EQ(simulate(g).makespan, 1) << bytes;
  }
}

TEST(TinyAmounts, AKernelOfAFewUlpsOfASecondTakesOnePicosecond) {
  TaskGraph g;
  add(g, "k", g.add_queue("q"), {{g.add_resource("gpu", 1.0), 1e-310}});
  EXPECT_EQ(simulate(g).makespan, 1);
}

// 1e-320 bytes beside a second of device work: the device work is the activity's time, 1 s
// (in bytes as its unit, the device coefficient 1 / 1e-320 would overflow).
TEST(TinyAmounts, ADhaOfAFewUlpsOfAByteTakesItsDeviceTime) {
  TaskGraph g;
  const ResourceId link = g.add_resource("link", 25 * kGBps), gpu = g.add_resource("gpu", 1.0);
  Task t;
  t.kind = TaskKind::Dha;
  t.queue = g.add_queue("q");
  t.bytes = 1e-320;
  t.uses = {{link, 1e-320}, {gpu, 1.0}};
  g.add_task("dha", std::move(t));
  EXPECT_EQ(simulate(g).makespan, kS);
}

// A cap of 1e-30 progress per second would take 1e30 s: past the clock's range, a located error
// naming the task rather than a zero bound in the solver.
TEST(TinyAmounts, ACapThatUnderflowsInBytesIsReportedAsTooSlow) {
  TaskGraph g;
  transfer(g, g.add_resource("link", 25 * kGBps), 1e-300, 1e-30);
  EXPECT_NE(placesim::test::error_of([&] { simulate(g); }).find("task 'x' would end beyond the largest representable time"),
            std::string::npos);
}

// A ring all-reduce of 1e-300 bytes on 4 ranks: 2(n - 1) = 6 steps one after the other, each a
// 1 us link latency and then the one-picosecond minimum.
TEST(TinyAmounts, ARingAllReduceOfAFewUlpsOfAByteTakesItsLatencies) {
  TaskGraph g;
  CollectiveSpec spec;
  spec.bytes = 1e-300;
  spec.group = {0, 1, 2, 3};
  const LinkNetwork net = ring_network(g, 4, 25 * kGBps, kUs);
  lower_collective(g, spec, net);
  EXPECT_EQ(simulate(g).makespan, 6 * (kUs + 1));
}

}  // namespace
}  // namespace placesim::engine::test
