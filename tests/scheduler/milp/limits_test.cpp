// Warm starts, node and time limits, reproducibility, and where the solver log goes.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "scheduler/milp/milp.hpp"
#include "tests/scheduler/milp/hard_instance.hpp"

namespace placesim::scheduler::milp {
namespace {

using namespace std::chrono_literals;
using testing::hard_knapsack;

constexpr double kTol = 1e-6;

std::vector<std::pair<VarId, double>> assignment(const std::vector<VarId>& vars, const std::vector<double>& values) {
  std::vector<std::pair<VarId, double>> out;
  for (std::size_t i = 0; i < vars.size(); ++i) out.emplace_back(vars[i], values[i]);
  return out;
}

SolveOptions time_limited(std::chrono::duration<double> limit) {
  SolveOptions o;
  o.time_limit = limit;
  return o;
}

SolveOptions node_limited(std::int64_t nodes) {
  SolveOptions o;
  o.node_limit = nodes;
  return o;
}

// A small instance solved to optimality twice: plainly, and from an infeasible warm start
// (every item), which CBC must drop.
TEST(MilpLimits, InfeasibleWarmStartIsIgnored) {
  const auto k = hard_knapsack(15, 3, 7);
  const Result plain = solve(k.model);
  ASSERT_EQ(plain.status, Status::Optimal) << plain.message;
  EXPECT_GT(plain.nodes, 0) << "the instance no longer needs branching";
  EXPECT_LT(plain.objective, k.model.objective_value(k.greedy()) - kTol) << "greedy must not be optimal";

  SolveOptions o;
  o.warm_start = assignment(k.x, std::vector<double>(k.x.size(), 1.0));
  const Result r = solve(k.model, o);
  ASSERT_EQ(r.status, Status::Optimal) << r.message;
  EXPECT_NEAR(r.objective, plain.objective, kTol);
}

// An optimal warm start: CBC finds nothing below it (it reports "relaxation infeasible" beside
// its incumbent, status 0/1), which is a proof of optimality, not merely a feasible point.
TEST(MilpLimits, OptimalWarmStartIsProvenOptimal) {
  const auto k = hard_knapsack(15, 3, 7);
  const Result plain = solve(k.model);
  ASSERT_EQ(plain.status, Status::Optimal) << plain.message;
  SolveOptions o;
  std::vector<double> best;
  for (const VarId& v : k.x) best.push_back(plain.values[static_cast<std::size_t>(v.index)]);
  o.warm_start = assignment(k.x, best);
  const Result r = solve(k.model, o);
  ASSERT_EQ(r.status, Status::Optimal) << to_string(r.status) << " " << r.message;
  EXPECT_NEAR(r.objective, plain.objective, kTol);
  EXPECT_NEAR(r.best_bound, plain.objective, kTol);
  EXPECT_EQ(r.gap, 0);
}

// Time limit 0: CBC takes the warm start as incumbent and stops at once.
TEST(MilpLimits, TimeLimitZeroReturnsTheWarmStart) {
  const auto k = hard_knapsack(40, 5, 7);
  const std::vector<double> greedy = k.greedy();
  SolveOptions o = time_limited(0s);
  o.warm_start = assignment(k.x, greedy);
  const Result r = solve(k.model, o);
  ASSERT_EQ(r.status, Status::Feasible) << r.message;
  EXPECT_NEAR(r.objective, k.model.objective_value(greedy), kTol);
  for (std::size_t i = 0; i < greedy.size(); ++i) EXPECT_NEAR(r.value(k.x[i]), greedy[i], kTol);
  EXPECT_LE(r.best_bound, r.objective);
  EXPECT_GT(r.gap, 0.0);
  EXPECT_LT(r.wall_seconds, 1.0);
}

// Node limit 0: the warm start is the incumbent when the search starts; the root may improve
// it, never worsen it.
TEST(MilpLimits, NodeLimitZeroKeepsTheWarmStartAsIncumbent) {
  const auto k = hard_knapsack(40, 5, 7);
  const double greedy = k.model.objective_value(k.greedy());
  SolveOptions o = node_limited(0);
  o.warm_start = assignment(k.x, k.greedy());
  const Result r = solve(k.model, o);
  ASSERT_EQ(r.status, Status::Feasible) << r.message;
  EXPECT_LE(r.objective, greedy + kTol);
  EXPECT_EQ(r.nodes, 0);
}

// Two machines, four jobs with durations 3, 5, 2, 4 (the same on both); minimise the makespan
// C >= load of each machine. The warm start gives only the binaries (jobs 0, 1 on machine 0,
// jobs 2, 3 on machine 1: loads 8 and 6); CBC solves the LP for C = max(8, 6) = 8.
TEST(MilpLimits, WarmStartWithoutContinuousVariablesIsCompleted) {
  const double duration[4] = {3.0, 5.0, 2.0, 4.0};
  Model m;
  const VarId makespan = m.add_continuous("C", 0.0, kInf, 1.0);
  std::vector<std::pair<VarId, double>> start;
  std::vector<Term> load[2];
  for (int j = 0; j < 4; ++j) {
    const VarId on0 = m.add_binary("x" + std::to_string(j) + "_0");
    const VarId on1 = m.add_binary("x" + std::to_string(j) + "_1");
    m.add_eq("assign" + std::to_string(j), {{on0, 1.0}, {on1, 1.0}}, 1.0);
    load[0].push_back({on0, duration[j]});
    load[1].push_back({on1, duration[j]});
    start.emplace_back(on0, j < 2 ? 1.0 : 0.0);
    start.emplace_back(on1, j < 2 ? 0.0 : 1.0);
  }
  for (int d = 0; d < 2; ++d) {
    load[d].push_back({makespan, -1.0});
    m.add_le("load" + std::to_string(d), load[d], 0.0);
  }
  SolveOptions o = time_limited(0s);
  o.warm_start = start;
  const Result r = solve(m, o);
  ASSERT_EQ(r.status, Status::Feasible) << r.message;
  EXPECT_NEAR(r.value(makespan), 8.0, kTol);
  for (const auto& [var, value] : start) EXPECT_NEAR(r.value(var), value, kTol);

  // Without limits: 14 units of work on 2 machines, and {3, 4} / {5, 2} splits it 7 / 7.
  const Result best = solve(m);
  ASSERT_EQ(best.status, Status::Optimal) << best.message;
  EXPECT_NEAR(best.objective, 7.0, kTol);
}

// Without a warm start, time limit 0 proves nothing: an incumbent from CBC's preprocessing
// heuristics at most.
TEST(MilpLimits, TimeLimitZeroWithoutWarmStart) {
  const auto k = hard_knapsack(40, 5, 7);
  const Result r = solve(k.model, time_limited(0s));
  EXPECT_TRUE(r.status == Status::Feasible || r.status == Status::NoSolution) << to_string(r.status);
  EXPECT_EQ(r.has_solution(), r.status == Status::Feasible);
  EXPECT_LT(r.wall_seconds, 1.0);
}

// The 40-item instance takes CBC tens of seconds to prove; a 0.3 s limit holds (with slack for
// a loaded machine: under a parallel build and test run 1 s of slack was not enough) and leaves
// an incumbent with a positive gap.
TEST(MilpLimits, WallClockLimitHolds) {
  const auto k = hard_knapsack(40, 5, 7);
  const Result r = solve(k.model, time_limited(0.3s));
  ASSERT_EQ(r.status, Status::Feasible) << r.message;
  EXPECT_GT(r.gap, 0.0);
  EXPECT_LT(r.wall_seconds, 0.3 + 5.0);
}

// A relative gap of 5% lets CBC stop on the 40-item instance (tens of seconds to prove) as soon
// as its incumbent is within 5% of its bound: reported Optimal, with that gap.
TEST(MilpLimits, RelativeGapStopsEarly) {
  const auto k = hard_knapsack(40, 5, 7);
  SolveOptions o;
  o.relative_gap = 0.05;
  o.time_limit = 20s;  // a guard: the test fails on status if the gap option is ignored
  const Result r = solve(k.model, o);
  ASSERT_EQ(r.status, Status::Optimal) << to_string(r.status);
  EXPECT_LE(r.gap, 0.05);
  EXPECT_LE(r.best_bound, r.objective);
}

// gap = (objective - bound) / max(|objective|, |bound|, 1e-10):
//   (-90 - -100) / 100 = 0.1;  (10 - 8) / 10 = 0.2;  (0 - 0) = 0;  no bound: +inf.
TEST(MilpLimits, RelativeGapDefinition) {
  EXPECT_DOUBLE_EQ(relative_gap(-90.0, -100.0), 0.1);
  EXPECT_DOUBLE_EQ(relative_gap(10.0, 8.0), 0.2);
  EXPECT_EQ(relative_gap(0.0, 0.0), 0.0);
  EXPECT_EQ(relative_gap(5.0, -kInf), kInf);
}

TEST(MilpLimits, NodeLimitRunsAreIdentical) {
  const auto k = hard_knapsack(40, 5, 7);
  SolveOptions o = node_limited(10);
  o.seed = 3;
  const Result a = solve(k.model, o);
  const Result b = solve(k.model, o);
  ASSERT_EQ(a.status, Status::Feasible) << a.message;
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.values, b.values);  // bitwise
  EXPECT_EQ(a.objective, b.objective);
  EXPECT_EQ(a.best_bound, b.best_bound);
  EXPECT_EQ(a.nodes, b.nodes);
  EXPECT_GT(a.gap, 0.0);
}

TEST(MilpLimits, LogGoesToStderrOnlyWhenVerbose) {
  const auto k = hard_knapsack(10, 2, 1);
  for (const bool verbose : {false, true}) {
    SolveOptions o;
    o.verbose = verbose;
    ::testing::internal::CaptureStdout();
    ::testing::internal::CaptureStderr();
    const Result r = solve(k.model, o);
    const std::string out = ::testing::internal::GetCapturedStdout();
    const std::string err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(r.status, Status::Optimal);
    EXPECT_EQ(out, "") << "verbose=" << verbose;
    EXPECT_EQ(err.empty(), !verbose) << err.substr(0, 500);
  }
}

// `placesim run --jobs N` places on several threads. CBC's driver keeps static state, so solves
// at once in one process garbled each other (CBC's log on stdout among the JSON); each search
// has its own process now, and each is what it is alone: same optimum, nothing on stdout.
TEST(MilpLimits, ConcurrentSolvesStayQuietAndCorrect) {
  const auto k = hard_knapsack(15, 3, 7);
  const Result alone = solve(k.model);
  ASSERT_EQ(alone.status, Status::Optimal);
  ::testing::internal::CaptureStdout();
  std::vector<Result> results(4);
  std::vector<std::thread> threads;
  // The limit only keeps a hang from stalling the suite: four solves on a loaded 2-core machine
  // took 72 s, so 30 s made a correct run a timeout.
  for (Result& r : results) threads.emplace_back([&] { r = solve(k.model, time_limited(600s)); });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(::testing::internal::GetCapturedStdout(), "");
  for (const Result& r : results) {
    EXPECT_EQ(r.status, Status::Optimal) << r.message;
    EXPECT_NEAR(r.objective, alone.objective, kTol);
  }
}

}  // namespace
}  // namespace placesim::scheduler::milp
