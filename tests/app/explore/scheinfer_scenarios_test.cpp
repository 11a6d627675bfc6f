// ScheInfer's solver on exactly what the scheinfer placer solves in every point of every scenario
// under scenarios/scheinfer/ (scheinfer_inputs.hpp), both phases:
//   * the edge points of Eq. 6-13 against a brute-force scan of r_CG (10^4 + 1 points), at the
//     r_GG Eq. 14 gives each layer and at r_GG = 0, on every distinct layer block;
//   * in a prompt, n_g of Eq. 15 against every integer n_g in [0, T];
//   * threads.yaml: at a fixed r_GG, the best r_CG rises as the CPU's threads fall; and its
//     `resident: none` placer (the paper's ablation) keeps r_GG = 0 with the solver's r_CG there.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "scheduler/placers/offload/scheinfer_inputs.hpp"
#include "app/explore/scenario.hpp"

namespace {

using namespace placesim;
namespace si = scheduler::scheinfer;

std::vector<std::string> scenario_files() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(std::string(PLACESIM_SOURCE_DIR) + "/scenarios/scheinfer"))
    if (e.path().extension() == ".yaml") out.push_back(e.path().string());
  std::sort(out.begin(), out.end());
  return out;
}

// The placer's default options: the first GPU and CPU, all their memory and cores.
scheduler::offload::SetupOptions::Setup defaults(const hw::Topology& t) {
  scheduler::offload::SetupOptions::Setup s;
  s.gpu = t.index("gpu0");
  s.cpu = t.index("cpu0");
  s.memory = t.devices[s.gpu].memory;
  return s;
}

bool same(const si::Block& a, const si::Block& b) {
  if (a.gemms.size() != b.gemms.size()) return false;
  for (size_t i = 0; i < a.gemms.size(); ++i)
    if (a.gemms[i].work != b.gemms[i].work || a.gemms[i].weight_bytes != b.gemms[i].weight_bytes) return false;
  return true;
}

// solve_cg against the scan: no scan point does better, and where the scan's best is unique the
// edge point lies within one step of it.
void expect_scan(const si::Hardware& hw, const si::Block& b, double r_gg, std::map<std::string, int>& edges) {
  const si::CgSolution edge = si::solve_cg(hw, b, r_gg);
  ++edges[edge.edge];
  const int N = 10000;
  const double step = (1 - r_gg) / N;
  double best = 1e300, at = 0;
  int ties = 0;
  for (int i = 0; i <= N; ++i) {
    const double r = i == N ? 1 - r_gg : i * step;
    const double t = si::block_time(hw, b, {1 - r_gg - r, r, r_gg}).fin;
    if (t < best * (1 - 1e-12)) best = t, at = r, ties = 0;
    else if (t <= best * (1 + 1e-12)) ++ties;
  }
  EXPECT_LE(edge.t_fin, best * (1 + 1e-12)) << "edge " << edge.edge << " r_CG " << edge.r_cg << ", scan " << at;
  if (ties == 0) {
    EXPECT_LE(std::abs(edge.r_cg - at), step * (1 + 1e-9)) << edge.edge;
  }
}

TEST(ScheinferScenarios, EdgePointsMatchABruteForceScanOnEveryLayerOfEveryPoint) {
  std::map<std::string, int> edges;
  int points = 0, prompts = 0;
  for (const std::string& file : scenario_files()) {
    const explore::Scenario s = explore::load_scenario(file);
    for (const explore::Point& pt : s.points) {
      SCOPED_TRACE(file + " point " + std::to_string(pt.index));
      const scheduler::Problem p = explore::build_problem(s, pt);
      const si::Inputs in = si::scheinfer_inputs(p, defaults(*p.topo), {});
      const si::GgAssignment gg = si::assign_gg(in.hw, in.generation, in.budget * in.active, 10);
      std::vector<std::pair<si::Block, double>> seen;  // (block, r_GG) already checked
      for (size_t l = 0; l < in.generation.size(); ++l)
        for (double r_gg : {gg.layers[l].rates.gg, 0.0}) {
          if (std::any_of(seen.begin(), seen.end(),
                          [&](auto& x) { return x.second == r_gg && same(x.first, in.generation[l]); }))
            continue;
          seen.emplace_back(in.generation[l], r_gg);
          expect_scan(in.hw, in.generation[l], r_gg, edges);
        }
      ++points;
      if (!in.prompt) continue;
      ++prompts;
      std::vector<si::Block> done;
      for (size_t l = 0; l < in.now.size(); ++l) {
        if (std::any_of(done.begin(), done.end(), [&](auto& b) { return same(b, in.now[l]); })) continue;
        done.push_back(in.now[l]);
        const si::Rates r = gg.layers[l].rates;
        const si::PromptSolution ng = si::solve_tokens(in.hw, in.now[l], r, in.tokens);
        double best = 1e300;
        for (int n = 0; n <= in.tokens; ++n) best = std::min(best, si::prompt_block_time(in.hw, in.now[l], r, n, in.tokens).fin);
        EXPECT_EQ(ng.t_fin, best) << "layer " << l << " edge " << ng.edge;
      }
    }
  }
  EXPECT_GT(prompts, 0);
  EXPECT_GT(points, prompts);
  for (auto& [edge, n] : edges) std::printf("  edge point %-16s won %d times\n", edge.c_str(), n);
}

TEST(ScheinferScenarios, FewerThreadsCopyMoreWeights) {
  const explore::Scenario s = explore::load_scenario(std::string(PLACESIM_SOURCE_DIR) + "/scenarios/scheinfer/threads.yaml");
  for (double r_gg : {0.0, 0.5}) {
    std::vector<std::pair<int, double>> r_cg;  // (threads, best r_CG), decode points
    for (const explore::Point& pt : s.points) {
      if (pt.root["model"]["phase"].as<std::string>() != "decode") continue;
      const scheduler::Problem p = explore::build_problem(s, pt);
      const si::Inputs in = si::scheinfer_inputs(p, defaults(*p.topo), {});
      r_cg.emplace_back(pt.root["cost"]["threads"].as<int>(), si::solve_cg(in.hw, in.generation[0], r_gg).r_cg);
    }
    std::sort(r_cg.begin(), r_cg.end());
    ASSERT_GE(r_cg.size(), 4u);
    for (size_t i = 1; i < r_cg.size(); ++i)
      EXPECT_GT(r_cg[i - 1].second, r_cg[i].second)
          << "r_GG " << r_gg << ": " << r_cg[i - 1].first << " threads " << r_cg[i - 1].second << ", " << r_cg[i].first
          << " threads " << r_cg[i].second;
  }
}

// ScheInfer's thread ablation reports r_CG at r_GG = 0: the `resident: none` placer of
// threads.yaml puts no FFN weight on the GPU, and each layer's r_CG is the solver's at r_GG = 0.
TEST(ScheinferScenarios, ResidentNoneHoldsRggAtZero) {
  const explore::Scenario s = explore::load_scenario(std::string(PLACESIM_SOURCE_DIR) + "/scenarios/scheinfer/threads.yaml");
  const auto none = std::find_if(s.placers.begin(), s.placers.end(), [](const auto& spec) {
    return spec.label == "scheinfer{resident=none}";
  });
  ASSERT_NE(none, s.placers.end());
  std::vector<std::pair<int, double>> r_cg;  // (threads, layer 0's r_CG), decode points
  for (const explore::Point& pt : s.points) {
    if (pt.root["model"]["phase"].as<std::string>() != "decode") continue;
    const scheduler::Problem p = explore::build_problem(s, pt);
    const scheduler::PlacerResult r = none->placer->place(p);
    ASSERT_TRUE(r.plan);
    const si::Inputs in = si::scheinfer_inputs(p, defaults(*p.topo), {});
    const auto& layers = r.choices.at("layers");
    ASSERT_EQ(layers.size(), in.generation.size());
    for (std::size_t i = 0; i < layers.size(); ++i) {
      EXPECT_EQ(layers[i].at("gg").get<double>(), 0.0);
      EXPECT_DOUBLE_EQ(layers[i].at("cg").get<double>(), si::solve_cg(in.hw, in.generation[i], 0).r_cg);
    }
    EXPECT_EQ(r.choices.at("gg_bytes").get<double>(), 0.0);
    r_cg.emplace_back(pt.root["cost"]["threads"].as<int>(), layers[0].at("cg").get<double>());
  }
  std::sort(r_cg.begin(), r_cg.end());
  ASSERT_EQ(r_cg.size(), 5u);
  for (size_t i = 1; i < r_cg.size(); ++i) EXPECT_GT(r_cg[i - 1].second, r_cg[i].second) << r_cg[i].first << " threads";
}

}  // namespace
