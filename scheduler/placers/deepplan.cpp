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
//
// `parallel: blocks` is DeepPlan's own parallel transmission (its src/deepplan/model.cpp): no
// parameter is split; the copied ones, in the order of their first reader, are cut into m + 1
// contiguous blocks of about S / (m + 1) bytes each (S their total; a parameter that would take a
// block past that starts the next, and the last takes what is left), the first copied over the
// GPU's own route and block i over neighbour i's, then forwarded whole over NVLink. Which
// parameters DHA reads is decided first, by the walk above without parallel transmission (as
// DeepPlan plans DHA on the load times of one route), every Embedding layer's by DHA whatever
// else reads them (its plan.py); the prediction then walks the ops again
// with a clock per route: a copied parameter arrives when its route has copied every earlier
// parameter of its block (and, through a neighbour, forwarded it), DHA reads still on the own
// route's clock.
#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <map>

#include "hw/route_cost.hpp"
#include "scheduler/placers/builtin.hpp"
#include "scheduler/placers/dispatch_clock.hpp"
#include "scheduler/placers/param_copies.hpp"
#include "scheduler/plan/builder.hpp"

namespace placesim::scheduler {
namespace {

// How copies use the NVLink neighbours: none, every parameter split (f through a neighbour), or
// whole parameters in contiguous blocks, one block per route (DeepPlan's own).
enum class Pt { None, Split, Blocks };

class DeepPlan final : public Placer {
 public:
  explicit DeepPlan(const PlacerOptions& o) : dha_(o.get("dha").boolean()) {
    const Yaml pt = o.get("parallel");
    const std::string v = pt.is_scalar() ? pt.str() : "";
    if (v != "blocks" && v != "true" && v != "false")
      pt.fail(fmt::format("parallel must be true, false or blocks, got '{}'", v));
    pt_ = v == "blocks" ? Pt::Blocks : v == "true" ? Pt::Split : Pt::None;
  }

  PlacerResult place(const Problem& p) const override {
    const models::Graph& g = *p.graph;
    const hw::Topology& topo = *p.topo;
    const std::vector<int> gpus = topo.gpus();
    if (gpus.empty()) throw InputError(fmt::format("deepplan needs a GPU, and '{}' has none", topo.name));
    Setup s{p, fastest(p, gpus)};
    const int host = topo.host_memory_for(s.gpu);
    s.host_weights = p.weights == WeightsMode::Host && host >= 0 && !topo.network_ideal;
    const double inf = std::numeric_limits<double>::infinity();
    s.b0 = s.host_weights ? hw::route_cost(topo, host, s.gpu).bandwidth : inf;
    std::vector<hw::RouteRef> taken;  // host routes in use: the GPU's own, then each neighbour's
    if (s.host_weights) taken.push_back(topo.route(host, s.gpu));
    double b1 = inf;
    if (s.host_weights && pt_ != Pt::None)
      for (int n : gpus) {
        const int l = n == s.gpu ? -1 : topo.link_between(n, s.gpu);
        if (l < 0 || topo.links[l].kind != "nvlink" || !topo.connected(host, n)) continue;
        hw::RouteRef r = topo.route(host, n);
        if (std::any_of(taken.begin(), taken.end(), [&](const hw::RouteRef& t) { return hw::shares_link(*r, *t); })) continue;
        taken.push_back(std::move(r));
        s.neighbours.push_back(n);
        b1 = std::min(b1, std::min(hw::route_cost(topo, host, n).bandwidth, hw::route_cost(topo, n, s.gpu).bandwidth));
      }
    const double m = static_cast<double>(s.neighbours.size());
    Walk w;
    if (pt_ == Pt::Blocks && !s.neighbours.empty()) {
      // DHA as planned on one route, then the copies cut into blocks and timed per route.
      const Walk one_route = walk(s, 0.0, {}, /*embeddings_by_dha=*/true);
      w = walk(s, 0.0, blocks(s, one_route));
    } else {
      w = walk(s, s.neighbours.empty() ? 0.0 : m * b1 / (s.b0 + m * b1), {});
    }
    std::vector<int> device_of(g.nodes.size(), s.gpu);
    PlacerResult r;
    r.plan = build_plan(p, "deepplan", device_of, g.ops(), w.opts);
    r.predicted_s = w.t_gpu;
    r.message = fmt::format("on {}; {} parameters by DHA, parallel transmission over {} NVLink neighbours{}",
                            topo.devices[s.gpu].id, std::count_if(w.opts.params.begin(), w.opts.params.end(), [](auto& x) {
                              return x.second.via == ParamDelivery::Via::Dha;
                            }),
                            s.neighbours.size(), pt_ == Pt::Blocks && !s.neighbours.empty() ? " (whole parameters in blocks)" : "");
    return r;
  }

 private:
  struct Setup {
    const Problem& p;
    int gpu;
    bool host_weights = false;
    double b0 = 0;
    std::vector<int> neighbours{};
  };
  struct Walk {
    BuildOptions opts;
    double t_gpu = 0;
    std::vector<int> copied;  // parameters copied, in the order of their first reader
  };
  // Per parameter, the route of its block: -1 the GPU's own, else an index into the neighbours.
  using Blocks = std::map<int, int>;

  // DeepPlan's cut of the copied parameters into contiguous blocks of about equal bytes.
  static Blocks blocks(const Setup& s, const Walk& one_route) {
    const models::Graph& g = *s.p.graph;
    double total = 0;
    for (int u : one_route.copied) total += g.nodes[u].param_bytes;
    const size_t routes = s.neighbours.size() + 1;
    const double block = total / static_cast<double>(routes);
    Blocks out;
    size_t k = 0;
    for (size_t route = 0; route < routes; ++route) {
      double filled = 0;
      for (; k < one_route.copied.size(); ++k) {
        const int u = one_route.copied[k];
        filled += g.nodes[u].param_bytes;
        if (filled > block && route + 1 < routes) break;
        out[u] = static_cast<int>(route) - 1;
      }
    }
    return out;
  }

  // The walk of the header: DHA or copy per parameter (`fixed`, when given: copies on these
  // routes, DHA for every other parameter read; `embeddings_by_dha`: an embedding op's
  // parameters by DHA whatever else reads them, DeepPlan's rule), f of each copy through a
  // neighbour. A parameter read by DHA is read again by each later reader, on the route's clock.
  Walk walk(const Setup& s, double f, const Blocks& fixed, bool embeddings_by_dha = false) const {
    const Problem& p = s.p;
    const models::Graph& g = *p.graph;
    const hw::Topology& topo = *p.topo;
    const ParamCopies copies(p);
    std::vector<int> readers(g.nodes.size(), 0);
    for (const models::Edge& e : g.edges) readers[e.src] += g.nodes[e.dst].kind == models::NodeKind::Op;
    Walk w;
    std::vector<bool> loaded(g.nodes.size(), false);
    std::vector<double> finish(g.nodes.size(), 0.0);
    double t_copy = 0;
    std::vector<double> staged(s.neighbours.size(), 0.0), forwarded(s.neighbours.size(), 0.0);
    DispatchClock dispatch(p);  // the runtime's thread, where the machine has one (all ops on one GPU)
    size_t next_neighbour = 0;
    const bool by_blocks = !fixed.empty();
    for (int v : g.ops()) {
      const double d = p.duration(v, s.gpu);
      if (d == models::kCannotRun)
        throw InputError(fmt::format("op '{}' cannot run on '{}'", g.nodes[v].name, topo.devices[s.gpu].id));
      double ready = std::max(w.t_gpu, dispatch.ready(0, s.gpu)), bytes = 0, load = 0;  // bytes: what DHA reads
      double arrived = 0;  // by blocks: when the last of v's copied parameters is on the GPU
      double again = 0;    // bytes of parameters read by DHA before, read again by v
      bool single = true, dha_fixed = false;
      std::vector<int> fresh;
      for (int e : g.in_edges(v)) {
        const int u = g.edges[e].src;
        if (g.nodes[u].kind == models::NodeKind::Op) {
          ready = std::max(ready, finish[u]);
        } else if (loaded[u]) {
          // Read by DHA before: this reader reads it again over the route (a tied lm_head).
          const auto it = w.opts.params.find({u, s.gpu});
          if (it != w.opts.params.end() && it->second.via == ParamDelivery::Via::Dha)
            again += models::param_read_bytes(g.nodes[v].shape, g.dtype, g.edges[e].bytes);
        } else {
          fresh.push_back(u);
          bytes += models::param_read_bytes(g.nodes[v].shape, g.dtype, g.edges[e].bytes);
          single = single && readers[u] == 1;
          if (!s.host_weights) continue;
          if (!by_blocks) {
            load += copies.copy_time((1 - f) * g.edges[e].bytes, s.gpu);
            continue;
          }
          const auto route = fixed.find(u);
          if (route == fixed.end()) {
            dha_fixed = true;
          } else if (route->second < 0) {
            arrived = std::max(arrived, t_copy += copies.copy_time(g.edges[e].bytes, s.gpu));
          } else {
            const size_t k = static_cast<size_t>(route->second);
            const int n = s.neighbours[k];
            staged[k] += copies.copy_time(g.edges[e].bytes, n);
            forwarded[k] = std::max(forwarded[k], staged[k]) + hw::route_cost(topo, n, s.gpu).seconds(g.edges[e].bytes);
            arrived = std::max(arrived, forwarded[k]);
          }
        }
      }
      const double copy_end = by_blocks ? std::max(ready, arrived) + d : std::max(ready, t_copy + load) + d;
      const double dha_end = ready + std::max(d, bytes / s.b0);
      const bool embedding = embeddings_by_dha && g.nodes[v].type == "embedding";
      const bool dha = s.host_weights && !fresh.empty() &&
                       (by_blocks ? dha_fixed : dha_ && (embedding || (single && dha_end < copy_end)));
      for (int u : fresh) {
        loaded[u] = true;
        if (!s.host_weights) continue;
        if (dha) {
          w.opts.params[{u, s.gpu}].via = ParamDelivery::Via::Dha;
          continue;
        }
        w.copied.push_back(u);
        const auto route = fixed.find(u);
        const bool through = by_blocks ? route != fixed.end() && route->second >= 0 : !s.neighbours.empty();
        if (!through || g.nodes[u].param_bytes <= 0) continue;
        ParamDelivery pd;
        pd.via = ParamDelivery::Via::Parallel;
        pd.neighbour = by_blocks ? s.neighbours[static_cast<size_t>(route->second)]
                                 : s.neighbours[next_neighbour++ % s.neighbours.size()];
        pd.fraction = by_blocks ? 1.0 : f;
        w.opts.params[{u, s.gpu}] = pd;
      }
      if (s.host_weights) t_copy += (dha ? bytes / s.b0 : by_blocks ? 0 : load) + again / s.b0;
      w.t_gpu = finish[v] = dha ? ready + std::max(d, (bytes + again) / s.b0)
                                : std::max(copy_end, ready + std::max(d, again / s.b0));
      dispatch.book(0, v, s.gpu, w.t_gpu);
    }
    w.opts.dispatch = dispatch.orders();
    return w;
  }

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

  bool dha_;
  Pt pt_ = Pt::Split;
};

}  // namespace

void register_deepplan(Registry<PlacerEntry>& r) {
  r.add("deepplan",
        {"DeepPlan: the model on one GPU; parameters read by direct host access where it pays, the rest copied in "
         "parallel over the own PCIe route and NVLink neighbours",
         {{"dha", "true", "read a parameter by direct host access when that ends its op earlier than a copy"},
          {"parallel", "true",
           "parallel transmission over NVLink neighbours on other PCIe routes: true (every copy split), blocks "
           "(as DeepPlan's own code: embedding tables by direct host access, the other weights whole in contiguous "
           "blocks, one per route) or false"}},
         PlacerKind::Heuristic,
         [](const PlacerOptions& o) { return std::make_unique<DeepPlan>(o); },
         PlacerFacts{.needs = {.gpu = true}}});
}

}  // namespace placesim::scheduler
