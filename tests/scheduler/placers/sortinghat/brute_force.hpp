// An evaluator of SortingHat's MILP (sortinghat.md Eq. 1-23, with the changes the model header
// lists) written from the equations, not from the model builder: it enumerates every slot of
// every node, keeps the assignments the discrete rules allow, derives EdgeIn, CopyIn and
// reachability from them, and the times as the least solution of Eq. 12-22 (longest paths:
// repeated sweeps; still changing after more sweeps than slots means a cycle of positive time,
// no schedule). The optimum is the least TotalLatency (Eq. 23) over those assignments.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "scheduler/placers/sortinghat/sortinghat_model.hpp"

namespace sortinghat_test {

using placesim::scheduler::sortinghat::ShInput;

inline int gpu(const ShInput& in, int j) { return (j - 1) / in.q; }
inline int position(const ShInput& in, int j) { return (j - 1) % in.q + 1; }  // 1..q on its GPU
inline bool dha_slot(const ShInput& in, int j) { return in.dha && position(in, j) % 2 == 1; }

// TotalLatency of one assignment, or none when it breaks a rule.
inline std::optional<double> evaluate(const ShInput& in, const std::vector<int>& slot) {
  const int S = in.k * in.q + 1, n = in.n;
  for (auto [v, i] : in.fixed)
    if (slot[v] != i * in.q + 1) return std::nullopt;
  for (int v = 0; v < n; ++v) {
    if (slot[v] == 0 && !(in.is_param[v] && in.dha)) return std::nullopt;
    if (!in.is_param[v]) {
      const double p = dha_slot(in, slot[v]) ? in.p_dha[v][gpu(in, slot[v])] : in.p_gpu[v][gpu(in, slot[v])];
      if (!std::isfinite(p)) return std::nullopt;
    }
  }
  for (auto [u, v] : in.edges) {
    if (in.is_param[u] && !in.is_param[v] && in.dha && (slot[u] == 0) != dha_slot(in, slot[v])) return std::nullopt;
    // a later slot of one GPU never feeds an earlier one
    if (!in.is_param[u] && gpu(in, slot[u]) == gpu(in, slot[v]) && slot[v] < slot[u]) return std::nullopt;
  }
  // Contiguity: leaving slot j along an edge, no path may come back into j.
  std::vector<std::vector<int>> succ(n);
  for (auto [u, v] : in.edges) succ[u].push_back(v);
  for (auto [u, v] : in.edges) {
    if (slot[u] == 0 || slot[v] == slot[u]) continue;
    std::vector<int> stack{v};
    std::vector<bool> seen(n, false);
    while (!stack.empty()) {
      const int w = stack.back();
      stack.pop_back();
      if (seen[w]) continue;
      seen[w] = true;
      if (slot[w] == slot[u]) return std::nullopt;
      for (int x : succ[w]) stack.push_back(x);
    }
  }
  // feeds[v][j]: v has an edge into slot j from outside it (EdgeIn); CopyIn when v sits on another GPU.
  std::vector<std::vector<bool>> feeds(n, std::vector<bool>(S, false));
  for (auto [u, v] : in.edges)
    if (slot[u] != slot[v]) feeds[u][slot[v]] = true;
  auto copied_in = [&](int v, int j) { return feeds[v][j] && slot[v] > 0 && gpu(in, slot[v]) != gpu(in, j); };
  // Memory (Eq. 11).
  for (int i = 0; i < in.k; ++i) {
    if (in.capacity[i] <= 0) continue;
    double used = in.prev_m[i];
    for (int v = 0; v < n; ++v)
      for (int j = i * in.q + 1; j <= (i + 1) * in.q; ++j) used += in.mem[v] * ((slot[v] == j) + copied_in(v, j));
    if (used > in.capacity[i] * (1 + 1e-9)) return std::nullopt;
  }
  // Parameter copies (Eq. 12-14): round robin over the bus's GPUs' slots.
  std::vector<double> dt_fin(S, 0);
  for (int b = 0; b < in.buses; ++b) {
    double t = in.prev_dt_fin[b];
    for (int r = 1; r <= in.q; ++r)
      for (int i = 0; i < in.k; ++i) {
        if (in.bus_of[i] != b) continue;
        const int j = i * in.q + r;
        for (int w = 0; w < n; ++w)
          if (in.is_param[w] && slot[w] == j) t += in.dt_s[w][i];
        dt_fin[j] = t;
      }
  }
  // Subgraphs (Eq. 15-22): least fixed point by sweeps.
  std::vector<double> sg_fin(S, 0);
  auto node_fin = [&](int v) { return in.is_param[v] ? (slot[v] == 0 ? 0.0 : dt_fin[slot[v]]) : sg_fin[slot[v]]; };
  for (int sweep = 0;; ++sweep) {
    bool changed = false;
    for (int j = 1; j < S; ++j) {
      const int i = gpu(in, j);
      double start = position(in, j) == 1 ? in.prev_sg_fin[i] : sg_fin[j - 1];
      double work = 0;
      for (int v = 0; v < n; ++v) {
        if (feeds[v][j]) start = std::max(start, node_fin(v));
        if (copied_in(v, j)) work += in.copy_s[v][gpu(in, slot[v])][i];
        if (!in.is_param[v] && slot[v] == j) work += dha_slot(in, j) ? in.p_dha[v][i] : in.p_gpu[v][i];
      }
      for (auto [w, v] : in.edges)  // Eq. 20: a parameter in the slot of its reader
        if (in.is_param[w] && slot[w] == j && slot[v] == j) start = std::max(start, node_fin(w));
      if (start + work > sg_fin[j] + 1e-12 * (1 + sg_fin[j])) sg_fin[j] = start + work, changed = true;
    }
    if (!changed) break;
    if (sweep > 2 * S + 2) return std::nullopt;
  }
  double total = 0;
  for (int i = 0; i < in.k; ++i) total = std::max(total, sg_fin[(i + 1) * in.q]);
  return total;
}

// The least TotalLatency over every assignment (none when no assignment is feasible).
inline std::optional<double> brute_force(const ShInput& in) {
  const int S = in.k * in.q + 1;
  std::vector<int> slot(in.n, 0);
  for (int v = 0; v < in.n; ++v) slot[v] = (in.is_param[v] && in.dha) ? 0 : 1;
  std::optional<double> best;
  while (true) {
    if (auto t = evaluate(in, slot)) best = best ? std::min(*best, *t) : *t;
    int v = 0;
    for (; v < in.n; ++v) {
      if (++slot[v] < S) break;
      slot[v] = (in.is_param[v] && in.dha) ? 0 : 1;
    }
    if (v == in.n) break;
  }
  return best;
}

}  // namespace sortinghat_test
