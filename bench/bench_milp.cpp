// The MILP wrapper (scheduler/milp) on random scheduling-like models: n jobs on m unrelated
// machines, minimise the makespan C.
//   x_jk in {0,1}  job j on machine k;   sum_k x_jk = 1
//   s_j >= 0 start;  C >= s_j + sum_k d_jk x_jk
//   y_ij in {0,1}  i before j (i < j); for every machine k, when both are on k (big-M rows):
//     s_i + d_ik <= s_j + M (1 - y_ij) + M (2 - x_ik - x_jk)
//     s_j + d_jk <= s_i + M y_ij       + M (2 - x_ik - x_jk)
//   M = sum_j max_k d_jk (every job in sequence on its slowest machine).
// The non-overlap rows are the weak big-M form the MILP placers start from, so the LP bound is
// poor and CBC branches: a fair stand-in for their solve times.
//
//   BM_Solve/n:          solve under a 10 s wall-clock limit; counters: status (0 optimal,
//                        1 feasible), gap, nodes, vars, rows.
//   BM_LimitOverrun/n/ms: a limit of ms milliseconds on an instance that cannot be proven in
//                        it; counters: limit_s, actual_s (wall seconds the solve took),
//                        overrun_s = actual - limit, status, gap.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <string>
#include <vector>

#include "scheduler/milp/milp.hpp"

namespace {

using namespace placesim::scheduler::milp;

constexpr int kMachines = 3;

Model scheduling_model(int jobs, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> duration(1.0, 10.0);
  std::vector<std::vector<double>> d(static_cast<std::size_t>(jobs), std::vector<double>(kMachines));
  double big_m = 0.0;
  for (auto& row : d) {
    for (double& v : row) v = duration(rng);
    big_m += *std::max_element(row.begin(), row.end());
  }
  Model m;
  const VarId makespan = m.add_continuous("C", 0.0, big_m, 1.0);
  std::vector<VarId> start;
  std::vector<std::vector<VarId>> on(static_cast<std::size_t>(jobs));
  for (int j = 0; j < jobs; ++j) {
    const std::string js = std::to_string(j);
    start.push_back(m.add_continuous("s" + js, 0.0, big_m));
    std::vector<Term> assign, finish{{makespan, 1.0}, {start.back(), -1.0}};
    for (int k = 0; k < kMachines; ++k) {
      on[static_cast<std::size_t>(j)].push_back(m.add_binary("x" + js + "_" + std::to_string(k)));
      assign.push_back({on[static_cast<std::size_t>(j)].back(), 1.0});
      finish.push_back({on[static_cast<std::size_t>(j)].back(), -d[static_cast<std::size_t>(j)][static_cast<std::size_t>(k)]});
    }
    m.add_eq("assign" + js, assign, 1.0);
    m.add_ge("finish" + js, finish, 0.0);
  }
  for (int i = 0; i < jobs; ++i) {
    for (int j = i + 1; j < jobs; ++j) {
      const std::string ij = std::to_string(i) + "_" + std::to_string(j);
      const VarId before = m.add_binary("y" + ij);
      const auto si = static_cast<std::size_t>(i), sj = static_cast<std::size_t>(j);
      for (int k = 0; k < kMachines; ++k) {
        const auto sk = static_cast<std::size_t>(k);
        const std::string ijk = ij + "_" + std::to_string(k);
        // s_i - s_j + M y + M x_ik + M x_jk <= 3M - d_ik
        m.add_le("ij" + ijk,
                 {{start[si], 1.0}, {start[sj], -1.0}, {before, big_m}, {on[si][sk], big_m}, {on[sj][sk], big_m}},
                 3.0 * big_m - d[si][sk]);
        // s_j - s_i - M y + M x_ik + M x_jk <= 2M - d_jk
        m.add_le("ji" + ijk,
                 {{start[sj], 1.0}, {start[si], -1.0}, {before, -big_m}, {on[si][sk], big_m}, {on[sj][sk], big_m}},
                 2.0 * big_m - d[sj][sk]);
      }
    }
  }
  return m;
}

void report(benchmark::State& state, const Model& m, const Result& r) {
  state.counters["status"] = static_cast<double>(r.status);
  state.counters["gap"] = r.gap;
  state.counters["nodes"] = static_cast<double>(r.nodes);
  state.counters["vars"] = m.num_vars();
  state.counters["rows"] = m.num_rows();
}

void BM_Solve(benchmark::State& state) {
  const Model m = scheduling_model(static_cast<int>(state.range(0)), 1);
  SolveOptions o;
  o.time_limit = std::chrono::seconds(10);
  Result r;
  for (auto _ : state) {
    r = solve(m, o);
    state.SetIterationTime(r.wall_seconds);
  }
  report(state, m, r);
}
BENCHMARK(BM_Solve)->Arg(4)->Arg(6)->Arg(8)->Arg(10)->Arg(12)->Arg(16)->Arg(24)->Arg(32)
    ->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);

void BM_LimitOverrun(benchmark::State& state) {
  const Model m = scheduling_model(static_cast<int>(state.range(0)), 2);
  const double limit = static_cast<double>(state.range(1)) / 1000.0;
  SolveOptions o;
  o.time_limit = std::chrono::duration<double>(limit);
  Result r;
  for (auto _ : state) {
    r = solve(m, o);
    state.SetIterationTime(r.wall_seconds);
  }
  report(state, m, r);
  state.counters["limit_s"] = limit;
  state.counters["actual_s"] = r.wall_seconds;
  state.counters["overrun_s"] = r.wall_seconds - limit;
}
BENCHMARK(BM_LimitOverrun)
    ->ArgsProduct({{16, 32, 64}, {0, 100, 500, 2000}})
    ->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
