// deepplan: DeepPlan (Jeong et al., "Fast and Efficient Model Serving Using Multi-GPUs with
// Direct-Host-Access", EuroSys 2023), as SortingHat describes it (sortinghat.md, Sections 1 and
// 5): the whole model on one GPU (no model parallelism); weights: host, and each parameter
// either read by direct host access (DHA) while its op computes or copied, the copies split
// over the GPU's own PCIe route and its NVLink neighbours' (parallel transmission, PT).
//
// Bandwidths (the slowest hop of each route): b0 host memory -> the GPU; for the m neighbours
// (GPUs joined to it by an NVLink link whose route from that host memory shares no link with
// the GPU's own nor with an earlier neighbour's: independent PCIe buses) b1 = min(host ->
// neighbour, neighbour -> GPU). A copied parameter of w bytes sends f w through one neighbour
// (dealt in turn) and (1 - f) w over the own route, with
//   f = m b1 / (b0 + m b1)     (both routes then finish together when every copy is split),
// so the GPU's copy queue spends  t((1 - f) w)  on it (m = 0: f = 0), t the copy time of
// param_copies.hpp (route latency + bytes over the slowest of route, copy engine and host memory).
//
// The choice per parameter, walking the ops in topological order with t_gpu (when the GPU is
// free) and t_copy (when the bus from host memory is): an op v of duration d whose parameters
// not yet on the GPU total B bytes read (models::param_read_bytes: an embedding's rows, not
// its table), load(v) = the sum of their t((1 - f) w) over their whole sizes w, ends at
//   copy:  max(t_gpu, ready(v), t_copy + load(v)) + d,       then t_copy += load(v)
//   DHA:   max(t_gpu, ready(v)) + max(d, B / b0),            then t_copy += B / b0
// and its parameters are read by DHA when that ends strictly earlier and v is their only
// reader (a parameter read by DHA is read again by every reader). The bus is serialised: a DHA
// read's bytes delay the copies booked after it by B / b0 (in the engine those copies run
// alongside the read and share the bus, ending the later of the two at the same time; the read
// itself then ends later than predicted). The prediction is t_gpu after the last op. Where the
// machine's runtime dispatches ops (docs/execution.md, "The runtime"), ready(v) also waits for
// v's dispatch on the one thread, in this order (dispatch_clock.hpp), which the plan keeps.
#include <algorithm>
#include <fmt/format.h>
#include <limits>

#include "hw/route_cost.hpp"
#include "scheduler/placers/builtin.hpp"
#include "scheduler/placers/dispatch_clock.hpp"
#include "scheduler/placers/param_copies.hpp"
#include "scheduler/plan_builder.hpp"

namespace placesim::scheduler {
namespace {

class DeepPlan final : public Placer {
 public:
  explicit DeepPlan(const PlacerOptions& o)
      : dha_(o.get("dha").boolean()), pt_(o.get("parallel").boolean()) {}

  PlacerResult place(const Problem& p) const override {
    const models::Graph& g = *p.graph;
    const hw::Topology& topo = *p.topo;
    const std::vector<int> gpus = topo.gpus();
    if (gpus.empty()) throw InputError(fmt::format("deepplan needs a GPU, and '{}' has none", topo.name));
    const int gpu = fastest(p, gpus);
    const int host = topo.host_memory_for(gpu);
    const bool host_weights = p.weights == WeightsMode::Host && host >= 0 && !topo.network_ideal;
    const double inf = std::numeric_limits<double>::infinity();
    const double b0 = host_weights ? hw::route_cost(topo, host, gpu).bandwidth : inf;
    std::vector<int> neighbours;
    std::vector<const hw::Route*> taken;  // host routes in use: the GPU's own, then each neighbour's
    if (host_weights) taken.push_back(&topo.route(host, gpu));
    double b1 = inf;
    if (host_weights && pt_)
      for (int n : gpus) {
        const int l = n == gpu ? -1 : topo.link_between(n, gpu);
        if (l < 0 || topo.links[l].kind != "nvlink" || !topo.connected(host, n)) continue;
        const hw::Route& r = topo.route(host, n);
        if (std::any_of(taken.begin(), taken.end(), [&](const hw::Route* t) { return hw::shares_link(r, *t); })) continue;
        taken.push_back(&r);
        neighbours.push_back(n);
        b1 = std::min(b1, std::min(hw::route_cost(topo, host, n).bandwidth, hw::route_cost(topo, n, gpu).bandwidth));
      }
    const double m = static_cast<double>(neighbours.size());
    const double f = neighbours.empty() ? 0.0 : m * b1 / (b0 + m * b1);

    const ParamCopies copies(p);
    std::vector<int> readers(g.nodes.size(), 0);
    for (const models::Edge& e : g.edges) readers[e.src] += g.nodes[e.dst].kind == models::NodeKind::Op;
    BuildOptions opts;
    std::vector<bool> loaded(g.nodes.size(), false);
    std::vector<double> finish(g.nodes.size(), 0.0);
    double t_gpu = 0, t_copy = 0;
    DispatchClock dispatch(p);  // the runtime's thread, where the machine has one (all ops on one GPU)
    size_t next_neighbour = 0;
    for (int v : g.ops()) {
      const double d = p.duration(v, gpu);
      if (d == models::kCannotRun)
        throw InputError(fmt::format("op '{}' cannot run on '{}'", g.nodes[v].name, topo.devices[gpu].id));
      double ready = std::max(t_gpu, dispatch.ready(0, gpu)), bytes = 0, load = 0;  // bytes: what DHA reads
      bool single = true;
      std::vector<int> fresh;
      for (int e : g.in_edges(v)) {
        const int u = g.edges[e].src;
        if (g.nodes[u].kind == models::NodeKind::Op) {
          ready = std::max(ready, finish[u]);
        } else if (!loaded[u]) {
          fresh.push_back(u);
          bytes += models::param_read_bytes(g.nodes[v].shape, g.dtype, g.edges[e].bytes);
          if (host_weights) load += copies.copy_time((1 - f) * g.edges[e].bytes, gpu);
          single = single && readers[u] == 1;
        }
      }
      const double copy_end = std::max(ready, t_copy + load) + d;
      const double dha_end = ready + std::max(d, bytes / b0);
      const bool dha = host_weights && dha_ && !fresh.empty() && single && dha_end < copy_end;
      for (int u : fresh) {
        loaded[u] = true;
        if (!host_weights) continue;
        if (dha) {
          opts.params[{u, gpu}].via = ParamDelivery::Via::Dha;
        } else if (!neighbours.empty() && g.nodes[u].param_bytes > 0) {
          ParamDelivery pd;
          pd.via = ParamDelivery::Via::Parallel;
          pd.neighbour = neighbours[next_neighbour++ % neighbours.size()];
          pd.fraction = f;
          opts.params[{u, gpu}] = pd;
        }
      }
      if (host_weights) t_copy += dha ? bytes / b0 : load;
      t_gpu = finish[v] = dha ? dha_end : copy_end;
      dispatch.book(0, v, gpu, t_gpu);
    }
    opts.dispatch = dispatch.orders();
    std::vector<int> device_of(g.nodes.size(), gpu);
    PlacerResult r;
    r.plan = build_plan(p, "deepplan", device_of, g.ops(), opts);
    r.predicted_s = t_gpu;
    r.message = fmt::format("on {}; {} parameters by DHA, parallel transmission over {} NVLink neighbours",
                            topo.devices[gpu].id, std::count_if(opts.params.begin(), opts.params.end(), [](auto& x) {
                              return x.second.via == ParamDelivery::Via::Dha;
                            }),
                            neighbours.size());
    return r;
  }

 private:
  // The GPU with the smallest total op time (ties: the lowest index).
  static int fastest(const Problem& p, const std::vector<int>& gpus) {
    int best = gpus.front();
    double best_total = models::kCannotRun;
    for (int d : gpus) {
      double total = 0;
      for (int op : p.graph->ops()) total += p.duration(op, d);
      if (total < best_total) best = d, best_total = total;
    }
    return best;
  }

  bool dha_, pt_;
};

}  // namespace

void register_deepplan(Registry<PlacerEntry>& r) {
  r.add("deepplan",
        {"DeepPlan: the model on one GPU; parameters read by direct host access where it pays, the rest copied in "
         "parallel over the own PCIe route and NVLink neighbours",
         {{"dha", "true", "read a parameter by direct host access when that ends its op earlier than a copy"},
          {"parallel", "true", "split copies over NVLink neighbours on other PCIe routes (parallel transmission)"}},
         PlacerKind::Heuristic,
         [](const PlacerOptions& o) { return std::make_unique<DeepPlan>(o); },
         /*splits_ops=*/false, /*offload=*/false, PlacerNeeds{.gpu = true}});
}

}  // namespace placesim::scheduler
