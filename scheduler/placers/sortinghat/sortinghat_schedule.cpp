// merge_plan: the tasks of the queues the header describes, in their order; build_plan lays the
// queues out (booked copies and ready queues).
#include "scheduler/placers/sortinghat/sortinghat_schedule.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "scheduler/plan/builder.hpp"
#include "scheduler/plan/names.hpp"

namespace placesim::scheduler::sortinghat {

Plan merge_plan(const Problem& p, const Machine& mc, const std::vector<SolvedSubmodel>& subs, std::string placer) {
  const models::Graph& g = *p.graph;
  std::vector<int> device_of(g.nodes.size(), -1);
  BuildOptions opts;
  std::vector<std::vector<ParamCopy>> copy(mc.buses);  // per bus, so that the bus queues come in bus order
  std::set<std::pair<int, int>> delivered;     // (graph node, device): copied there
  std::map<std::pair<int, int>, std::vector<int>> dha_ops;  // (parameter, device): ops reading it by DHA
  // A delivery not yet made. A parameter read by direct host access there so far is copied for
  // the readers from now on; those before keep reading it from host memory.
  auto fresh = [&](int node, int dev) {
    if (!delivered.insert({node, dev}).second) return false;
    if (auto it = dha_ops.find({node, dev}); it != dha_ops.end()) opts.params[{node, dev}] = {.dha_readers = it->second};
    return true;
  };
  auto deliver = [&](int node, int dev) {
    if (fresh(node, dev)) opts.ready[dev].push_back({PlanItem::Kind::Deliver, node, dev});
  };
  // PT: a parameter the MILP placed in a slot of GPU `from`, read on `dev`, is forwarded whole
  // from `from`'s copy over T_{from,dev}; without such a copy (the parameter read by DHA there)
  // `dev` copies it from host memory.
  auto forward = [&](int node, int from, int dev) {
    if (!fresh(node, dev)) return;
    const auto own = opts.params.find({node, from});
    if (!delivered.count({node, from}) || (own != opts.params.end() && own->second.via != ParamDelivery::Via::Copy)) {
      opts.ready[dev].push_back({PlanItem::Kind::Deliver, node, dev});
      return;
    }
    ParamDelivery& d = opts.params[{node, dev}];
    d.via = ParamDelivery::Via::Parallel;
    d.neighbour = from;
    d.fraction = 1;
    opts.ready[dev].push_back({PlanItem::Kind::Deliver, node, dev});
    opts.ready[dev].push_back({PlanItem::Kind::Forward, node, dev});
  };

  for (const SolvedSubmodel& s : subs) {
    const ShInput& in = s.sub.in;
    const models::Graph& sg = s.sm->graph;
    auto original = [&](int x) {
      const int v = s.sub.node_of[x];
      return s.sm->original[v] >= 0 ? s.sm->original[v] : s.point;
    };
    std::vector<int> pos(sg.nodes.size());
    for (size_t r = 0; r < sg.topo_order().size(); ++r) pos[sg.topo_order()[r]] = static_cast<int>(r);
    std::vector<int> by_pos(in.n);
    for (int x = 0; x < in.n; ++x) by_pos[x] = x;
    std::sort(by_pos.begin(), by_pos.end(), [&](int a, int b) { return pos[s.sub.node_of[a]] < pos[s.sub.node_of[b]]; });
    for (int x = 0; x < in.n; ++x)
      if (!in.is_param[x] && s.sm->original[s.sub.node_of[x]] >= 0)
        device_of[original(x)] = mc.gpus[in.gpu_of_slot(s.sol.slot_of[x])];
    // Slot 0: direct host access on every GPU that reads the parameter (and has no copy).
    for (auto [w, v] : in.edges)
      if (in.is_param[w] && s.sol.slot_of[w] == 0) {
        const int dev = mc.gpus[in.gpu_of_slot(s.sol.slot_of[v])];
        if (delivered.count({original(w), dev})) continue;
        opts.params[{original(w), dev}].via = ParamDelivery::Via::Dha;
        std::vector<int>& ops = dha_ops[{original(w), dev}];
        if (std::find(ops.begin(), ops.end(), original(v)) == ops.end()) ops.push_back(original(v));
      }
    // CopyParam queues.
    const auto order = in.dt_order();
    for (int b = 0; b < mc.buses; ++b)
      for (int j : order[b]) {
        const int dev = mc.gpus[in.gpu_of_slot(j)];
        for (int x : by_pos)
          if (in.is_param[x] && s.sol.slot_of[x] == j && fresh(original(x), dev))
            copy[b].push_back({original(x), dev, bus_copy_queue_name(b)});
      }
    // ExecSubgraph queues.
    for (int j = 1; j < in.slots(); ++j) {
      const int i = in.gpu_of_slot(j);
      const int dev = mc.gpus[i];
      std::vector<int> ops;
      for (int x : by_pos)
        if (!in.is_param[x] && s.sol.slot_of[x] == j && s.sm->original[s.sub.node_of[x]] >= 0) ops.push_back(x);
      // Copies in: parameters of other GPUs' slots (PT), parameters the model left out, then op results.
      for (int pass = 0; pass < 2; ++pass)
        for (int x : ops)
          for (int e : sg.in_edges(s.sub.node_of[x])) {
            const int u = sg.edges[e].src;
            const int orig = s.sm->original[u] >= 0 ? s.sm->original[u] : s.point;
            const bool param = sg.nodes[u].kind == models::NodeKind::Param;
            if (pass == 0 && param && p.weights == WeightsMode::Host) {
              const auto it = std::find(s.sub.node_of.begin(), s.sub.node_of.end(), u);
              const int slot = it == s.sub.node_of.end() ? -1 : s.sol.slot_of[it - s.sub.node_of.begin()];
              if (slot < 0) deliver(orig, dev);
              else if (slot != 0 && in.gpu_of_slot(slot) != i) forward(orig, mc.gpus[in.gpu_of_slot(slot)], dev);
            }
            if (pass == 1 && !param && device_of[orig] != dev) deliver(orig, dev);
          }
      for (int x : ops) opts.ready[dev].push_back({PlanItem::Kind::Compute, original(x), -1});
    }
  }
  for (const auto& bus : copy) opts.copies.insert(opts.copies.end(), bus.begin(), bus.end());
  return build_plan(p, std::move(placer), std::move(device_of), g.ops(), opts);
}

}  // namespace placesim::scheduler::sortinghat
