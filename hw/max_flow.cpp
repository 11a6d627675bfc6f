#include "hw/max_flow.hpp"

#include <algorithm>
#include <limits>
#include <queue>

namespace placesim::hw {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

class Dinic {
 public:
  explicit Dinic(int n) : adj_(n), level_(n), next_(n) {}
  void add(int a, int b, double cap) {
    adj_[a].push_back(static_cast<int>(arcs_.size()));
    arcs_.push_back({b, cap});
    adj_[b].push_back(static_cast<int>(arcs_.size()));
    arcs_.push_back({a, 0});
  }
  double run(int s, int t) {
    double total = 0;
    while (levels(s, t)) {
      std::fill(next_.begin(), next_.end(), 0);
      for (double f; (f = push(s, t, kInf)) > 0;) total += f;
    }
    return total;
  }

 private:
  struct Arc {
    int to;
    double cap;
  };
  // A relative residue below this is rounding, not capacity: it would loop forever.
  static bool open(double cap) { return cap > 1e-9; }
  bool levels(int s, int t) {
    std::fill(level_.begin(), level_.end(), -1);
    std::queue<int> q;
    level_[s] = 0;
    q.push(s);
    while (!q.empty()) {
      const int v = q.front();
      q.pop();
      for (int a : adj_[v])
        if (open(arcs_[a].cap) && level_[arcs_[a].to] < 0) {
          level_[arcs_[a].to] = level_[v] + 1;
          q.push(arcs_[a].to);
        }
    }
    return level_[t] >= 0;
  }
  double push(int v, int t, double f) {
    if (v == t) return f;
    for (int& i = next_[v]; i < static_cast<int>(adj_[v].size()); ++i) {
      Arc& a = arcs_[adj_[v][i]];
      if (!open(a.cap) || level_[a.to] != level_[v] + 1) continue;
      if (const double got = push(a.to, t, std::min(f, a.cap)); got > 0) {
        a.cap -= got;
        arcs_[adj_[v][i] ^ 1].cap += got;
        return got;
      }
    }
    return 0;
  }
  std::vector<std::vector<int>> adj_;
  std::vector<Arc> arcs_;
  std::vector<int> level_, next_;
};

}  // namespace

double max_flow(const Topology& topo, const std::vector<int>& sources, const std::vector<int>& sinks) {
  if (topo.network_ideal || sources.empty() || sinks.empty()) return 0;
  const int n = static_cast<int>(topo.devices.size()), s = n, t = n + 1;
  // Capacities in GB/s: the bandwidths' own scale (1e9 .. 1e12) would drown the rounding guard.
  constexpr double kScale = 1e-9;
  Dinic d(n + 2);
  for (const Link& l : topo.links) {
    d.add(l.a, l.b, l.bw_ab * kScale);
    d.add(l.b, l.a, l.bw_ba * kScale);
  }
  for (int v : sources) d.add(s, v, topo.devices[v].memory_bw > 0 ? topo.devices[v].memory_bw * kScale : kInf);
  for (int v : sinks) d.add(v, t, kInf);
  return d.run(s, t) / kScale;
}

}  // namespace placesim::hw
