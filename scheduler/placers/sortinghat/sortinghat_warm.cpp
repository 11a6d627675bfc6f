// The two starting assignments of the header.
#include "scheduler/placers/sortinghat/sortinghat_warm.hpp"

#include <algorithm>

namespace placesim::scheduler::sortinghat {

std::optional<std::vector<int>> slots_from_plan(const SubInput& sub, const models::Submodel& sm, const Machine& mc,
                                                const Plan& plan) {
  const ShInput& in = sub.in;
  std::vector<int> slot(in.n, -1), gpu(in.n, -1);
  std::vector<int> pos(in.k, 0);  // position of the GPU's open run (0: none yet)
  std::vector<bool> open(in.k, false);
  for (auto [v, i] : in.fixed) slot[v] = i * in.q + 1, gpu[v] = i, pos[i] = 1;
  std::vector<int> index(sm.graph.nodes.size(), -1);
  for (int x = 0; x < in.n; ++x) index[sub.node_of[x]] = x;
  std::vector<std::vector<int>> preds(in.n);
  for (auto [u, v] : in.edges) preds[v].push_back(u);
  for (int node : sm.graph.topo_order()) {
    const int v = index[node];
    if (v < 0 || in.is_param[v] || slot[v] >= 0) continue;
    const int orig = sm.original[node];
    const auto g = std::find(mc.gpus.begin(), mc.gpus.end(), orig < 0 ? -1 : plan.device_of[orig]);
    if (g == mc.gpus.end()) return std::nullopt;
    const int i = static_cast<int>(g - mc.gpus.begin());
    // DHA slot (odd position) when the plan reads every parameter of v by DHA.
    bool dha = false;
    if (in.dha) {
      dha = true;
      bool any = false;
      for (int u : preds[v])
        if (in.is_param[u]) {
          any = true;
          dha = dha && plan.delivery(sm.original[sub.node_of[u]], *g).read_by_dha(orig);
        }
      dha = dha && any;
    }
    bool fresh = !open[i] || (in.dha && (pos[i] % 2 == 1) != dha);
    for (int u : preds[v])
      if (gpu[u] >= 0 && gpu[u] != i && open[gpu[u]] && slot[u] == gpu[u] * in.q + pos[gpu[u]])
        open[gpu[u]] = false, fresh = true;  // an open run read by another GPU closes, and so does ours
    if (fresh) {
      ++pos[i];
      if (in.dha && (pos[i] % 2 == 1) != dha) ++pos[i];
      open[i] = true;
    }
    if (pos[i] > in.q) return std::nullopt;
    slot[v] = i * in.q + pos[i];
    gpu[v] = i;
  }
  for (auto [w, v] : in.edges)  // edges are in graph order: the first listed reader
    if (in.is_param[w] && slot[w] < 0) slot[w] = in.slot_dha(slot[v]) ? 0 : slot[v];
  return slot;
}

std::vector<int> trivial_slots(const ShInput& in) {
  auto room = [&](int i) { return in.capacity[i] <= 0 ? 1e300 : in.capacity[i] - in.prev_m[i]; };  // 0: unlimited
  int gpu = 0;
  for (int i = 1; i < in.k; ++i)
    if (room(i) > room(gpu)) gpu = i;
  // Next to the placeholder (where the data is) unless the submodel does not fit there.
  double need = 0;
  for (int v = 0; v < in.n; ++v) need += in.mem[v];
  if (!in.fixed.empty() && room(in.fixed.front().second) >= need) gpu = in.fixed.front().second;
  std::vector<int> slot(in.n, gpu * in.q + std::min(2, in.q));
  for (auto [v, i] : in.fixed) slot[v] = i * in.q + 1;
  return slot;
}

}  // namespace placesim::scheduler::sortinghat
