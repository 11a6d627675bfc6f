// milp-sortinghat on the points of scenarios/sortinghat/reduced.yaml with no warm start (`warm:
// none`): what the model alone proves. Each submodel's solve gets kLimit seconds (the paper's
// 30) and stops once proven within 10%; issue 15's goal is 80% of the submodels so proven.
//   BM_Cold/<point>/<variant>  point: index into the grid (reduced.yaml's sweep order);
//                              variant 0: the model before issue 15 (none of ShStrength), 1: the
//                              release floor, 2: floor and branching priorities (all; as
//                              bench_sortinghat_model.cpp's variants)
// Counters: submodels (the point's), solved (solves run: a solve without a schedule ends the
// placement), within_10 (proven within 10%, optimal included), fraction = within_10 /
// submodels, worst_gap (of the solves run; -1: one found no schedule), nodes, seconds (solver
// wall time in all), gaps_over (the gaps of the solves not proven within 10%, in percent, in
// submodel order, appended to the label). The label names the point. Every point and variant runs an hour or more
// (24 points, up to 30 s per submodel): pick some with --benchmark_filter, e.g. 'BM_Cold/0/'.
// Run from the repository root (the scenario's path is relative).
#include <benchmark/benchmark.h>

#include <cmath>
#include <fmt/format.h>
#include <string>
#include <vector>

#include "models/transform/dominators.hpp"
#include "scheduler/placers/sortinghat/sortinghat_solve.hpp"
#include "sim/core/yaml_doc.hpp"
#include "app/explore/scenario.hpp"

namespace {

using namespace placesim;
using namespace placesim::scheduler;
using namespace placesim::scheduler::sortinghat;

constexpr double kLimit = 30;
constexpr double kGap = 0.1;

const explore::Scenario& grid() {
  static const explore::Scenario sc = explore::load_scenario("scenarios/sortinghat/reduced.yaml");
  return sc;
}

void BM_Cold(benchmark::State& state) {
  const explore::Point& point = grid().points.at(static_cast<size_t>(state.range(0)));
  const Problem p = explore::build_problem(grid(), point);
  const MilpSettings settings(PlacerOptions(milp_option_specs("60"),
                                            Yaml::load_string("{warm: none, time_limit: 1e9, gap: " +
                                                                  std::to_string(kGap) + "}",
                                                              "bench")),
                              "milp-sortinghat");
  ShConfig cfg;
  cfg.submodel_limit_s = kLimit;
  const int v = static_cast<int>(state.range(1));
  cfg.strength = ShStrength{v >= 1, v >= 2};
  const size_t submodels =
      models::split_submodels(*p.graph, models::partition_by_dominators(*p.graph, cfg.ndom)).size();
  int solved = 0, within = 0;
  double worst = 0, seconds = 0, nodes = 0;
  std::string gaps_over;
  for (auto _ : state)
    place(p, cfg, settings, "milp-sortinghat", [&](const ShInput&, const std::vector<int>&, const milp::Result& r) {
      ++solved;
      within += r.status == milp::Status::Optimal;
      const double gap = r.has_solution() ? r.gap : milp::kInf;
      worst = std::max(worst, gap);
      if (r.status != milp::Status::Optimal) gaps_over += fmt::format(" {:.1f}", 100 * gap);
      seconds += r.wall_seconds;
      nodes += static_cast<double>(r.nodes);
    });
  state.counters["submodels"] = static_cast<double>(submodels);
  state.counters["solved"] = solved;
  state.counters["within_10"] = within;
  state.counters["fraction"] = within / static_cast<double>(submodels);
  state.counters["worst_gap"] = std::isfinite(worst) ? worst : -1;
  state.counters["nodes"] = nodes;
  state.counters["seconds"] = seconds;
  std::string label;
  for (const auto& [axis, value] : point.values) label += (label.empty() ? "" : ", ") + axis + "=" + value;
  state.SetLabel(label + (gaps_over.empty() ? "" : "; gaps_over:" + gaps_over));
}
BENCHMARK(BM_Cold)->ArgsProduct({benchmark::CreateDenseRange(0, 23, 1), {0, 1, 2}})->Iterations(1)->Unit(benchmark::kSecond);

}  // namespace

BENCHMARK_MAIN();
