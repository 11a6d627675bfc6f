// autoddl-2d: AutoDDL's symmetric 2D tensor parallelism (as AsymGroup measures it, section II-D
// and Fig. 2/5) on G GPUs: a k x (G/k) grid, k dividing G, group t the t-th run of G/k GPUs in
// the order given (so a group sits inside a node where it fits). Every linear layer is wrapped
// in an all-gather among the GPUs at the same position of every group and a reduce-scatter
// inside each group (grid_design.hpp). The input is split equally among the nodes whatever
// their GPU count, so a GPU's share is 1 / (the nodes x the GPUs of its node in the grid).
// k: given, or the divisor of G whose plan has the smallest bulk-synchronous estimate (ties:
// the smaller k); the estimate is also the prediction.
#include <fmt/format.h>

#include <map>

#include "scheduler/placers/builtin.hpp"
#include "scheduler/placers/device_option.hpp"
#include "scheduler/placers/tensor_parallel/grid_design.hpp"

namespace placesim::scheduler {
namespace {

class AutoDdl2d final : public Placer {
 public:
  explicit AutoDdl2d(const PlacerOptions& o)
      : devices_(o.get("devices")), k_(tp::count_option(o.get("k"), "k", "auto")), k_loc_(o.get("k").loc()) {}

  PlacerResult place(const Problem& p) const override {
    const std::vector<tp::DecoderOp> ops = tp::decoder_roles(*p.graph, "autoddl-2d");
    const std::vector<int> gpus = devices_.resolve(*p.topo);
    const int G = static_cast<int>(gpus.size());
    if (k_ > 0 && (k_ > G || G % k_ != 0))
      throw InputError(k_loc_, fmt::format("autoddl-2d: k = {} does not divide the {} GPUs into equal groups", k_, G));
    std::map<std::string, int> per_node;
    for (int d : gpus) ++per_node[p.topo->devices[d].node];
    PlacerResult best;
    int best_k = 0;
    for (int k = 1; k <= G; ++k) {
      if (G % k != 0 || (k_ > 0 && k != k_)) continue;
      tp::Grid grid;
      grid.per_linear = p.linear_volume == LinearVolume::PerLinear;
      for (int t = 0; t < k; ++t) {
        grid.groups.emplace_back(gpus.begin() + t * (G / k), gpus.begin() + (t + 1) * (G / k));
        std::vector<double>& weight = grid.weight.emplace_back();
        for (int d : grid.groups.back()) weight.push_back(1.0 / per_node[p.topo->devices[d].node]);
      }
      PlacerResult r;
      tp::TpPlan built = tp::build_tp_plan(p, "autoddl-2d", tp::grid_design(*p.graph, ops, grid));
      r.predicted_s = tp::bsp_seconds(p, built);
      r.plan = std::move(built.plan);
      if (!best.plan || *r.predicted_s < *best.predicted_s) best = std::move(r), best_k = k;
    }
    best.message = fmt::format("k = {} groups of {} GPUs", best_k, G / best_k);
    best.choices = {{"k", best_k}};
    return best;
  }

 private:
  DeviceOption devices_;
  int k_ = 0;  // 0: auto
  SourceLoc k_loc_;
};

}  // namespace

void register_autoddl_2d(Registry<PlacerEntry>& r) {
  r.add("autoddl-2d",
        {"AutoDDL symmetric 2D tensor parallelism: a k x (G/k) grid, an all-gather before and a reduce-scatter after "
         "every linear, the input split equally among nodes; best k by its estimate",
         {DeviceOption::spec(), {"k", "auto", "groups (k divides the GPU count), or auto: the best divisor"}},
         PlacerKind::Heuristic,
         [](const PlacerOptions& o) { return std::make_unique<AutoDdl2d>(o); },
         PlacerFacts{.needs = {.transformer = true, .dense = true},
                     .bounded_by = {},
                     .unbounded_why = "its plans split ops over devices",
                     .sample = {.hardware = "pcie-4gpu-2bus", .weights = WeightsMode::Resident}}});
}

}  // namespace placesim::scheduler
