#include "scheduler/placers/offload/cpu_gpu_plan.hpp"

#include <cmath>
#include <fmt/format.h>
#include <set>

#include "scheduler/placers/tensor_parallel/tp_plan.hpp"
#include "scheduler/plan/names.hpp"
#include "scheduler/plan/slices.hpp"
#include "sim/core/error.hpp"

namespace placesim::scheduler::offload {
namespace {

using models::Axis;
using Via = ParamDelivery::Via;

void check(const models::Graph& g, const Expert& e, const Slicing& s) {
  const std::string& name = g.nodes[e.row_gemm].name;
  for (double r : {s.cc, s.cg, s.gg})
    if (!(r >= 0 && r <= 1))
      throw InputError(fmt::format("slicing of '{}': a slice rate must be in [0, 1], got {}", name, r));
  if (std::abs(s.cc + s.cg + s.gg - 1) > 1e-9)
    throw InputError(fmt::format("slicing of '{}': the rates CC {} + CG {} + GG {} must sum to 1", name, s.cc, s.cg, s.gg));
  if (!(s.gpu_tokens >= 0 && s.gpu_tokens <= 1))
    throw InputError(fmt::format("slicing of '{}': the share of the prompt's tokens the GPU computes with CC's "
                                 "weights must be in [0, 1], got {}",
                                 name, s.gpu_tokens));
}

// The slices of one op of a sliced expert along `axis`, in the order CC, CG', CG, GG, and which
// of them live where: what the plan needs to deliver each slice's weight.
enum class Part { CC, CGPrime, CG, GG };
struct Sliced {
  PlanSplit split;
  std::vector<Part> parts;
};

Sliced slice(Axis axis, const Slicing& s, int cpu, int gpu) {
  Sliced out;
  out.split.axis = axis;
  const bool prompt = s.cc > 0 && s.gpu_tokens > 0;
  if (prompt) out.split.inner = Axis::Tokens;
  auto add = [&](Part part, int dev, double share, double inner) {
    if (share <= 0 || inner <= 0) return;
    out.split.slices.push_back({dev, share, inner});
    out.parts.push_back(part);
  };
  add(Part::CC, cpu, s.cc, prompt ? 1 - s.gpu_tokens : 1);
  if (prompt) add(Part::CGPrime, gpu, s.cc, s.gpu_tokens);
  add(Part::CG, gpu, s.cg, 1);
  add(Part::GG, gpu, s.gg, 1);
  return out;
}

}  // namespace

double param_bytes(const models::Graph& g, int op) {
  double b = 0;
  for (int e : g.in_edges(op))
    if (g.nodes[g.edges[e].src].kind == models::NodeKind::Param) b += g.nodes[g.edges[e].src].param_bytes;
  return b;
}

namespace {

// The tensor-parallel design of `d`: each sliced expert's ops split into their parts (an expert
// of one part left whole where it lies), joined by an all-reduce after its row GEMM; `parts`:
// per split op, the part each slice is.
tp::TpDesign tp_design(const models::Graph& g, const Design& d, std::map<int, std::vector<Part>>& parts) {
  tp::TpDesign td;
  td.device_of = d.device_of;
  for (const auto& [e, s] : d.sliced) {
    check(g, e, s);
    const Sliced cols = slice(Axis::Cols, s, d.cpu, d.gpu);
    const Sliced rows = slice(Axis::Rows, s, d.cpu, d.gpu);
    if (cols.parts.size() == 1) {  // one part: the expert stays whole where it lies
      const int dev = cols.split.slices.front().device;
      for (int op : e.col_gemms) td.device_of[op] = dev;
      for (int op : e.between) td.device_of[op] = dev;
      td.device_of[e.row_gemm] = dev;
      continue;
    }
    for (int op : e.col_gemms) td.splits[op] = cols.split, parts[op] = cols.parts;
    for (int op : e.between) td.splits[op] = cols.split, parts[op] = cols.parts;
    td.splits[e.row_gemm] = rows.split;
    parts[e.row_gemm] = rows.parts;
    PlanCollective join;
    join.name = g.nodes[e.row_gemm].name + ".join";
    join.op = engine::CollectiveOp::AllReduce;
    if (s.cc > 0 && s.gpu_tokens < 1) join.group.push_back(d.cpu);
    if (s.cg + s.gg > 0 || (s.cc > 0 && s.gpu_tokens > 0)) join.group.push_back(d.gpu);
    join.bytes = g.nodes[e.row_gemm].output_bytes;
    join.after = {e.row_gemm};
    for (int edge : g.out_edges(e.row_gemm)) join.before.push_back(g.edges[edge].dst);
    td.collectives.push_back(std::move(join));
  }
  return td;
}

// Where each parameter lives (weights: host): with the op that reads it when whole; per slice
// when split (CC and GG resident, CG and CG' streamed through the GPU).
void place_params(const Problem& p, const Design& d, const std::map<int, std::vector<Part>>& parts, tp::TpDesign& td) {
  if (p.weights != WeightsMode::Host) return;
  const models::Graph& g = *p.graph;
  const std::map<int, std::vector<int>> ids = slice_ids(g, td.splits);
  for (size_t w = 0; w < g.nodes.size(); ++w)
    if (g.nodes[w].kind == models::NodeKind::Param && g.out_edges(static_cast<int>(w)).empty())
      td.params[{static_cast<int>(w), d.device_of.at(w)}].via = Via::Resident;
  for (int op : g.ops()) {
    auto split = td.splits.find(op);
    for (int e : g.in_edges(op)) {
      const int w = g.edges[e].src;
      if (g.nodes[w].kind != models::NodeKind::Param) continue;
      if (split == td.splits.end()) {
        td.params[{w, td.device_of[op]}].via = Via::Resident;
        continue;
      }
      const std::vector<int>& slices = ids.count(w) ? ids.at(w) : std::vector<int>(split->second.slices.size(), w);
      const std::vector<Part>& part = parts.at(op);
      for (size_t i = 0; i < slices.size(); ++i) {
        ParamDelivery& how = td.params[{slices[i], split->second.slices[i].device}];
        if (part[i] == Part::CC || part[i] == Part::GG) how.via = Via::Resident;
        else how.evict = true;  // CG, CG': streamed through the GPU
      }
    }
  }
}

// The host's launches: each GPU kernel in the GPU's order, then the copies of the weights of an
// op's slices once all its slices' kernels are launched. The CG copies of layer L wait for layer
// L - 2's streamed kernels to end: at most two layers' streamed weights on the GPU at once (the
// host syncs, as any real runtime must with finite memory; Eq. 5, one block, has nothing to
// wait for).
PlanQueue host_launches(const Problem& p, const Design& d, const Plan& plan) {
  const models::Graph& g = *p.graph;
  const models::Graph sliced = slice_graph(g, plan);
  const std::vector<int> original = original_nodes(g, plan.splits);
  const std::string compute = queue_name(*p.topo, {QueueRole::Kind::Compute, d.gpu, 0});
  std::set<int> streamed;  // ops of experts with CG slices (weights: host)
  for (const auto& [e, s] : d.sliced)
    if (p.weights == WeightsMode::Host && (s.cg > 0 || (s.cc > 0 && s.gpu_tokens > 0))) {
      streamed.insert(e.col_gemms.begin(), e.col_gemms.end());
      streamed.insert(e.row_gemm);
    }
  std::map<int, int> last_kernel;  // layer -> its streamed experts' last GPU kernel so far
  PlanQueue launches{"host.launch", {}};
  std::vector<PlanItem> copies;  // of the current op's slices
  int current = -1;
  for (const PlanQueue& q : plan.queues) {
    if (q.name != compute) continue;
    for (const PlanItem& it : q.items) {
      const int op = original[it.node];
      if (op != current) {
        launches.items.insert(launches.items.end(), copies.begin(), copies.end());
        copies.clear();
        current = op;
        const int layer = g.nodes[op].layer;
        if (streamed.count(op) && !last_kernel.count(layer))
          if (auto before = last_kernel.find(layer - 2); before != last_kernel.end())
            launches.items.push_back({PlanItem::Kind::Sync, before->second, -1});
      }
      if (streamed.count(op)) last_kernel[g.nodes[op].layer] = it.node;
      launches.items.push_back({PlanItem::Kind::Launch, it.node, -1});
      for (int e : sliced.in_edges(it.node)) {
        const int w = sliced.edges[e].src;
        if (p.weights == WeightsMode::Host && sliced.nodes[w].kind == models::NodeKind::Param &&
            plan.delivery(w, d.gpu).via == Via::Copy)
          copies.push_back({PlanItem::Kind::Launch, w, d.gpu});
      }
    }
  }
  launches.items.insert(launches.items.end(), copies.begin(), copies.end());
  return launches;
}

}  // namespace

Plan build_cpu_gpu_plan(const Problem& p, std::string placer, const Design& d) {
  std::map<int, std::vector<Part>> parts;  // split op -> the part each slice is
  tp::TpDesign td = tp_design(*p.graph, d, parts);
  place_params(p, d, parts, td);
  Plan plan = tp::build_tp_plan(p, std::move(placer), td).plan;
  if (d.threads > 0) plan.cpu_cores[d.cpu] = d.threads;
  if (p.topo->devices[d.gpu].launch_s <= 0) return plan;
  plan.queues.push_back(host_launches(p, d, plan));
  return plan;
}

}  // namespace placesim::scheduler::offload
