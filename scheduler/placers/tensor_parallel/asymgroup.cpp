// asymgroup: AsymGroup's capability-aware 2D tensor parallelism (IEEE Access 2025, section V) on
// the nodes of the chosen GPUs:
//   * capability per node: the sum over its GPUs of each GPU's peak for the model's dtype
//     (`capability: topology`), or its GPU count (`gpus`), or a list given per node in node order;
//   * the groups: AsymGroup's greedy reassignment (V-C) from the even start, over every k from 1 to
//     the node count (or the `k` given), least Eq. 5 volume first (scheduler/placers/tensor_parallel/
//     asymgroup_cost.hpp), or the `groups` given (lists of node names). `cost: linears` weighs
//     Eq. 3 and Eq. 4 by what the plan's linears gather and scatter (their inputs and outputs,
//     as the problem's LinearVolume has them) instead of Eq. 5's one activation on both sides;
//   * the plan (grid_design.hpp, capability mode): every linear split by columns between the groups
//     in proportion to their capability and by rows within a group in proportion to each GPU's,
//     an inter-group all-gather sliced by capability before it and a capability-weighted
//     reduce-scatter inside each group after it; every other op on each GPU's share of the data.
// A GPU's weight is its node's capability shared among the node's GPUs by their peaks. The
// prediction is the plan's bulk-synchronous estimate (tp_plan.hpp); the message and the choices
// give k, the groups and the Eq. 5 volume of one linear's input.
#include <fmt/format.h>

#include <map>

#include "models/cost/cost_model.hpp"
#include "scheduler/placers/tensor_parallel/asymgroup_cost.hpp"
#include "scheduler/placers/builtin.hpp"
#include "scheduler/placers/device_option.hpp"
#include "scheduler/placers/tensor_parallel/grid_design.hpp"
#include "sim/core/units.hpp"

namespace placesim::scheduler {
namespace {

struct Node {
  std::string name;
  std::vector<int> gpus;
};

class AsymGroup final : public Placer {
 public:
  explicit AsymGroup(const PlacerOptions& o) : devices_(o.get("devices")) {
    k_ = tp::count_option(o.get("k"), "k", "auto");
    k_loc_ = o.get("k").loc();
    const Yaml cost = o.get("cost");
    if (cost.str() != "eq5" && cost.str() != "linears")
      cost.fail(fmt::format("cost must be eq5 or linears, got '{}'", cost.str()));
    by_linears_ = cost.str() == "linears";
    const Yaml cap = o.get("capability");
    cap_loc_ = cap.loc();
    if (cap.is_seq()) {
      for (const Yaml& c : cap.items()) given_.push_back(c.positive_number());
    } else if (cap.str() == "gpus" || cap.str() == "topology") {
      by_gpu_count_ = cap.str() == "gpus";
    } else {
      cap.fail(fmt::format("capability must be topology, gpus or a list of numbers per node, got '{}'", cap.str()));
    }
    const Yaml groups = o.get("groups");
    groups_loc_ = groups.loc();
    if (!(groups.is_scalar() && groups.str() == "auto")) {
      if (groups.items().empty()) groups.fail("expected auto or at least one group (a list of node names)");
      for (const Yaml& grp : groups.items()) {
        if (grp.items().empty()) grp.fail("expected a group of at least one node name");
        std::vector<std::string>& names = groups_.emplace_back();
        for (const Yaml& n : grp.items()) names.push_back(n.str());
      }
    }
  }

  PlacerResult place(const Problem& p) const override {
    const std::vector<tp::DecoderOp> ops = tp::decoder_roles(*p.graph, "asymgroup");
    const hw::Topology& topo = *p.topo;
    std::vector<Node> nodes;  // in order of their first GPU
    for (int d : devices_.resolve(topo)) {
      const std::string& name = topo.devices[d].node;
      auto it = std::find_if(nodes.begin(), nodes.end(), [&](const Node& n) { return n.name == name; });
      if (it == nodes.end()) nodes.push_back({name, {d}});
      else it->gpus.push_back(d);
    }
    // Capabilities: per GPU its peak, per node their sum (or its GPU count, or as given).
    auto peak = [&](int d) { return models::RooflineCost::peak_flops(topo.devices[d], p.graph->dtype); };
    asymgroup::Capabilities c;
    for (const Node& n : nodes) {
      double sum = 0;
      for (int d : n.gpus) sum += by_gpu_count_ ? 1.0 : peak(d);
      c.push_back(sum);
    }
    if (!given_.empty()) {
      if (given_.size() != nodes.size())
        throw InputError(cap_loc_, fmt::format("capability lists {} nodes, the GPUs are on {}", given_.size(), nodes.size()));
      c = given_;
    }
    asymgroup::SearchOptions so;
    if (k_ > 0) {
      if (k_ > static_cast<int>(nodes.size()))
        throw InputError(k_loc_, fmt::format("asymgroup: k = {} groups, but the GPUs are on {} nodes", k_, nodes.size()));
      so.k = k_;
    }
    for (const auto& names : groups_) {
      std::vector<int>& grp = so.groups.emplace_back();
      for (const std::string& name : names) {
        auto it = std::find_if(nodes.begin(), nodes.end(), [&](const Node& n) { return n.name == name; });
        if (it == nodes.end()) throw InputError(groups_loc_, fmt::format("groups: no node '{}' among the GPUs' nodes", name));
        grp.push_back(static_cast<int>(it - nodes.begin()));
      }
    }
    if (!so.groups.empty() && k_ > 0) throw InputError(k_loc_, "asymgroup: give k or groups, not both");
    const models::Graph& g = *p.graph;
    const asymgroup::SearchResult found = asymgroup::search_groups(c, payload(g, ops, p.linear_volume), so);
    tp::Grid grid;
    grid.capability = true;
    grid.per_linear = p.linear_volume == LinearVolume::PerLinear;
    for (const std::vector<int>& grp : found.groups) {
      std::vector<int>& devs = grid.groups.emplace_back();
      std::vector<double>& w = grid.weight.emplace_back();
      for (int n : grp) {
        double node_peak = 0;
        for (int d : nodes[n].gpus) node_peak += peak(d);
        for (int d : nodes[n].gpus) {
          devs.push_back(d);
          w.push_back(c[n] * peak(d) / node_peak);
        }
      }
    }
    PlacerResult r;
    tp::TpPlan built = tp::build_tp_plan(p, "asymgroup", tp::grid_design(g, ops, grid));
    r.predicted_s = tp::bsp_seconds(p, built);
    r.plan = std::move(built.plan);
    std::string groups;
    nlohmann::ordered_json group_names = nlohmann::ordered_json::array();
    for (const std::vector<int>& grp : found.groups) {
      groups += groups.empty() ? "[" : " [";
      for (size_t i = 0; i < grp.size(); ++i) groups += (i ? " " : "") + nodes[grp[i]].name;
      groups += "]";
      nlohmann::ordered_json& names = group_names.emplace_back(nlohmann::ordered_json::array());
      for (int n : grp) names.push_back(nodes[n].name);
    }
    r.message = fmt::format("k = {}: {}; volume {} {} (its cost model)", found.k, groups,
                            units::format_bytes(found.volume.total), by_linears_ ? "over every linear" : "per linear");
    r.choices = {{"k", found.k}, {"groups", group_names}, {"volume_bytes", found.volume.total}};
    return r;
  }

 private:
  DeviceOption devices_;
  // What the search weighs: Eq. 5's B = the first linear's input (a N h) on both sides, or every
  // split linear's input gathered and output scattered (grid_design.hpp: the narrower of the two
  // on both sides under per-linear volume).
  asymgroup::Payload payload(const models::Graph& g, const std::vector<tp::DecoderOp>& ops, LinearVolume volume) const {
    double B = 1, gathered = 0, scattered = 0;
    bool first = true;
    for (const tp::DecoderOp& op : ops) {
      if (op.role != tp::Role::ColumnIn && op.role != tp::Role::RowOut) continue;
      double in = 0;
      bool fed = false;  // an op feeds it (not only graph inputs)
      for (int e : g.in_edges(op.node))
        if (g.nodes[g.edges[e].src].kind == models::NodeKind::Op) in = g.nodes[g.edges[e].src].output_bytes, fed = true;
      if (first && op.role == tp::Role::ColumnIn) {
        if (fed) B = in;
        first = false;
      }
      if (!tp::owns_params(g, op.node)) continue;  // a tied head: replicated, not on the grid
      const double out = g.nodes[op.node].output_bytes;
      const double narrower = std::min(in, out);
      gathered += volume == LinearVolume::PerLinear ? narrower : in;
      scattered += volume == LinearVolume::PerLinear ? narrower : out;
    }
    return by_linears_ ? asymgroup::Payload(gathered, scattered) : asymgroup::Payload(B);
  }

  int k_ = 0;  // 0: every k
  bool by_linears_ = false;
  SourceLoc k_loc_, cap_loc_, groups_loc_;
  bool by_gpu_count_ = false;
  std::vector<double> given_;
  std::vector<std::vector<std::string>> groups_;  // empty: search
};

}  // namespace

void register_asymgroup(Registry<PlacerEntry>& r) {
  r.add("asymgroup",
        {"AsymGroup: capability-proportional 2D tensor parallelism on asymmetric nodes, groups by greedy reassignment "
         "on its communication cost model over every k",
         {DeviceOption::spec(),
          {"k", "auto", "number of groups, or auto: every k from 1 to the node count"},
          {"groups", "auto", "fixed groups as lists of node names (no search), or auto"},
          {"capability", "topology", "per node: topology (its GPUs' peaks), gpus (GPU count) or a list of numbers"},
          {"cost", "eq5",
           "what the group search weighs: eq5 (one linear's activation gathered and scattered, the paper's) or "
           "linears (every linear's input gathered and output scattered, as the plan sends them)"}},
         PlacerKind::Heuristic,
         [](const PlacerOptions& o) { return std::make_unique<AsymGroup>(o); },
         PlacerFacts{.needs = {.transformer = true, .dense = true},
                     .bounded_by = {},
                     .unbounded_why = "its plans split ops over devices",
                     .sample = {.hardware = "asymgroup-s1", .weights = WeightsMode::Resident}}});
}

}  // namespace placesim::scheduler
