// Executor properties beyond the worked examples: queues, same-instant ties, exclusivity,
// rate caps, metamorphic invariances, determinism, deadlock detection, memory accounting.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "sim/core/error.hpp"
#include "sim/engine/executor.hpp"
#include "tests/sim/engine/engine_test_util.hpp"

namespace placesim::engine {
namespace {

using test::add;
using test::kGBps;
using test::kS;
using test::kUs;

bool same_tasks(const Trace& a, const Trace& b) {
  if (a.tasks.size() != b.tasks.size()) return false;
  for (std::size_t i = 0; i < a.tasks.size(); ++i) {
    if (a.tasks[i].start != b.tasks[i].start || a.tasks[i].active != b.tasks[i].active ||
        a.tasks[i].end != b.tasks[i].end) {
      return false;
    }
  }
  return a.makespan == b.makespan;
}

// A chain of kernels on one queue (no deps) runs back to back: 0.5 + 0.25 + 1.25 = 2 s.
TEST(Executor, ChainOnOneQueueTakesTheSum) {
  TaskGraph g;
  const ResourceId gpu = g.add_resource("gpu", 1.0);
  const QueueId q = g.add_queue("gpu.compute");
  const TaskId a = add(g, "a", q, {{gpu, 0.5}});
  const TaskId b = add(g, "b", q, {{gpu, 0.25}});
  const TaskId c = add(g, "c", q, {{gpu, 1.25}});
  const Trace tr = simulate(g);
  EXPECT_EQ(tr.tasks[a].end, kS / 2);
  EXPECT_EQ(tr.tasks[b].start, kS / 2);
  EXPECT_EQ(tr.tasks[b].end, 3 * kS / 4);
  EXPECT_EQ(tr.tasks[c].end, 2 * kS);
  EXPECT_EQ(tr.makespan, 2 * kS);
}

// Progress is told at the start, after every third task of ten finishes and at the end: (0, 10),
// (3, 10), (6, 10), (9, 10), (10, 10).
TEST(Executor, ProgressIsToldEveryFewTasksAndAtTheEnd) {
  TaskGraph g;
  const ResourceId gpu = g.add_resource("gpu", 1.0);
  const QueueId q = g.add_queue("gpu.compute");
  for (int i = 0; i < 10; ++i) add(g, "k" + std::to_string(i), q, {{gpu, 0.1 * (i + 1)}});
  std::vector<std::pair<std::size_t, std::size_t>> told;
  SimOptions so;
  so.progress_every = 3;
  so.progress = [&](std::size_t done, std::size_t total) { told.emplace_back(done, total); };
  simulate(g, so);
  const std::vector<std::pair<std::size_t, std::size_t>> expected{{0, 10}, {3, 10}, {6, 10}, {9, 10}, {10, 10}};
  EXPECT_EQ(told, expected);
}

// Dependencies across queues: b waits for a (1 s) and then its 1 us latency.
TEST(Executor, DependencyThenLatency) {
  TaskGraph g;
  const ResourceId gpu = g.add_resource("gpu", 1.0), link = g.add_resource("link", 10 * kGBps);
  const TaskId a = add(g, "a", g.add_queue("gpu"), {{gpu, 1.0}});
  const TaskId b = add(g, "b", g.add_queue("link"), {{link, 1e9}}, {a}, kUs, TaskKind::Transfer);
  const Trace tr = simulate(g);
  EXPECT_EQ(tr.tasks[b].start, kS);
  EXPECT_EQ(tr.tasks[b].active, kS + kUs);
  EXPECT_EQ(tr.tasks[b].end, kS + kUs + kS / 10);
}

// Same-instant events are processed in insertion order, not id order. At t = 0, b's latency
// event (ends at 1 s) is scheduled while tasks start, before p's completion (also 1 s) is
// scheduled after the instant's solve. At 1 s b therefore reaches the exclusive GPU first and
// runs [1 s, 2 s]; a (released by p at 1 s) queues behind it and runs [2 s, 3 s].
TEST(Executor, SameInstantTiesFollowInsertionOrder) {
  TaskGraph g;
  const ResourceId cpu = g.add_resource("cpu", 1.0);
  const ResourceId gpu = g.add_resource("gpu", 1.0, /*exclusive=*/true);
  const TaskId p = add(g, "p", g.add_queue("cpu"), {{cpu, 1.0}});
  const TaskId a = add(g, "a", g.add_queue("gpu.s0"), {{gpu, 1.0}}, {p});
  const TaskId b = add(g, "b", g.add_queue("gpu.s1"), {{gpu, 1.0}}, {}, kS);
  const Trace tr = simulate(g);
  EXPECT_EQ(tr.tasks[p].end, kS);
  EXPECT_EQ(tr.tasks[b].active, kS);
  EXPECT_EQ(tr.tasks[b].end, 2 * kS);
  EXPECT_EQ(tr.tasks[a].start, kS);
  EXPECT_EQ(tr.tasks[a].active, 2 * kS);
  EXPECT_EQ(tr.tasks[a].end, 3 * kS);
}

// Zero-duration tasks cascade within one instant: a chain of no-use tasks all end at 1 us.
TEST(Executor, ZeroDurationCascadeInOneInstant) {
  TaskGraph g;
  const QueueId q = g.add_queue("host");
  TaskId prev = add(g, "t0", q, {}, {}, kUs);
  for (int i = 1; i < 5; ++i) prev = add(g, test::numbered("t", i), q, {}, {prev});
  const Trace tr = simulate(g);
  for (const TaskRecord& r : tr.tasks) EXPECT_EQ(r.end, kUs);
}

// A rate cap of 0.5/s on a 1 s kernel alone on its GPU: ends at 2 s; the GPU is half used.
TEST(Executor, RateCapBoundsProgress) {
  TaskGraph g;
  const ResourceId gpu = g.add_resource("gpu", 1.0);
  Task t;
  t.queue = g.add_queue("q");
  t.uses = {{gpu, 1.0}};
  const TaskId id = g.add_task("capped", t, {.rate_cap = 0.5});
  SimOptions opts;
  opts.record_usage = true;
  const Trace tr = simulate(g, opts);
  EXPECT_EQ(tr.tasks[id].end, 2 * kS);
  ASSERT_FALSE(tr.usage[gpu].empty());
  EXPECT_DOUBLE_EQ(tr.usage[gpu][0].value, 0.5);
}

// A flow joining mid-way re-rates the running one. Flows on one link share it in equal bytes/s
// whatever their sizes (each shared in its natural unit, rate_groups.hpp). Link 1e10 B/s;
// long = 2 GB, short = 0.5 GB, short active at 0.1 s (latency).
//   [0, 0.1]:   long alone at 10 GB/s -> 1 GB moved, 1 GB left.
//   [0.1, 0.2]: both at 5 GB/s; short's 0.5 GB takes 0.1 s -> short ends at 0.2 s;
//               long moves 0.5 GB -> 0.5 GB left.
//   [0.2, ...]: long alone at 10 GB/s; 0.5 GB takes 0.05 s -> long ends at 0.25 s.
TEST(Executor, RatesChangeWhenFlowsComeAndGo) {
  TaskGraph g;
  const ResourceId link = g.add_resource("link", 10 * kGBps);
  const TaskId lng = add(g, "long", g.add_queue("q0"), {{link, 2e9}}, {}, 0, TaskKind::Transfer);
  const TaskId sht = add(g, "short", g.add_queue("q1"), {{link, 0.5e9}}, {}, kS / 10, TaskKind::Transfer);
  const Trace tr = simulate(g);
  EXPECT_EQ(tr.tasks[sht].end, kS / 5);
  EXPECT_EQ(tr.tasks[lng].end, kS / 4);
}

// A kernel on two cores (the same d = 1 s on each) is shared by its fraction of each; a 0.5 s
// kernel on core 0 meets it there. Fractions filled to one level t: core 0 saturates at 2 t = 1
// (t = 0.5), core 1 at t = 1, so both get half of core 0. The short one: 0.5 s of work at half a
// core ends at 1 s. The wide one has then done 0.5 s of its 1 s and runs alone on whole cores:
// ends at 1.5 s. (Equal progress rates instead would give x (1 + 0.5) = 1, the short one ending
// at 1.5 s.)
TEST(Executor, AKernelOnSeveralCoresIsSharedByItsFractionOfEach) {
  TaskGraph g;
  const ResourceId c0 = g.add_resource("cpu.core0", 1.0), c1 = g.add_resource("cpu.core1", 1.0);
  const TaskId wide = add(g, "wide", g.add_queue("q0"), {{c0, 1.0}, {c1, 1.0}});
  const TaskId narrow = add(g, "narrow", g.add_queue("q1"), {{c0, 0.5}});
  const Trace tr = simulate(g);
  EXPECT_EQ(tr.tasks[narrow].end, kS);
  EXPECT_EQ(tr.tasks[wide].end, 3 * kS / 2);
}

// A kernel and a DHA kernel on one GPU while a copy shares the DHA's bus (zero latency).
// GPU capacity 1; bus 10 GB/s. Dha: d = 0.05 s of GPU, 1 GB over the bus; kernel d = 1 s; copy 1 GB.
// Natural units: the Dha and the copy in bytes/s (N = 1e9; the Dha takes 0.05 / 1e9 = 5e-11 of
// the GPU per B/s), the kernel in GPU fractions (N = 1). Filling one level t for all three:
//   GPU: t (1 + 5e-11) = 1 -> t = 1 / (1 + 5e-11) ~ 1 - 5e-11;   bus: 2 t = 1e10 -> t = 5e9.
// The GPU saturates first: the kernel runs at ~1 - 5e-11 of the GPU, the Dha at ~1 B/s; the
// copy takes the rest of the bus, 1e10 - t B/s.
//   copy ends at 1e9 / (1e10 - t) = 0.1 / (1 - 1e-10 t) ~ 0.1 s + 10 ps;
//   then nothing changes for the other two (the GPU still binds): the kernel ends at
//   1 / t = 1 + 5e-11 s = 1 s + 50 ps, the Dha having moved t * (1 + 5e-11) = 1 B of its 1 GB;
//   the Dha, alone, then runs at min(1 / 0.05, 1e10 / 1e9) = 10/s: (1e9 - 1) / 1e10 s more
//   = 0.1 s - 100 ps: it ends at 1.1 s - 50 ps.
// (Units meet in the Dha: a kernel beside it on its device holds it to about 1 B/s.)
TEST(Executor, DhaBesideAKernelIsHeldToItsByteLevel) {
  TaskGraph g;
  const ResourceId gpu = g.add_resource("gpu", 1.0);
  const ResourceId bus = g.add_resource("bus", 10 * kGBps);
  Task dha_task;
  dha_task.kind = TaskKind::Dha;
  dha_task.queue = g.add_queue("q0");
  dha_task.uses = {{gpu, 0.05}, {bus, 1e9}};
  dha_task.bytes = 1e9;
  const TaskId dha = g.add_task("dha", dha_task);
  const TaskId kernel = add(g, "kernel", g.add_queue("q1"), {{gpu, 1.0}});
  const TaskId copy = add(g, "copy", g.add_queue("q2"), {{bus, 1e9}}, {}, 0, TaskKind::Transfer);
  const Trace tr = simulate(g);
  EXPECT_NEAR(static_cast<double>(tr.tasks[copy].end), 0.1 * kS + 10, 2.0);
  EXPECT_NEAR(static_cast<double>(tr.tasks[kernel].end), 1.0 * kS + 50, 2.0);
  EXPECT_NEAR(static_cast<double>(tr.tasks[dha].end), 1.1 * kS - 50, 2.0);
}

// An activity whose rate would take it past the largest representable time (about 106 days)
// is an input error naming it: 1e9 B at 1 B/s needs 1e9 s.
TEST(Executor, AnActivityBeyondRepresentableTimeIsAnInputError) {
  TaskGraph g;
  const ResourceId link = g.add_resource("slow", 1.0);
  add(g, "endless", g.add_queue("q"), {{link, 1e9}}, {}, 0, TaskKind::Transfer);
  try {
    simulate(g);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'endless' would end beyond the largest representable time"), std::string::npos)
        << e.what();
  }
}

// A random layered task graph over a few GPUs and links, for the metamorphic tests.
TaskGraph random_graph(unsigned seed, double scale, bool extra_resource) {
  std::mt19937 rng(seed);
  TaskGraph g;
  std::vector<ResourceId> res;
  for (int i = 0; i < 3; ++i) res.push_back(g.add_resource(test::numbered("gpu", i), 1.0 * scale, i == 2));
  for (int i = 0; i < 4; ++i) res.push_back(g.add_resource(test::numbered("link", i), 1e10 * scale));
  if (extra_resource) g.add_resource("unused", 3.0);
  std::vector<QueueId> queues;
  for (int i = 0; i < 6; ++i) queues.push_back(g.add_queue(test::numbered("q", i)));
  std::uniform_real_distribution<double> dur(0.01, 1.0), bytes(1e6, 2e9);
  std::uniform_int_distribution<int> pick_gpu(0, 2), pick_link(3, 6), pick_q(0, 5), coin(0, 3);
  for (int t = 0; t < 300; ++t) {
    std::vector<Use> uses;
    TaskKind kind = TaskKind::Compute;
    switch (coin(rng)) {
      case 0: uses = {{res[pick_gpu(rng)], dur(rng) * scale}}; break;
      case 1: kind = TaskKind::Transfer; uses = {{res[pick_link(rng)], bytes(rng) * scale}, {res[pick_link(rng)], bytes(rng) * scale}}; break;
      case 2: kind = TaskKind::Dha; uses = {{res[pick_gpu(rng)], dur(rng) * scale}, {res[pick_link(rng)], bytes(rng) * scale}}; break;
      default: break;  // no uses: ends after its latency
    }
    std::vector<TaskId> deps;
    for (int k = 0; k < 2 && t > 0; ++k) {
      if (coin(rng) < 2) deps.push_back(std::uniform_int_distribution<TaskId>(0, t - 1)(rng));
    }
    const TimePs latency = coin(rng) == 0 ? static_cast<TimePs>(rng() % 5) * kUs : 0;
    add(g, test::numbered("t", t), queues[pick_q(rng)], uses, deps, latency, kind);
  }
  return g;
}

// Doubling every capacity and every amount leaves every rate, hence every time, unchanged
// (scaling by 2 is exact in binary floating point).
TEST(Executor, DoublingCapacitiesAndAmountsChangesNoTime) {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const Trace base = simulate(random_graph(seed, 1.0, false));
    const Trace doubled = simulate(random_graph(seed, 2.0, false));
    EXPECT_TRUE(same_tasks(base, doubled)) << "seed " << seed;
    EXPECT_GT(base.makespan, 0);
  }
}

TEST(Executor, AnUnusedResourceChangesNothing) {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    EXPECT_TRUE(same_tasks(simulate(random_graph(seed, 1.0, false)), simulate(random_graph(seed, 1.0, true))))
        << "seed " << seed;
  }
}

TEST(Executor, SameInputGivesBitIdenticalTrace) {
  const TaskGraph g = random_graph(42, 1.0, false);
  SimOptions opts;
  opts.record_usage = true;
  const Trace a = simulate(g, opts), b = simulate(g, opts);
  EXPECT_TRUE(same_tasks(a, b));
  EXPECT_EQ(a.consumed, b.consumed);
  ASSERT_EQ(a.usage.size(), b.usage.size());
  for (std::size_t r = 0; r < a.usage.size(); ++r) {
    ASSERT_EQ(a.usage[r].size(), b.usage[r].size());
    for (std::size_t k = 0; k < a.usage[r].size(); ++k) {
      EXPECT_EQ(a.usage[r][k].t, b.usage[r][k].t);
      EXPECT_EQ(a.usage[r][k].value, b.usage[r][k].value);
    }
  }
}

// Every task's work is done: on a non-exclusive single resource no activity can end before
// the total work it shares with others would allow; here simply check causality.
TEST(Executor, RandomGraphRespectsDepsAndQueues) {
  const TaskGraph g = random_graph(7, 1.0, false);
  const Trace tr = simulate(g);
  for (std::size_t i = 0; i < g.tasks.size(); ++i) {
    const TaskRecord& r = tr.tasks[i];
    EXPECT_LE(r.start + g.tasks[i].latency, r.active);
    EXPECT_LE(r.active, r.end);
    for (TaskId d : g.tasks[i].deps) EXPECT_LE(tr.tasks[d].end, r.start);
  }
  const std::vector<TaskId> pred = g.queue_predecessors();
  for (std::size_t t = 0; t < g.tasks.size(); ++t) {
    if (pred[t] >= 0) {
      EXPECT_LE(tr.tasks[pred[t]].end, tr.tasks[t].start);
    }
  }
}

// Queue order b, a with b depending on a: neither can start.
TEST(Executor, DeadlockIsAnInputErrorNamingTheBlockedTask) {
  TaskGraph g;
  const QueueId q = g.add_queue("gpu0.compute");
  Task b;
  b.queue = q;
  b.deps = {1};
  g.add_task("kernel_b", b);
  Task a;
  a.queue = q;
  g.add_task("kernel_a", a);
  try {
    simulate(g);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("kernel_b"), std::string::npos) << msg;
    EXPECT_NE(msg.find("dependency 'kernel_a'"), std::string::npos) << msg;
  }
}

TEST(Executor, InvalidGraphIsAnInputError) {
  TaskGraph g;
  const ResourceId gpu = g.add_resource("gpu", 1.0);
  add(g, "neg", g.add_queue("q"), {{gpu, -1.0}});
  EXPECT_THROW(simulate(g), InputError);
  TaskGraph h;
  add(h, "dangling", h.add_queue("q"), {{5, 1.0}});
  EXPECT_THROW(simulate(h), InputError);
  TaskGraph z;
  z.add_resource("zero", 0.0);
  EXPECT_THROW(simulate(z), InputError);
  TaskGraph w;
  Task t;
  EXPECT_THROW(w.add_task("noqueue", t), InputError);
}

// Memory worked by hand. Pool "gpu0.mem"; t1, t2, t3 run 1 s each on one queue.
//   W    1000 B  from 0, never freed
//   act1  500 B  from t1's start (0) to t2's end (2 s)
//   act2  300 B  from t2's start (1 s) to t3's end (3 s)
//   act3  400 B  from t3's start (2 s) to t3's end (3 s)
//   out   200 B  from t3's end (3 s), never freed
//   late   50 B  freed by t1 (1 s) but allocated at t3's end: holds nothing
// [0,1): 1000 + 500 = 1500; [1,2): + 300 = 1800; at 2: -500 + 400 -> 1700 (act1 and act3 never
// overlap: [0,2) and [2,3)); at 3: -300 -400 +200 -> 1200. Peak 1800.
TEST(Executor, MemoryAccountingByHand) {
  TaskGraph g;
  const ResourceId gpu = g.add_resource("gpu", 1.0);
  const QueueId q = g.add_queue("gpu0.compute");
  const TaskId t1 = add(g, "t1", q, {{gpu, 1.0}});
  const TaskId t2 = add(g, "t2", q, {{gpu, 1.0}});
  const TaskId t3 = add(g, "t3", q, {{gpu, 1.0}});
  const PoolId mem = g.add_pool("gpu0.mem", 16e9);
  g.add_pool("gpu1.mem", 16e9);  // untouched: one sample of 0
  g.add_buffer(Buffer{"W", mem, 1000, -1, false, {}});
  g.add_buffer(Buffer{"act1", mem, 500, t1, false, {t2}});
  g.add_buffer(Buffer{"act2", mem, 300, t2, false, {t3}});
  g.add_buffer(Buffer{"act3", mem, 400, t3, false, {t3}});
  g.add_buffer(Buffer{"out", mem, 200, t3, true, {}});
  g.add_buffer(Buffer{"late", mem, 50, t3, true, {t1}});
  const Trace tr = simulate(g);
  ASSERT_EQ(tr.peak_memory.size(), 2u);
  EXPECT_EQ(tr.peak_memory[mem], 1800);
  EXPECT_EQ(tr.peak_memory[1], 0);
  const std::vector<Sample>& s = tr.memory[mem];
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0].t, 0);
  EXPECT_EQ(s[0].value, 1500);
  EXPECT_EQ(s[1].t, kS);
  EXPECT_EQ(s[1].value, 1800);
  EXPECT_EQ(s[2].t, 2 * kS);
  EXPECT_EQ(s[2].value, 1700);
  EXPECT_EQ(s[3].t, 3 * kS);
  EXPECT_EQ(s[3].value, 1200);
  ASSERT_EQ(tr.memory[1].size(), 1u);
  EXPECT_EQ(tr.memory[1][0].value, 0);
}

// Many independent kernels on many GPUs plus shared links: a smoke test of scale.
TEST(Executor, TwentyThousandTasks) {
  TaskGraph g;
  std::vector<ResourceId> gpus;
  std::vector<QueueId> queues;
  for (int i = 0; i < 16; ++i) {
    gpus.push_back(g.add_resource(test::numbered("gpu", i), 1.0));
    queues.push_back(g.add_queue(test::numbered("gpu.compute", i)));
  }
  const ResourceId bus = g.add_resource("bus", 16e9);
  const QueueId copy = g.add_queue("bus.copy");
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> dur(1e-5, 1e-3);
  for (int t = 0; t < 20000; ++t) {
    if (t % 10 == 9) {
      add(g, test::numbered("x", t), copy, {{bus, 1e6}}, {t - 1}, kUs, TaskKind::Transfer);
    } else {
      add(g, test::numbered("k", t), queues[t % 16], {{gpus[t % 16], dur(rng)}}, t >= 16 ? std::vector<TaskId>{t - 16} : std::vector<TaskId>{});
    }
  }
  const Trace tr = simulate(g);
  EXPECT_GT(tr.makespan, 0);
  for (const TaskRecord& r : tr.tasks) EXPECT_GE(r.end, 0);
}

}  // namespace
}  // namespace placesim::engine
