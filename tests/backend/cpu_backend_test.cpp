// The CPU backend's machinery, not its noise: every task is measured, measured order respects
// every dependency and queue, two concurrent copies slow each other as the model says (both on
// one core's link: each at half rate), the watchdog names a task that never finished, and an
// oversized plan is refused before it runs.
#include <algorithm>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "backend/cpu/cpu_backend.hpp"
#include "sim/core/error.hpp"

namespace placesim::backend {
namespace {

struct Built {
  engine::TaskGraph g;
  Workload w;
};

// `queues` queues on alternating cores; task i spins `spin_s` and depends on i-3 and i-5.
Built chain(int tasks, int queues, double spin_s) {
  Built b;
  b.w.units = {{Unit::Kind::CpuCore, 0, "core0"}, {Unit::Kind::CpuCore, 1, "core1"}};
  for (int q = 0; q < queues; ++q) {
    b.g.add_queue(fmt::format("q{}", q));
    b.w.queue_unit.push_back(q % 2);
  }
  for (int i = 0; i < tasks; ++i) {
    engine::Task t;
    t.queue = i % queues;
    for (int back : {3, 5})
      if (i >= back) t.deps.push_back(i - back);
    b.g.add_task(fmt::format("t{}", i), t);
    Work w;
    w.kind = WorkKind::Spin;
    w.seconds = spin_s;
    b.w.tasks.push_back(w);
  }
  return b;
}

TEST(CpuBackend, EveryTaskMeasuredInDependencyAndQueueOrder) {
  const Built b = chain(40, 3, 20e-6);
  const engine::Trace t = run_cpu(b.g, b.w).trace;
  ASSERT_EQ(t.tasks.size(), b.g.tasks.size());
  for (size_t i = 0; i < t.tasks.size(); ++i) {
    EXPECT_GE(t.tasks[i].start, 0) << b.g.name(i);
    EXPECT_GE(t.tasks[i].end, t.tasks[i].start) << b.g.name(i);
    EXPECT_LE(t.tasks[i].end, t.makespan);
    for (engine::TaskId d : b.g.tasks[i].deps) EXPECT_GE(t.tasks[i].start, t.tasks[d].end) << b.g.name(i);
  }
  const std::vector<engine::TaskId> pred = b.g.queue_predecessors();
  for (size_t i = 0; i < pred.size(); ++i) {
    if (pred[i] >= 0) {
      EXPECT_GE(t.tasks[i].start, t.tasks[pred[i]].end);
    }
  }
}

// Two 32 MiB copies into core0 on two queues (both driven from core0, as the workload builder
// places a copy on its destination's core); the model has both cross core0's link, so each
// runs at half rate.
TEST(CpuBackend, TwoConcurrentCopiesSlowEachOther) {
  auto copies = [](int n) {
    Built b;
    b.w.units = {{Unit::Kind::Host, 0, "host"}, {Unit::Kind::CpuCore, 0, "core0"}};
    for (int i = 0; i < n; ++i) {
      b.g.add_queue(fmt::format("copy{}", i));
      b.w.queue_unit.push_back(1);
      engine::Task t;
      t.kind = engine::TaskKind::Transfer;
      t.queue = i;
      b.g.add_task(fmt::format("w{}@core0", i), t);
      Work w;
      w.kind = WorkKind::Copy;
      w.bytes = 32.0 * 1048576;
      w.src = 0;
      w.dst = 1;
      b.w.tasks.push_back(w);
    }
    return b;
  };
  BackendOptions o;
  o.repeats = 1;
  const Built one = copies(1), two = copies(2);
  // Both copies are driven from core0 (their destination), as the model has them share core0's
  // link, so together they take about twice one alone. The makespan (not each task's span) makes
  // that independent of how the OS interleaves the two threads. Noise on a shared machine only
  // ever adds time, so the fastest of several interleaved trials of each is compared; 1.15
  // still holds if the pinning is lost and the copies only share memory bandwidth.
  double alone = 1e300, both = 1e300;
  for (int trial = 0; trial < 7; ++trial) {
    alone = std::min(alone, to_seconds(run_cpu(one.g, one.w, o).trace.makespan));
    both = std::min(both, to_seconds(run_cpu(two.g, two.w, o).trace.makespan));
  }
  EXPECT_GT(both, 1.15 * alone) << "alone " << alone << " s, both " << both << " s";
}

TEST(CpuBackend, WatchdogNamesTheTaskThatNeverFinished) {
  Built b;
  b.w.units = {{Unit::Kind::CpuCore, 0, "core0"}};
  b.g.add_queue("q");
  b.w.queue_unit.push_back(0);
  engine::Task first, second;
  first.queue = 0;
  first.deps = {1};  // waits for the task after it in its own queue: never starts
  second.queue = 0;
  b.g.add_task("first", first);
  b.g.add_task("second", second);
  b.w.tasks.resize(2);
  BackendOptions o;
  o.watchdog_s = 0.2;
  try {
    run_cpu(b.g, b.w, o);
    FAIL() << "expected the watchdog";
  } catch (const WatchdogError& e) {
    EXPECT_NE(std::string(e.what()).find("'first'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'second'"), std::string::npos) << e.what();
  }
}

TEST(CpuBackend, RefusesAPlanLargerThanTheMachineBeforeRunning) {
  Built b = chain(1, 1, 0);
  b.w.tasks[0].kind = WorkKind::Copy;
  b.w.tasks[0].bytes = 1e15;
  b.w.tasks[0].src = 0;
  b.w.tasks[0].dst = 1;
  EXPECT_THROW(run_cpu(b.g, b.w), InputError);
}

TEST(CpuBackend, RefusesGpuWork) {
  Built b = chain(1, 1, 0);
  b.w.units[0] = {Unit::Kind::Gpu, 0, "gpu0"};
  EXPECT_THROW(run_cpu(b.g, b.w), InputError);
}

}  // namespace
}  // namespace placesim::backend
