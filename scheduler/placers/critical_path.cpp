// critical-path (SortingHat, section on lower bounds): a bound, not a plan. The largest of
//   CP = max over paths P of sum_{v in P} min_d t(v, d)   (every op at its fastest device,
//        communication free), the longest path;
//   D  = sum over ops v of min_d dispatch(d) / threads      where the machine's runtime
//        dispatches ops (docs/execution.md, "The runtime"): every op's dispatch is host time on
//        one of the runtime's threads;
//   M  under `weights: host` with `network: links` (the default): every parameter byte crosses the
//        narrowest cut between the host memories and the compute devices at least once, copied
//        or read in place, however the plan splits or forwards it (hw::max_flow: the links, each
//        host memory at most its memory_bw); and the bytes of ops on GPUs cross the cut into the
//        GPUs, while ops on CPUs keep the CPUs busy instead. M is the larger of W / C_all and
//        the least, over every fractional placement of the ops, of the larger of those two
//        times (weights_bound below).
// No placer that keeps ops whole and weights in host memory can beat it, so every simulated
// makespan is >= the bound; a plan that splits ops over devices can beat CP, and one that
// launches kernels from a host queue or keeps weights resident on a GPU can beat CP and M: such
// placers leave critical-path out of their PlacerFacts::bounded_by.
#include <algorithm>
#include <fmt/format.h>

#include "hw/max_flow.hpp"
#include "scheduler/placers/builtin.hpp"

namespace placesim::scheduler {
namespace {

class CriticalPath final : public Placer {
 public:
  PlacerResult place(const Problem& p) const override {
    const models::Graph& g = *p.graph;
    std::vector<double> finish(g.nodes.size(), 0.0);
    double cp = 0;
    for (int n : g.topo_order()) {
      double start = 0;
      for (int e : g.in_edges(n)) start = std::max(start, finish[g.edges[e].src]);
      double fastest = 0;
      if (g.nodes[n].kind == models::NodeKind::Op) {
        fastest = models::kCannotRun;
        for (int d : p.topo->compute_devices()) fastest = std::min(fastest, p.duration(n, d));
        if (fastest == models::kCannotRun)
          throw InputError(fmt::format("op '{}' cannot run on any device of '{}'", g.nodes[n].name, p.topo->name));
      }
      finish[n] = start + fastest;
      cp = std::max(cp, finish[n]);
    }
    const double dispatch = dispatch_bound(p), weights = weights_bound(p);
    PlacerResult r;
    r.predicted_s = std::max({cp, dispatch, weights});
    r.message = "lower bound: longest path, each op at its fastest device, free communication";
    if (weights > cp && weights >= dispatch) r.message = "lower bound: every weight byte across the host's links";
    if (dispatch > cp && dispatch > weights) r.message = "lower bound: every op's dispatch on the runtime's threads";
    return r;
  }

 private:
  static double dispatch_bound(const Problem& p) {
    const hw::Topology& topo = *p.topo;
    if (!topo.dispatches()) return 0;
    double sum = 0;
    for (int n : p.graph->ops()) {
      double least = models::kCannotRun;
      for (int d : topo.compute_devices())
        if (p.duration(n, d) != models::kCannotRun) least = std::min(least, topo.devices[d].dispatch_s);
      sum += least == models::kCannotRun ? 0 : least;
    }
    return sum / topo.runtime.dispatch_threads;
  }

  // M of the header: each parameter's bytes belong to its first reader. An op on a GPU brings
  // them across the cut into the GPUs; an op on a CPU does not, but keeps the CPUs busy for at
  // least its least time there (the cores it may run on, its launch left out, the CPUs' time
  // pooled). Moving ops to the CPUs in order of bytes saved per CPU second, fractionally, until
  // the two times meet is the least of their maximum over every placement (a fractional
  // knapsack), and every byte also crosses the cut into all compute devices.
  static double weights_bound(const Problem& p) {
    const hw::Topology& topo = *p.topo;
    const models::Graph& g = *p.graph;
    // Copies that share nothing (`network: uncontended`) have no cut to crowd.
    if (p.weights != WeightsMode::Host || topo.network_ideal || topo.network_uncontended) return 0;
    std::vector<int> cpus, gpus = topo.gpus();
    for (int d : topo.compute_devices())
      if (topo.devices[d].kind == hw::DeviceKind::Cpu) cpus.push_back(d);
    const std::vector<int> hosts = topo.host_memories();
    std::vector<int> computes = cpus;
    computes.insert(computes.end(), gpus.begin(), gpus.end());
    struct Op {
      double bytes, cpu_s;
    };
    std::vector<Op> ops;
    std::vector<bool> counted(g.nodes.size(), false);
    double all_bytes = 0;
    for (int v : g.topo_order()) {
      if (g.nodes[v].kind != models::NodeKind::Op) continue;
      Op op{0, models::kCannotRun};
      for (int e : g.in_edges(v)) {
        const int w = g.edges[e].src;
        if (g.nodes[w].kind == models::NodeKind::Param && !counted[w]) op.bytes += g.nodes[w].param_bytes, counted[w] = true;
      }
      for (int c : cpus)
        for (int k = 1; k <= topo.devices[c].cores; ++k)
          if (const double d = p.duration(v, c, k); d != models::kCannotRun)
            op.cpu_s = std::min(op.cpu_s, std::max(0.0, d - topo.devices[c].launch_s));
      all_bytes += op.bytes;
      if (op.bytes > 0) ops.push_back(op);
    }
    const double into_computes = hw::max_flow(topo, hosts, computes);
    const double crossing = into_computes > 0 ? all_bytes / into_computes : 0;
    const double into_gpus = hw::max_flow(topo, hosts, gpus);
    if (into_gpus <= 0) return crossing;  // no GPU reachable: nothing to add to the crossing
    // Bytes per CPU second, largest first (an op the CPUs cannot run stays on the GPUs).
    std::sort(ops.begin(), ops.end(), [](const Op& a, const Op& b) { return a.bytes * b.cpu_s > b.bytes * a.cpu_s; });
    const double pool = static_cast<double>(std::max<std::size_t>(1, cpus.size()));
    double cpu = 0, gpu = all_bytes / into_gpus;
    for (const Op& op : ops) {
      if (cpu >= gpu || op.cpu_s == models::kCannotRun) break;
      const double dc = op.cpu_s / pool, dg = op.bytes / into_gpus;
      if (cpu + dc <= gpu - dg) {
        cpu += dc, gpu -= dg;
        continue;
      }
      const double y = (gpu - cpu) / (dc + dg);  // the share of this op where the times meet
      cpu += y * dc, gpu -= y * dg;
      break;
    }
    return std::max(crossing, std::max(cpu, gpu));
  }
};

}  // namespace

void register_critical_path(Registry<PlacerEntry>& r) {
  r.add("critical-path",
        {"a bound, not a plan: the longest path with each op at its fastest device and free communication, every "
         "op's dispatch on the runtime's threads, and every weight byte across the host's links (weights: host); "
         "plans that split ops, launch kernels from the host or keep weights on a GPU can beat it",
         {},
         PlacerKind::Bound,
         [](const PlacerOptions&) { return std::make_unique<CriticalPath>(); },
         PlacerFacts{.bounded_by = {}}});  // a bound, not a plan
}

}  // namespace placesim::scheduler
