// Done-when 1: on seeded tiny instances the MILP's optimum equals brute_force.hpp's enumeration of
// the same model, for the milp-sortinghat form (DHA slots, shared buses, chaining constants,
// fixed nodes) and the efficientmip form (no DHA, one speed, nothing carried over). The model is
// built with ShStrength's defaults (issue 15): the release floor (the model without it is
// exact, and a cut only raises its optimum, so equal optima show the floor valid on these
// instances) and branching priorities (they change CBC's search, never the optimum: equal
// optima show that they reach no farther, e.g. by fixing a variable).
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "brute_force.hpp"
#include "scheduler/milp/milp.hpp"
#include "tests/scheduler/milp/model_text.hpp"

namespace sortinghat_test {
namespace {

using namespace placesim::scheduler;
using namespace placesim::scheduler::sortinghat;

// A random DAG of ops with parameters, small enough that the enumeration stays under ~40k
// assignments. Times in [0.5, 2] s; memory binds on some seeds.
ShInput random_instance(std::uint64_t seed, bool sortinghat) {
  std::mt19937_64 rng(seed);
  auto uni = [&](double a, double b) { return std::uniform_real_distribution<double>(a, b)(rng); };
  auto pick = [&](int a, int b) { return std::uniform_int_distribution<int>(a, b)(rng); };
  ShInput in;
  // Every seventh instance: four GPUs on two buses of two, the buses alike (the V100 station's
  // shape: no GPU alone on its bus, so no GPU class).
  const bool two_buses = seed % 7 == 0;
  in.k = two_buses ? 4 : seed % 5 == 0 ? 3 : 2;
  in.q = 2;
  in.dha = sortinghat;
  const int S = in.k * in.q + 1;
  const int ops = pick(2, in.k >= 3 ? 3 : 4);
  int params = pick(1, (in.k >= 3 ? 4 : 6) - ops);
  auto space = [&](int o, int w) { return std::pow(S - 1, o) * std::pow(sortinghat ? S : S - 1, w); };
  while (params > 0 && space(ops, params) > 40000) --params;
  in.n = ops + params;
  in.is_param.assign(in.n, false);
  for (int w = ops; w < in.n; ++w) in.is_param[w] = true;
  for (int v = 1; v < ops; ++v)
    for (int u = 0; u < v; ++u)
      if (uni(0, 1) < 0.5) in.edges.push_back({u, v});
  for (int w = ops; w < in.n; ++w) {
    in.edges.push_back({w, pick(0, ops - 1)});
    if (uni(0, 1) < 0.3) {
      const int v = pick(0, ops - 1);
      if (std::find(in.edges.begin(), in.edges.end(), std::pair<int, int>{w, v}) == in.edges.end()) in.edges.push_back({w, v});
    }
  }
  in.p_gpu.assign(in.n, std::vector<double>(in.k, 0));
  in.p_dha = in.p_gpu;
  in.dt_s = in.p_gpu;
  in.copy_s.assign(in.n, std::vector<std::vector<double>>(in.k, std::vector<double>(in.k, 0)));
  in.mem.resize(in.n);
  for (int v = 0; v < in.n; ++v) {
    in.mem[v] = uni(1, 10);
    for (int i = 0; i < in.k; ++i) {
      if (!in.is_param[v]) in.p_gpu[v][i] = uni(0.5, 2), in.p_dha[v][i] = in.p_gpu[v][i] * uni(1, 3);
      else in.dt_s[v][i] = uni(0.5, 2);
      for (int i2 = 0; i2 < in.k; ++i2)
        if (i2 != i) in.copy_s[v][i][i2] = uni(0.1, 1.5);
    }
  }
  // Every fourth instance is all copies: ops take no time without DHA (the floor then waits
  // for copies alone) and 1.5 copies' time with it.
  if (seed % 4 == 2)
    for (int v = 0; v < in.n; ++v)
      for (int i = 0; i < in.k; ++i)
        if (!in.is_param[v]) in.p_gpu[v][i] = 0, in.p_dha[v][i] = 1.5 * in.dt_s[in.n - 1][i];
  in.capacity.assign(in.k, seed % 4 == 0 ? uni(15, 30) : 0.0);
  // Every third instance: identical GPUs, each on its own bus (the model breaks their symmetry).
  const bool identical = seed % 3 == 0;
  if (identical)
    for (int v = 0; v < in.n; ++v)
      for (int i = 0; i < in.k; ++i) {
        in.p_gpu[v][i] = in.p_gpu[v][0], in.p_dha[v][i] = in.p_dha[v][0], in.dt_s[v][i] = in.dt_s[v][0];
        for (int i2 = 0; i2 < in.k; ++i2) in.copy_s[v][i][i2] = i == i2 ? 0.0 : in.copy_s[v][0][1];
      }
  if (two_buses)  // GPU i + 2 is GPU i on the other bus, in every constant
    for (int v = 0; v < in.n; ++v) {
      for (int i = 2; i < 4; ++i)
        in.p_gpu[v][i] = in.p_gpu[v][i - 2], in.p_dha[v][i] = in.p_dha[v][i - 2], in.dt_s[v][i] = in.dt_s[v][i - 2];
      for (int i = 0; i < 4; ++i)
        for (int i2 = 0; i2 < 4; ++i2)
          if (i >= 2 || (i2 >= 2 && i == i2 - 2)) in.copy_s[v][i][i2] = in.copy_s[v][(i + 2) % 4][(i2 + 2) % 4];
    }
  const bool shared = sortinghat && !identical;  // GPUs 0 and 1 share bus 0
  in.buses = two_buses ? 2 : shared ? in.k - 1 : in.k;
  for (int i = 0; i < in.k; ++i) in.bus_of.push_back(two_buses ? i / 2 : shared ? std::max(0, i - 1) : i);
  const bool chained = sortinghat && seed % 2 == 1;
  in.prev_m.assign(in.k, chained ? uni(0, 5) : 0.0);
  in.prev_sg_fin.assign(in.k, 0);
  in.prev_dt_fin.assign(in.buses, 0);
  if (chained) {
    for (double& t : in.prev_sg_fin) t = uni(0, 2);
    for (double& t : in.prev_dt_fin) t = uni(0, 2);
    in.fixed.push_back({0, pick(0, in.k - 1)});  // op 0 has no op predecessor: a placeholder's role
    if (identical) in.prev_sg_fin.assign(in.k, in.prev_sg_fin[0]), in.prev_m.assign(in.k, in.prev_m[0]);
    if (two_buses) {
      in.prev_dt_fin[1] = in.prev_dt_fin[0];
      for (int i = 2; i < 4; ++i) in.prev_sg_fin[i] = in.prev_sg_fin[i - 2], in.prev_m[i] = in.prev_m[i - 2];
    }
  }
  return in;
}

// Whether row `name` holds with equality at `values` (it binds the optimum).
bool binds(const milp::Model& m, const std::vector<double>& values, const std::string& name) {
  const auto id = m.find_row(name);
  if (!id) return false;
  double sum = 0;
  for (const milp::Term& t : m.row(*id).terms) sum += t.coef * values[t.var.index];
  return sum - m.row(*id).lower < 1e-6;  // model units: the big-M is 1000
}

void expect_optimum_matches(bool sortinghat, std::uint64_t first, int count) {
  int feasible = 0, floor_binds = 0;
  for (std::uint64_t seed = first; seed < first + static_cast<std::uint64_t>(count); ++seed) {
    const ShInput in = random_instance(seed, sortinghat);
    const std::optional<double> best = brute_force(in);
    const ShModel m = build_model(in);
    const milp::Result r = milp::solve(m.model);
    if (!best) {
      EXPECT_EQ(r.status, milp::Status::Infeasible) << "seed " << seed;
      continue;
    }
    ++feasible;
    ASSERT_EQ(r.status, milp::Status::Optimal) << "seed " << seed << " " << r.message;
    const ShSolution s = read_solution(in, m, r.values);
    EXPECT_NEAR(s.total, *best, 1e-6 * *best) << "seed " << seed << " n " << in.n << " k " << in.k;
    // The solver's assignment itself evaluates to its objective.
    const std::optional<double> own = evaluate(in, s.slot_of);
    ASSERT_TRUE(own) << "seed " << seed;
    EXPECT_NEAR(*own, s.total, 1e-6 * *best) << "seed " << seed;
    floor_binds += binds(m.model, r.values, "floor");
  }
  EXPECT_GT(feasible, count / 2);
  // The floor has teeth: it is the optimum itself on some instances, so a floor that claimed
  // a little more than holds would cut the optimum there and fail above.
  EXPECT_GT(floor_binds, count / 20);
}

// 200 instances each (the count): CBC takes ~0.1 s a solve even on these.
TEST(SortingHatModel, OptimumEqualsBruteForce) { expect_optimum_matches(true, 1, 200); }

TEST(SortingHatModel, EfficientMipOptimumEqualsBruteForce) { expect_optimum_matches(false, 1001, 200); }

// The model, row by row, as tests/scheduler/placers/sortinghat/models/ keeps it (tests/scheduler/milp/model_text.hpp): seeds
// that reach every family of rows (chained with a fixed node, all copies, identical GPUs with
// their symmetry, memory, two buses, efficientmip's form) and a cap on the GPUs used.
TEST(SortingHatModelText, IsTheModelKept) {
  const std::string dir = std::string(PLACESIM_SOURCE_DIR) + "/tests/scheduler/placers/sortinghat/models/";
  for (const std::uint64_t seed : {1, 2, 3, 4, 7})
    placesim::testing::expect_model_file(build_model(random_instance(seed, true)).model,
                                         dir + fmt::format("sortinghat-{}.txt", seed));
  for (const std::uint64_t seed : {1001, 1002})  // two buses of two; each GPU on its own (the packed rows)
    placesim::testing::expect_model_file(build_model(random_instance(seed, false)).model,
                                         dir + fmt::format("efficientmip-{}.txt", seed));
  ShInput capped = random_instance(5, true);
  capped.max_gpus = 2;
  capped.used_before.assign(capped.k, false);
  capped.used_before[0] = true;
  placesim::testing::expect_model_file(build_model(capped, ShStrength{false, false}).model, dir + "sortinghat-5-capped.txt");
}

}  // namespace
}  // namespace sortinghat_test
