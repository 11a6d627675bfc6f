// What every MILP placer shares (scheduler/placers/milp_support.hpp): the options, the warm
// start chosen by simulation, and a result that is never worse than the warm start, with an
// honest status and gap.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "models/graph_json.hpp"
#include "scheduler/placers/milp_support.hpp"
#include "support.hpp"

namespace {

using namespace placers_test;
using scheduler::MilpSettings;
using scheduler::PlacerOptions;

// Two independent ops of 1 s and 3 s on either of two processors, nothing to move:
// single-device runs them in sequence (4 s), round-robin side by side (max(1, 3) = 3 s).
scheduler::Problem two_ops() {
  return problem(models::parse_graph(Json::load_string(R"({"nodes": [
      {"name": "a", "durations": {"p1": 1, "p2": 1}}, {"name": "b", "durations": {"p1": 3, "p2": 3}}], "edges": []})",
                                                       "g.json")),
                 hw::load_topology_text("network: ideal\ndevices: [{id: p1, type: cpu, cores: 1, fp32: 1GFLOPS, "
                                        "memory_bw: 1GB/s}, {id: p2, type: cpu, cores: 1, fp32: 1GFLOPS, memory_bw: 1GB/s}]\n",
                                        "ideal.yaml"));
}

MilpSettings settings(const std::string& yaml) {
  return MilpSettings(PlacerOptions(scheduler::milp_option_specs("10"), Yaml::load_string(yaml, "s.yaml")), "milp-test");
}

scheduler::milp::Result result(scheduler::milp::Status status, double gap, double objective = 4, double bound = 3) {
  scheduler::milp::Result r;
  r.status = status;
  r.gap = gap;
  r.objective = objective;
  r.best_bound = bound;
  r.values = {1.0};
  r.nodes = 7;
  return r;
}

TEST(MilpSupport, BadOptionsAreInputErrorsAtTheirLocation) {
  for (const char* bad : {"{time_limit: -1}", "{node_limit: -5}", "{gap: 1.5}", "{warm: heft}",
                          "{warm: [no-such-placer]}", "{warm: [critical-path]}", "{warm: [milp-sortinghat]}",
                          "{warm: nothing}", "{dump_model: model.txt}", "{warm: [heft, milp-test]}",
                          "{time_limit: 0, warm: none}"}) {
    try {
      settings(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("s.yaml:1:"), std::string::npos) << e.what();
    }
  }
}

TEST(MilpSupport, WarmNoneMeansNoWarmStart) {
  const MilpSettings none = settings("{warm: none}");
  EXPECT_FALSE(none.warm_start);
  EXPECT_TRUE(none.warm.empty());
  EXPECT_TRUE(settings("{}").warm_start);
}

TEST(MilpSupport, SolveOptionsCarryTheLimitsAndTheProblemSeed) {
  auto p = two_ops();
  p.seed = 42;
  const auto o = settings("{time_limit: 7, node_limit: 100, gap: 0.01}").solve_options(p, 2.5);
  EXPECT_DOUBLE_EQ(o.time_limit->count(), 2.5);
  EXPECT_EQ(*o.node_limit, 100);
  EXPECT_DOUBLE_EQ(o.relative_gap, 0.01);
  EXPECT_EQ(o.seed, 42);
  EXPECT_EQ(o.threads, 1);
  EXPECT_FALSE(settings("{}").solve_options(p, 10).node_limit.has_value());
}

TEST(MilpSupport, TheBudgetIsSharedByTheSolvesStillToCome) {
  const scheduler::SolveBudget budget(100);
  // What is left (a hair under 100 s by now) split equally: 4 solves to come, then the last.
  EXPECT_GT(budget.share(0, 4), 24.9);
  EXPECT_LE(budget.share(0, 4), 25);
  EXPECT_GT(budget.share(3, 4), 99.9);
  EXPECT_LE(budget.share(3, 4), 100);
  EXPECT_EQ(scheduler::SolveBudget(0).share(0, 1), 0);
}

TEST(MilpSupport, BestHeuristicIsTheFastestSimulatedPlan) {
  const auto p = two_ops();
  const auto best = scheduler::best_heuristic(p, {"single-device", "round-robin"});
  ASSERT_TRUE(best);
  EXPECT_EQ(best->placer, "round-robin");
  EXPECT_DOUBLE_EQ(best->simulated_s, 3);
  EXPECT_DOUBLE_EQ(scheduler::simulated_makespan(p, *run_placer("single-device", p).plan), 4);
}

TEST(MilpSupport, AFasterWarmStartIsKeptAndSaysSo) {
  const auto p = two_ops();
  const auto warm = scheduler::best_heuristic(p, {"round-robin"});
  scheduler::SolveSummary s;
  s.add(result(scheduler::milp::Status::Optimal, 0), 1);
  const auto slow = run_placer("single-device", p);
  const auto r = scheduler::finish_milp(p, slow.plan, 4.0, s, warm);
  EXPECT_EQ(r.status, scheduler::RunStatus::Ok);
  EXPECT_EQ(*r.plan, warm->plan);
  EXPECT_FALSE(r.predicted_s) << "the MILP's model did not time the warm plan";
  EXPECT_NE(r.message.find("warm start (round-robin) kept: simulated 3 s against the MILP plan's 4 s (its model: 4 s)"),
            std::string::npos)
      << r.message;
  // The record keeps what the MILP found: its plan (single-device's: 1 s + 3 s in sequence) and
  // its model's figures, beside the warm start that was returned.
  ASSERT_TRUE(r.milp);
  EXPECT_EQ(r.milp->plan_source, "warm:round-robin");
  EXPECT_EQ(r.milp->makespan_s, 4.0);
  EXPECT_EQ(r.milp->objective_s, 4.0);
  EXPECT_EQ(r.milp->bound_s, 3.0);
  EXPECT_EQ(r.milp->solves, 1);
  EXPECT_EQ(r.milp->optimal, 1);
  EXPECT_EQ(r.milp->nodes, 7);
}

TEST(MilpSupport, TheMilpPlanWinsTiesAndALimitIsATimeoutWithItsGap) {
  const auto p = two_ops();
  const auto warm = scheduler::best_heuristic(p, {"round-robin"});
  scheduler::SolveSummary s;
  s.add(result(scheduler::milp::Status::Optimal, 0), 1);
  s.add(result(scheduler::milp::Status::Feasible, 0.25), 1);
  const auto own = run_placer("round-robin", p);
  const auto r = scheduler::finish_milp(p, own.plan, 3.0, s, warm);
  EXPECT_EQ(r.status, scheduler::RunStatus::Limit);
  EXPECT_DOUBLE_EQ(*r.gap, 0.25);
  EXPECT_DOUBLE_EQ(*r.predicted_s, 3.0);
  EXPECT_EQ(r.message, "2 solves, 1 optimal, 1 at the time limit, gap 25%, 14 nodes");
  // With a node limit the solve used up, the message says that limit ended it.
  scheduler::SolveSummary limited;
  limited.node_limit = 7;
  limited.add(result(scheduler::milp::Status::Feasible, 0.25), 1);
  limited.add(result(scheduler::milp::Status::NoSolution, 0.25), 1);
  EXPECT_EQ(limited.describe(), "2 solves, 0 optimal, 2 at the node limit, gap 25%, 14 nodes");
  ASSERT_TRUE(r.milp);
  EXPECT_EQ(r.milp->plan_source, "milp");
  EXPECT_EQ(r.milp->makespan_s, 3.0);  // round-robin's plan: the two ops side by side
}

// Chained solves (each model carries the earlier ones' schedule) report the last solve's
// objective and bound; independent ones (run one after another) their sums; each in seconds.
TEST(MilpSupport, ObjectiveAndBoundOfSeveralSolves) {
  scheduler::SolveSummary chained, summed;
  summed.chained = false;
  for (scheduler::SolveSummary* s : {&chained, &summed}) {
    s->add(result(scheduler::milp::Status::Optimal, 0, 2000, 1000), 1e-3);
    s->add(result(scheduler::milp::Status::Feasible, 0.5, 8, 4), 0.5);
  }
  EXPECT_EQ(chained.objective_s, 4.0);
  EXPECT_EQ(chained.bound_s, 2.0);
  EXPECT_EQ(summed.objective_s, 6.0);
  EXPECT_EQ(summed.bound_s, 3.0);
  // A solve without an incumbent or bound leaves the sums unknown; a later chained solve does not.
  auto nothing = result(scheduler::milp::Status::NoSolution, std::numeric_limits<double>::infinity(),
                        std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity());
  nothing.values.clear();
  summed.add(nothing, 1);
  summed.add(result(scheduler::milp::Status::Optimal, 0), 1);
  EXPECT_FALSE(summed.objective_s);
  EXPECT_FALSE(summed.bound_s);
  chained.add(nothing, 1);
  chained.add(result(scheduler::milp::Status::Optimal, 0), 1);
  EXPECT_EQ(chained.objective_s, 4.0);
  EXPECT_EQ(chained.bound_s, 3.0);
}

TEST(MilpSupport, NoSolveReturnsTheWarmStartAsATimeout) {
  const auto p = two_ops();
  const auto warm = scheduler::best_heuristic(p, {"round-robin"});
  const auto r = scheduler::finish_milp(p, std::nullopt, std::nullopt, scheduler::SolveSummary{}, warm);
  EXPECT_EQ(r.status, scheduler::RunStatus::Limit);
  EXPECT_EQ(*r.plan, warm->plan);
  EXPECT_NE(r.message.find("no MILP solved"), std::string::npos) << r.message;
  ASSERT_TRUE(r.milp);
  EXPECT_EQ(r.milp->plan_source, "warm:round-robin");
  EXPECT_FALSE(r.milp->makespan_s) << "the MILP made no plan";
  EXPECT_FALSE(r.milp->objective_s);
  EXPECT_EQ(r.milp->solves, 0);
}

TEST(MilpSupport, ASolverErrorIsReportedNotThrown) {
  const auto p = two_ops();
  const auto warm = scheduler::best_heuristic(p, {"round-robin"});
  scheduler::SolveSummary s;
  auto failed = result(scheduler::milp::Status::Error, std::numeric_limits<double>::infinity());
  failed.values.clear();
  failed.message = "CBC threw";
  s.add(failed, 1);
  const auto r = scheduler::finish_milp(p, std::nullopt, std::nullopt, s, warm);
  EXPECT_EQ(r.status, scheduler::RunStatus::Error);
  EXPECT_TRUE(r.plan);
  EXPECT_TRUE(std::isinf(*r.gap));
  EXPECT_NE(r.message.find("solver error: CBC threw"), std::string::npos) << r.message;
}

}  // namespace
