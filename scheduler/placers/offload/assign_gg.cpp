// Eq. 14: the GPU memory assignment (solver.hpp, assign_gg), and the whole-layer assignment it is
// compared with. Eq. 14's importance is time saved per byte, so with few r_GG steps the greedy
// is the ratio greedy of a knapsack, which a small layer of high ratio can lead astray: with
// n_G = 1, a 1-byte layer saving 2 s (2 s/byte) and a 10-byte layer saving 15 s (1.5 s/byte) in a
// 10-byte budget, it takes the small one and then cannot fit the big one (saves 2 s; the big one
// alone saves 15 s). Seeded random models of unequal layers show the same (tests/scheduler/placers/offload).
#include <cmath>
#include <fmt/format.h>

#include "scheduler/placers/offload/pipeline.hpp"
#include "scheduler/placers/offload/solver.hpp"
#include "scheduler/placers/offload/whole_layers.hpp"
#include "sim/core/error.hpp"

namespace placesim::scheduler::scheinfer {
namespace {

bool same(const Block& a, const Block& b) {
  if (a.gemms.size() != b.gemms.size() || a.launch_before != b.launch_before) return false;
  for (std::size_t i = 0; i < a.gemms.size(); ++i)
    if (a.gemms[i].work != b.gemms[i].work || a.gemms[i].weight_bytes != b.gemms[i].weight_bytes) return false;
  return true;
}

// solve_cg at every r_GG = i / n_G (i = 0..n_G) of every layer. A layer equal to an earlier one
// shares its row (a model's layers are mostly identical, so this is one row per distinct block).
std::vector<std::vector<CgSolution>> solve_all(const Hardware& hw, const std::vector<Block>& layers, int n_G) {
  std::vector<std::vector<CgSolution>> rows(layers.size());
  for (std::size_t j = 0; j < layers.size(); ++j) {
    std::size_t twin = 0;
    while (twin < j && !same(layers[twin], layers[j])) ++twin;
    if (twin < j) {
      rows[j] = rows[twin];
      continue;
    }
    for (int i = 0; i <= n_G; ++i) rows[j].push_back(solve_cg(hw, layers[j], static_cast<double>(i) / n_G));
  }
  return rows;
}

struct Step {
  int level = 0;     // the r_GG level i it goes to
  double gain = 0;   // Eq. 14's importance; only steps that save time (> 0) are taken
  double bytes = 0;  // the GPU bytes it adds
};

// The rates, times and bytes of the layers at r_GG = level / n_G.
GgAssignment assignment(const std::vector<std::vector<CgSolution>>& t, const std::vector<double>& n_m,
                        const std::vector<int>& level, int n_G, const char* source) {
  GgAssignment out;
  out.source = source;
  for (std::size_t j = 0; j < level.size(); ++j) {
    const CgSolution& s = t[j][level[j]];
    const double gg = static_cast<double>(level[j]) / n_G;
    out.layers.push_back({{1 - gg - s.r_cg, s.r_cg, gg}, s.t_fin, s.edge});
    out.bytes += gg * n_m[j];
    out.t_total += s.t_fin;
  }
  return out;
}

}  // namespace

GgAssignment assign_gg(const Hardware& hw, const std::vector<Block>& layers, double budget_bytes, int n_G) {
  const char* who = "scheinfer assign_gg";
  detail::check_hardware(who, hw);
  if (!(budget_bytes >= 0)) throw InputError(fmt::format("{}: the budget is {} bytes; expected >= 0", who, budget_bytes));
  if (n_G < 1) throw InputError(fmt::format("{}: n_G is {}; expected at least 1 r_GG step", who, n_G));
  const std::size_t L = layers.size();
  std::vector<double> n_m(L, 0);  // a layer's weight bytes
  for (std::size_t j = 0; j < L; ++j) {
    detail::check_block(who, layers[j]);
    for (const Gemm& g : layers[j].gemms) n_m[j] += g.weight_bytes;
    if (!(n_m[j] > 0))
      throw InputError(fmt::format("{}: layer {} has no weight bytes; expected every layer to have some", who, j));
  }
  const std::vector<std::vector<CgSolution>> t = solve_all(hw, layers, n_G);
  const auto r_gg = [n_G](int level) { return static_cast<double>(level) / n_G; };
  // A step over the budget by rounding alone still fits, so a budget that holds everything
  // (summed in any order) is spent to the last step.
  const double limit = budget_bytes + 1e-12 * budget_bytes;

  // The greedy keeps each layer's best step that fits; the budget left only shrinks, so a kept
  // step that still fits is still its layer's best, and only the layer that moved, or one whose
  // kept step no longer fits, is looked at again.
  std::vector<int> level(L, 0);
  double used = 0;
  const auto best_step = [&](std::size_t j) {
    Step best;
    const int from = level[j];
    for (int i = from + 1; i <= n_G; ++i) {
      const double bytes = (r_gg(i) - r_gg(from)) * n_m[j];
      if (used + bytes > limit) break;  // bytes grow with i
      const double gain = (t[j][from].t_fin - t[j][i].t_fin) / bytes;
      if (gain > best.gain) best = {i, gain, bytes};
    }
    return best;
  };
  std::vector<Step> kept(L);
  for (std::size_t j = 0; j < L; ++j) kept[j] = best_step(j);
  while (true) {
    std::size_t pick = L;
    for (std::size_t j = 0; j < L; ++j)
      if (kept[j].level > 0 && (pick == L || kept[j].gain > kept[pick].gain)) pick = j;
    if (pick == L) break;
    used += kept[pick].bytes;
    level[pick] = kept[pick].level;
    kept[pick] = best_step(pick);
    for (std::size_t j = 0; j < L; ++j)
      if (kept[j].level > 0 && used + kept[j].bytes > limit) kept[j] = best_step(j);
  }

  // Whole layers: r_GG = 0 or 1 (level 0 or n_G), chosen exactly.
  std::vector<double> gain(L);
  for (std::size_t j = 0; j < L; ++j) gain[j] = t[j][0].t_fin - t[j][n_G].t_fin;
  const std::vector<bool> on = detail::best_whole_layers(n_m, gain, limit);
  std::vector<int> whole(L, 0);
  for (std::size_t j = 0; j < L; ++j) whole[j] = on[j] ? n_G : 0;

  const GgAssignment greedy = assignment(t, n_m, level, n_G, "greedy (Eq. 14)");
  GgAssignment layers_only = assignment(t, n_m, whole, n_G, "whole layers");
  return layers_only.t_total < greedy.t_total ? layers_only : greedy;
}

}  // namespace placesim::scheduler::scheinfer
