// heft: Heterogeneous Earliest Finish Time (Topcuoglu, Hariri and Wu, "Performance-effective
// and low-complexity task scheduling for heterogeneous computing", IEEE TPDS 13(3), 2002).
//
//   w-bar(v)   = mean over devices p of w(v, p)                            (Eq. 1)
//   c-bar(e)   = L-bar + data(e) / B-bar, or the edge's fixed time           (Eq. 2; list_schedule.hpp)
//   rank_u(v)  = w-bar(v) + max over successors s of (c-bar(v, s) + rank_u(s))  (Eq. 3)
//   EST(v, p)  = max(avail(v, p), max over preds u of (AFT(u) + c(u, v)))   (Eq. 4)
//   EFT(v, p)  = w(v, p) + EST(v, p)                                         (Eq. 5)
// Under `weights: host` EST also waits for arrival(v, p), when v's parameters would be on p
// (param_copies.hpp: copies serialised per shared bus); the ranks leave the copies out.
//
// Ops in decreasing rank_u (ties: topological position) each go to the device with the
// smallest EFT (ties: the lowest device index), where avail(v, p) is the start of the first
// idle gap on p long enough for v (insertion policy), or the end of p's last op without it.
// Predicted makespan: the schedule length, max AFT. Cost: O(e p) for the ESTs plus
// O(v p log v) for the gap searches (timeline.hpp: the busy intervals in blocks, with the
// longest gap of each block in a segment tree).
#include <algorithm>

#include "scheduler/placers/builtin.hpp"
#include "scheduler/placers/heft.hpp"

namespace placesim::scheduler {

Schedule heft_schedule(const Problem& p, const std::vector<int>& devices, bool insertion) {
  const models::Graph& g = *p.graph;
  const CommModel comm(p);
  const std::vector<double> rank = upward_rank(p, comm, devices);
  std::vector<int> pos(g.nodes.size(), 0);
  for (size_t k = 0; k < g.topo_order().size(); ++k) pos[g.topo_order()[k]] = static_cast<int>(k);
  std::vector<int> ops = g.ops();
  // Decreasing rank is a topological order when every w-bar > 0; the position breaks ties
  // (and keeps zero-time ops after their predecessors).
  std::stable_sort(ops.begin(), ops.end(), [&](int a, int b) {
    if (rank[a] != rank[b]) return rank[a] > rank[b];
    return pos[a] < pos[b];
  });
  Schedule s(p);
  std::vector<Timeline> line(p.topo->devices.size());
  InputArrivals inputs(p, comm);
  for (int v : ops) {
    inputs.gather(s, v);
    int best = -1;
    double best_start = 0, best_finish = models::kCannotRun;
    for (int d : devices) {
      const double w = p.duration(v, d);
      // EFT(v, d) >= latest_end + w: a device where that is not below the best EFT so far
      // cannot win (ties go to the first), and its EST is not computed.
      if (w == models::kCannotRun || inputs.latest_end() + w >= best_finish) continue;
      const double est = line[d].earliest_start(std::max(inputs.on(d), s.dispatch.ready(0, d)), w, insertion);
      if (est + w < best_finish) best = d, best_start = est, best_finish = est + w;
    }
    line[best].add(best_start, best_finish);
    s.place(v, best, best_start, best_finish);
  }
  return s;
}

namespace {

class Heft final : public Placer {
 public:
  explicit Heft(const PlacerOptions& o) : insertion_(o.get("insertion").boolean()) {}

  PlacerResult place(const Problem& p) const override {
    const Schedule s = heft_schedule(p, p.topo->compute_devices(), insertion_);
    PlacerResult r;
    r.plan = scheduled_plan(p, "heft", s);
    r.predicted_s = s.makespan;
    return r;
  }

 private:
  bool insertion_;
};

}  // namespace

void register_heft(Registry<PlacerEntry>& r) {
  r.add("heft",
        {"HEFT (Topcuoglu 2002): upward-rank list scheduling, each op on the device with the earliest finish time",
         {{"insertion", "true", "true: an op may fill an idle gap between scheduled ops (HEFT's insertion policy)"}},
         PlacerKind::Heuristic,
         [](const PlacerOptions& o) { return std::make_unique<Heft>(o); }});
}

}  // namespace placesim::scheduler
