// chrion: collaborative CPU-GPU inference (chrion.md, Section 4.2-4.3).
//
// Processors p_0 = the GPU (the topology's first) and p_1 .. p_k' = k' cores of its first CPU.
// * Algorithm 1 (BFS + DFS order): ops leave a FIFO ready queue in breadth-first order; after
//   appending v, a child c whose only predecessor is v and whose communication time c-bar(v, c)
//   exceeds its mean execution time over the devices is appended at once (depth first, to keep
//   locality), and so on down the chain.
// * Eq. 2-3:  EST(v, p_j) = max(avail[j], max over preds u of (AFT(u) + C(u, v) / b)),
//             EFT(v, p_0) = W(v, 0) + EST,  EFT(v, p_j) = W(v, k') + EST for j > 0.
//   C/b is the communication model of list_schedule.hpp between the GPU and the CPU; cores
//   of one CPU exchange data for free. Under `weights: host` EST also waits for the arrival of
//   v's parameters on p_j's device (param_copies.hpp), which all cores of the CPU share.
// * Eq. 4:    M(v, p_0) = out(v) + state(v) + weights(v) not yet on the GPU
//                         + sum over preds u on the CPU of out(u);  M(v, p_j) = 0.
// * Eq. 5 and Algorithm 2: for every k' in 0..k, each op in the order goes to the processor
//   with the least  EFT(v, p_j) + sigma * M(v, p_j);  the total cost L + sigma * M (L: the last
//   finish, M: the GPU memory booked) picks k* (ties: the fewer cores).
//
// Our CPU model. The cost model gives d_k(v), v's duration on k cores of the CPU together
// (models/cost/cpu_cores.hpp: peak x k/cores, slowed by the contention curve's f(k)); one of k'
// busy cores runs v in  W(v, k') = k' * d_k'(v) = d_1(v) * f(k')  (Chrion's W matrix; with the
// launch paid once, Problem::core_duration). The plan
// puts the CPU ops on queues `<cpu>.core0` .. `<cpu>.core<k*-1>` and states cpu_cores = k*, so
// lower() gives each core op exactly W(v, k*) on its own core: where the network adds nothing,
// the simulated makespan is the schedule length L.
//
// The runtime (docs/execution.md, "The runtime"). Where the machine's runtime dispatches ops
// from host threads, each op's EST also waits for its dispatch (dispatch_clock.hpp), in the
// order above. `executor: parallel` is Chrion's modified ONNX Runtime (Section 5: GPU operators
// and CPU operators in thread pools of their own): thread 0 dispatches the GPU's ops and thread
// j the ops of core j-1, so k' is at most dispatch_threads - 1. `executor: sequential` is ONNX
// Runtime's default: one thread dispatches every op, and runs each CPU op before dispatching
// the next.
#include <algorithm>
#include <deque>
#include <fmt/format.h>

#include "scheduler/placers/builtin.hpp"
#include "scheduler/placers/list_schedule.hpp"
#include "scheduler/plan/names.hpp"

namespace placesim::scheduler {
namespace {

struct Trial {
  Schedule s;
  std::vector<int> core_of;  // per node: CPU core of a CPU op, -1 otherwise
  int cores = 0;             // k': the CPU cores this trial runs ops on (W is priced at k')
  double gpu_bytes = 0;
  double cost = 0;
};

class Chrion final : public Placer {
 public:
  explicit Chrion(const PlacerOptions& o) {
    const Yaml sigma = o.get("sigma");
    sigma_ = sigma.number();
    if (!(sigma_ >= 0)) sigma.fail(fmt::format("option 'sigma' must be >= 0 (seconds per GB of GPU memory), got {}", sigma_));
    const Yaml executor = o.get("executor");
    if (executor.str() != "parallel" && executor.str() != "sequential")
      executor.fail(fmt::format("option 'executor' must be parallel or sequential, got '{}'", executor.str()));
    parallel_ = executor.str() == "parallel";
    const Yaml cores = o.get("max_cpu_cores");
    cores_loc_ = cores.loc();
    if (cores.str() != "all") {
      max_cores_ = static_cast<int>(cores.integer());
      if (max_cores_ < 0) cores.fail(fmt::format("option 'max_cpu_cores' must be >= 0 or all, got {}", max_cores_));
    }
  }

  PlacerResult place(const Problem& p) const override {
    const hw::Topology& topo = *p.topo;
    const std::vector<int> gpus = topo.gpus();
    if (gpus.empty()) throw InputError(fmt::format("chrion needs a GPU, and '{}' has none", topo.name));
    const int gpu = gpus.front();
    int cpu = -1;
    for (int d : topo.compute_devices())
      if (topo.devices[d].kind == hw::DeviceKind::Cpu && topo.devices[d].cores > 0 && cpu < 0) cpu = d;
    const int cores = cpu < 0 ? 0 : topo.devices[cpu].cores;
    if (max_cores_ > cores)
      throw InputError(cores_loc_, fmt::format("option 'max_cpu_cores' is {}, but '{}' has {} CPU cores", max_cores_,
                                               topo.name, cores));
    int k = max_cores_ < 0 ? cores : max_cores_;
    // Chrion's parallel executor gives every core a dispatch thread of its own.
    if (parallel_ && topo.dispatches()) k = std::min(k, topo.runtime.dispatch_threads - 1);
    const CommModel comm(p);
    const std::vector<int> order = bfs_dfs_order(p, comm, gpu, cpu);

    Trial best = trial(p, comm, order, gpu, cpu, 0);
    for (int kk = 1; kk <= k; ++kk) {
      Trial t = trial(p, comm, order, gpu, cpu, kk);
      if (t.cost < best.cost) best = std::move(t);
    }
    PlacerResult r;
    BuildOptions opts;  // the CPU's ops one queue per core, at the k' cores the schedule priced them at
    if (cpu >= 0 && best.cores > 0) {
      opts.cpu_cores[cpu] = best.cores;
      opts.core_of = best.core_of;
    }
    r.plan = scheduled_plan(p, "chrion", best.s, opts);
    r.predicted_s = best.s.makespan;
    int used = 0;
    for (int c : best.core_of) used = std::max(used, c + 1);
    r.message = fmt::format("k* = {} CPU cores, GPU memory {:.6g} bytes", used, best.gpu_bytes);
    if (topo.dispatches()) r.message += parallel_ ? ", parallel executor" : ", sequential executor";
    return r;
  }

 private:
  // Algorithm 1, with the merge rule of Section 4.2.
  static std::vector<int> bfs_dfs_order(const Problem& p, const CommModel& comm, int gpu, int cpu) {
    const models::Graph& g = *p.graph;
    std::vector<int> devs{gpu};
    if (cpu >= 0) devs.push_back(cpu);
    std::vector<int> missing(g.nodes.size(), 0), preds(g.nodes.size(), 0);
    std::vector<bool> marked(g.nodes.size(), false);
    std::deque<int> queue;
    for (int v : g.ops()) {
      for (int e : g.in_edges(v)) preds[v] += g.nodes[g.edges[e].src].kind == models::NodeKind::Op;
      missing[v] = preds[v];
      if (preds[v] == 0) queue.push_back(v);
    }
    std::vector<int> order;
    auto append = [&](int v) {
      marked[v] = true;
      order.push_back(v);
      for (int e : g.out_edges(v)) {
        const int c = g.edges[e].dst;
        if (g.nodes[c].kind == models::NodeKind::Op && --missing[c] == 0) queue.push_back(c);
      }
    };
    while (!queue.empty()) {
      int v = queue.front();
      queue.pop_front();
      if (marked[v]) continue;
      append(v);
      for (bool merged = true; merged;) {
        merged = false;
        for (int e : g.out_edges(v)) {
          const int c = g.edges[e].dst;
          if (g.nodes[c].kind != models::NodeKind::Op || marked[c] || preds[c] != 1) continue;
          if (comm.mean_edge_time(e) <= mean_duration(p, c, devs)) continue;
          append(c);
          v = c;
          merged = true;
          break;
        }
      }
    }
    return order;
  }

  // Algorithm 2's inner loop for one k'.
  Trial trial(const Problem& p, const CommModel& comm, const std::vector<int>& order, int gpu, int cpu, int kk) const {
    const models::Graph& g = *p.graph;
    Trial t{Schedule(p), std::vector<int>(g.nodes.size(), -1), kk, 0, 0};
    std::vector<double> avail(static_cast<size_t>(kk) + 1, 0.0);  // [0]: GPU, [j]: core j-1
    std::vector<bool> on_gpu(g.nodes.size(), false);
    InputArrivals inputs(p, comm);
    for (int v : order) {
      // GPU memory v books (Eq. 4).
      double m = g.nodes[v].output_bytes + g.nodes[v].state_bytes;
      for (int e : g.in_edges(v)) {
        const int u = g.edges[e].src;
        if (g.nodes[u].kind == models::NodeKind::Param && !on_gpu[u]) m += g.nodes[u].param_bytes;
        if (g.nodes[u].kind == models::NodeKind::Op && t.s.device_of[u] == cpu) m += g.nodes[u].output_bytes;
      }
      int best = -1;
      double best_cost = models::kCannotRun, best_start = 0, best_finish = 0;
      inputs.gather(t.s, v);
      for (int j = 0; j <= kk; ++j) {
        const int dev = j == 0 ? gpu : cpu;
        const double d = p.duration(v, dev);
        if (d == models::kCannotRun) continue;
        // W(v, k'): k' d_k'(v), but the launch paid once.
        const double w = j == 0 ? d : p.core_duration(v, cpu, kk);
        const double est = std::max({avail[j], inputs.on(dev), t.s.dispatch.ready(thread(j), dev)});
        const double cost = est + w + (j == 0 ? sigma_ * m * 1e-9 : 0.0);
        if (cost < best_cost) best = j, best_cost = cost, best_start = est, best_finish = est + w;
      }
      if (best < 0)
        throw InputError(fmt::format("op '{}' runs neither on '{}' nor on the CPU", g.nodes[v].name,
                                     p.topo->devices[gpu].id));
      avail[best] = best_finish;
      t.s.place(v, best == 0 ? gpu : cpu, best_start, best_finish, thread(best));
      if (best > 0) {
        t.core_of[v] = best - 1;
        continue;
      }
      t.gpu_bytes += m;
      for (int e : g.in_edges(v)) on_gpu[g.edges[e].src] = true;
    }
    t.cost = t.s.makespan + sigma_ * t.gpu_bytes * 1e-9;
    return t;
  }

  // The dispatch thread of processor j (0: the GPU, j: core j-1).
  int thread(int j) const { return parallel_ ? j : 0; }

  double sigma_ = 0;
  bool parallel_ = true;
  int max_cores_ = -1;  // -1: all of the CPU's cores
  SourceLoc cores_loc_;
};

}  // namespace

void register_chrion(Registry<PlacerEntry>& r) {
  r.add("chrion",
        {"Chrion: BFS+DFS order, greedy choice of GPU or one of k' CPU cores by EFT + sigma * GPU memory, best k'",
         {{"sigma", "0", "seconds of latency one GB (1e9 bytes) of GPU memory is worth (>= 0; 0: latency only)"},
          {"max_cpu_cores", "all", "largest k' tried (0 .. the CPU's cores), or all"},
          {"executor", "parallel", "where the runtime dispatches ops: parallel (Chrion's, a dispatch thread for the GPU and "
                                   "one per core) or sequential (ONNX Runtime's default: one thread for every op)"}},
         PlacerKind::Heuristic,
         [](const PlacerOptions& o) { return std::make_unique<Chrion>(o); },
         PlacerFacts{.needs = {.gpu = true}, .sample = {.hardware = "chrion-1080ti"}}});
}

}  // namespace placesim::scheduler
