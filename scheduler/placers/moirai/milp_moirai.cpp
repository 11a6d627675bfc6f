// milp-moirai: MOIRAI (Sun et al., "MOIRAI: Towards Optimal Placement for Distributed Inference
// on Heterogeneous Devices", Section III).
//
//   III-B  GCOF coarsening (Algorithm 1; models/transform/fusion.hpp): option `coarsen`
//          (default true) with the rule sets of `fusion`, by default Table I's (Eigen: conv,
//          bn, relu, which fuse nothing in a transformer) and GEMM epilogues (matmul + add /
//          gelu / swiglu; the paper takes rules "from the design specifications of inference
//          backends", and cuBLASLt's are these). A fused group is one task of the MILP; its ops
//          are placed together and run one after another, as the engine runs them.
//   III-D  the augmented DAG G-bar (Eq. 3: one flow node per pair of tasks joined by edges)
//          and the MILP of Eq. 4-8 (moirai_model.hpp has every row), solved by CBC.
//
// Inputs as MOIRAI states them: p_ik the cost model's durations; p^comm_qk'k'' = route latency
// + bytes / (slowest hop of the route k' -> k'', per direction) (CommModel); m_i the outputs
// and states of the task's ops, plus each parameter once per device that holds a reader
// (weights resident, held for the whole run: MemoryBook's booking); Mem_k the device's memory.
// Weights: MOIRAI assumes them resident (III-A); with weights: host the placer returns status
// "error" and says so (it models no parameter copies).
//
// Windows: MOIRAI solves one MILP over the whole graph, and so does `window: auto` (the
// default). When that MILP ends without a plan of its own within its limits (half the time
// budget; with node_limit, that many nodes), or with `window: N`, the coarsened graph is cut at
// its dominator partition points (models/transform/dominators.hpp) into consecutive windows of
// at most N (auto: 30) tasks and 2 * N flows into them (a segment between two points that is
// larger is cut into runs in topological order), solved in order; each window sees the earlier
// windows' placement fixed (their producers as fixed tasks feeding its flows), its devices and
// channels busy until their last task and transfer end, their memory used and parameters
// resident. With one window the optimum is MOIRAI's; with several, each window's optimum given
// the earlier ones (its makespan counts the devices' busy times too). The message says when the
// windows stood in.
//
// Warm start and bound: the best heuristic plan of `warm` (milp_support.hpp), each task on the
// device of its first op, run in decreasing upward rank (HEFT's order) under the model
// (evaluate()), gives the CBC warm start and the big-M: the optimum is no larger than that
// feasible schedule's makespan (without a usable warm start, the serial bound: everything one
// after another after the devices and channels are free, the slowest device and channel each).
//
// The plan executes the MILP's schedule: each device runs its ops in one queue in MILP start
// order; each activation transfer from device a to b sits on queue `a->b` in MILP start order
// (one transfer per producer and destination device, as lower() makes it), so transfers on one
// channel run one at a time as Eq. 8 schedules them. The prediction is the model's makespan of
// that plan (evaluate() on the whole graph). It equals the simulation when the engine's
// transfers on different channels share no link (each ordered device pair its own link
// direction, or `network: ideal`), GPU <-> CPU copies use no copy engine slower than the link,
// and the edges of one producer to one device carry one time; otherwise links shared by several
// channels slow transfers the model runs in parallel (so the simulation is never shorter: the
// plan's orders are fixed and each transfer takes at least its model time). Eq. 8 also
// serialises fixed-time edges on a channel, which the engine runs without resources: a plan
// that gives each delivery its own queue (HEFT's) can beat the MILP's optimum there, and
// finish_milp() then returns it.
//
// Statuses (milp_support.hpp). time_limit is the placement's (SolveBudget): each window gets an
// equal share of what is left, and a window left no time returns its warm start.
#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <limits>
#include <map>

#include "models/transform/dominators.hpp"
#include "scheduler/placers/builtin.hpp"
#include "scheduler/placers/list_schedule.hpp"
#include "scheduler/placers/milp_support.hpp"
#include "scheduler/placers/moirai/moirai_model.hpp"
#include "scheduler/plan/builder.hpp"

namespace placesim::scheduler {
namespace {

using moirai::Coarse;
using moirai::Instance;
using moirai::Placed;
using moirai::Timed;
constexpr double kInf = std::numeric_limits<double>::infinity();

// Consecutive dominator segments of the coarsened graph, merged while a window keeps at most
// `window` tasks and 2 * `window` flows into them; a segment larger than that (a wide DAG has
// few dominators) is cut into consecutive runs in topological order within the same limits (a
// task with more inputs than that alone is a window), so every MILP stays small: its size
// grows with the square of its flows (Eq. 8 pairs).
std::vector<std::vector<int>> windows(const Problem& p, const Coarse& c, int window) {
  const models::Graph& g = *p.graph;
  const size_t tasks_max = static_cast<size_t>(window), flows_max = 2 * tasks_max;
  std::vector<size_t> inputs(c.members.size(), 0);  // flows into each task: its producer tasks
  for (size_t t = 0; t < c.members.size(); ++t) {
    std::vector<int> producers;
    for (int v : c.members[t])
      for (int e : g.in_edges(v)) {
        const int u = g.edges[e].src;
        if (g.nodes[u].kind == models::NodeKind::Op && c.task_of[u] != static_cast<int>(t)) producers.push_back(c.task_of[u]);
      }
    std::sort(producers.begin(), producers.end());
    inputs[t] = static_cast<size_t>(std::unique(producers.begin(), producers.end()) - producers.begin());
  }
  auto flows = [&](const std::vector<int>& ts) {
    size_t n = 0;
    for (int t : ts) n += inputs[t];
    return n;
  };
  if (c.order.size() <= tasks_max && flows(c.order) <= flows_max) return {c.order};
  const models::Partition part = models::partition_by_dominators(c.graph, 1);
  std::vector<std::vector<int>> segments(part.submodels);
  for (int t : c.order) segments[part.submodel_of[c.node_of[t]]].push_back(t);
  std::vector<std::vector<int>> out;
  size_t out_flows = 0;
  for (const std::vector<int>& s : segments) {
    if (s.empty()) continue;
    if (!out.empty() && out.back().size() + s.size() <= tasks_max && out_flows + flows(s) <= flows_max) {
      out.back().insert(out.back().end(), s.begin(), s.end());
      out_flows += flows(s);
      continue;
    }
    out.emplace_back();
    out_flows = 0;
    for (int t : s) {
      if (!out.back().empty() && (out.back().size() + 1 > tasks_max || out_flows + inputs[t] > flows_max)) {
        out.emplace_back();
        out_flows = 0;
      }
      out.back().push_back(t);
      out_flows += inputs[t];
    }
  }
  return out;
}

// The warm plan's assignment of the instance's tasks (each on the device of its first op), or
// none when it breaks the instance (a task that cannot run there, memory over capacity).
std::optional<std::vector<int>> warm_slots(const Instance& in, const Coarse& c, const std::vector<int>& devices,
                                           const Plan& plan) {
  std::vector<int> slot_of(in.tasks(), -1);
  std::vector<double> used(in.slots, 0.0);
  for (int i = 0; i < in.tasks(); ++i) {
    if (!in.is_free(i)) {
      slot_of[i] = in.fixed_slot[i];
      continue;
    }
    const auto it = std::find(devices.begin(), devices.end(), plan.device_of[c.members[in.task[i]].front()]);
    if (it == devices.end()) return std::nullopt;
    slot_of[i] = static_cast<int>(it - devices.begin());
    if (in.dur[i][slot_of[i]] == models::kCannotRun) return std::nullopt;
    used[slot_of[i]] += in.own_bytes[i];
  }
  for (const moirai::ParamUse& w : in.params)
    for (int k = 0; k < in.slots; ++k)
      if (!w.resident[k] && std::any_of(w.readers.begin(), w.readers.end(), [&](int i) { return slot_of[i] == k; }))
        used[k] += w.bytes;
  for (int k = 0; k < in.slots; ++k)
    if (used[k] > in.capacity[k]) return std::nullopt;
  return slot_of;
}

// Everything one after another once every device and channel is free, each at its slowest:
// a schedule of the optimal assignment no shorter than this exists, so the optimum is <= it.
double serial_bound(const Instance& in) {
  double t = 0;
  for (int k = 0; k < in.slots; ++k) {
    t = std::max(t, in.device_avail[k]);
    for (int c = 0; c < in.slots; ++c) t = std::max(t, in.channel_avail[k][c]);
  }
  for (int i = 0; i < in.tasks(); ++i)
    if (!in.is_free(i)) t = std::max(t, in.fixed_start[i] + in.dur[i][in.fixed_slot[i]]);
  for (int i = 0; i < in.tasks(); ++i) {
    if (!in.is_free(i)) continue;
    double slowest = 0;
    for (double d : in.dur[i])
      if (d != models::kCannotRun) slowest = std::max(slowest, d);
    t += slowest;
  }
  for (const moirai::Flow& f : in.flows) {
    double slowest = 0;
    for (const auto& row : f.time)
      for (double x : row)
        if (x != kInf) slowest = std::max(slowest, x);
    t += slowest;
  }
  return t;
}

class MilpMoirai final : public Placer {
 public:
  explicit MilpMoirai(const PlacerOptions& o) : settings_(o, "milp-moirai") {
    if (o.get("coarsen").boolean()) {
      const Yaml sets = o.get("fusion");
      if (!sets.is_seq()) throw InputError(sets.loc(), "fusion must be a list of rule sets, e.g. [eigen, epilogue]");
      for (const Yaml& item : sets.items()) {
        const std::vector<models::FusionRule>* set = models::fusion_rule_set(item.str());
        if (!set) throw InputError(item.loc(), fmt::format("unknown fusion rule set '{}': expected eigen or epilogue", item.str()));
        rules_.insert(rules_.end(), set->begin(), set->end());
      }
    }
    const Yaml w = o.get("window");
    if (!(w.is_scalar() && w.str() == "auto")) {
      window_ = static_cast<int>(w.integer());
      if (window_ < 1) throw InputError(w.loc(), "window must be auto or >= 1 (tasks per MILP)");
    }
  }

  PlacerResult place(const Problem& p) const override {
    if (p.weights == WeightsMode::Host) {
      PlacerResult r;
      r.status = RunStatus::Error;
      r.message = "milp-moirai models weights resident, as MOIRAI assumes (docs/placers.md); it has no parameter "
                  "copies: use weights: resident";
      return r;
    }
    const SolveBudget budget(settings_.time_limit_s);
    const Coarse c = moirai::coarse_tasks(p, rules_);
    const std::optional<ScoredPlan> warm = best_heuristic(p, settings_.warm);
    SolveSummary summary;
    summary.node_limit = settings_.node_limit;
    if (settings_.time_limit_s <= 0) return finish_milp(p, std::nullopt, std::nullopt, summary, warm);
    if (window_ > 0) return *solve_windows(p, c, windows(p, c, window_), warm, budget, 0, true, summary);

    // window: auto. One MILP over the whole graph, as MOIRAI solves it, with half the time left
    // for the windows should it end without a plan of its own.
    SolveSummary whole;
    whole.node_limit = settings_.node_limit;
    if (std::optional<PlacerResult> r = solve_windows(p, c, {c.order}, warm, budget, 1, false, whole)) return *r;
    summary.note = fmt::format("the whole graph's MILP ({} tasks) found no plan in its limits; windows of {} tasks stood in",
                               c.order.size(), kFallbackWindow);
    return *solve_windows(p, c, windows(p, c, kFallbackWindow), warm, budget, 0, true, summary);
  }

 private:
  // Window size when the whole graph's MILP finds no plan. Why 30: the model grows with the
  // square of the flows (Eq. 8 pairs); a 36-task random DAG with ~130 flows on two GPUs is a
  // 19k-variable MILP whose root alone takes CBC over 8 s.
  static constexpr int kFallbackWindow = 30;

  // Solves the windows `parts` in order, each with an equal share of the time left over the
  // windows and `reserve` more shares. A window without a plan of its own takes the warm start's
  // assignment when `warm_stands_in`; otherwise the result is none (the caller falls back).
  std::optional<PlacerResult> solve_windows(const Problem& p, const Coarse& c, const std::vector<std::vector<int>>& parts,
                                            const std::optional<ScoredPlan>& warm, const SolveBudget& budget, int reserve,
                                            bool warm_stands_in, SolveSummary& summary) const {
    const std::vector<int> devices = p.topo->compute_devices();
    // Warm order: decreasing upward rank of each task's first op.
    const std::vector<double> rank = upward_rank(p, CommModel(p), devices);
    const int K = static_cast<int>(devices.size());
    const int shares = static_cast<int>(parts.size()) + reserve;
    Placed placed(p, c, K);
    std::map<std::pair<int, int>, double> flow_start;  // (task, task) -> start, seconds
    for (size_t w = 0; w < parts.size(); ++w) {
      const Instance in = moirai::make_instance(p, c, devices, parts[w], placed);
      std::vector<double> task_key(in.tasks()), flow_key(in.flows.size());
      for (int i = 0; i < in.tasks(); ++i) task_key[i] = -rank[c.members[in.task[i]].front()];
      for (size_t q = 0; q < in.flows.size(); ++q) flow_key[q] = task_key[in.flows[q].src];
      std::optional<std::vector<int>> warm_slot;
      if (warm) warm_slot = warm_slots(in, c, devices, warm->plan);
      double bound = serial_bound(in);
      std::optional<Timed> warm_timed;
      if (warm_slot) {
        warm_timed = moirai::evaluate(in, *warm_slot, task_key, flow_key);
        bound = std::min(bound, warm_timed->makespan);
      }
      // A little above the bound, so the warm start stays feasible within CBC's tolerances.
      const moirai::Built b = moirai::build_model(in, std::max(bound * (1 + 1e-6), 1e-12));
      settings_.dump(b.model, static_cast<int>(w), static_cast<int>(parts.size()));
      milp::SolveOptions opts = settings_.solve_options(p, budget.share(static_cast<int>(w), shares));
      opts.seconds_per_unit = b.unit;
      if (warm_slot) {
        const std::vector<int> canon = moirai::canonical(b, in, *warm_slot);
        opts.warm_start = moirai::warm_start(b, in, canon, moirai::evaluate(in, canon, task_key, flow_key));
      }
      milp::Result r = milp::solve(b.model, opts);
      summary.add(r, b.unit);
      if (r.status == milp::Status::Infeasible) {
        if (!fits(p, in)) return milp_infeasible(summary, infeasible(p, in, devices, w, parts.size()));
        // Memory alone admits a placement, and every such placement has a schedule within M:
        // the solver is wrong, not the model. Say so and keep the warm start.
        summary.error = fmt::format("CBC called window {} infeasible, but a placement fits in memory", w + 1);
        return finish_milp(p, std::nullopt, std::nullopt, summary, warm);
      }
      std::vector<int> slot_of;
      if (r.has_solution()) {
        const moirai::Solution s = moirai::read_solution(b, in, r);
        slot_of = s.slot_of, task_key = s.task_key, flow_key = s.flow_key;
      } else if (!warm_stands_in) {
        return std::nullopt;
      } else if (warm_slot) {
        slot_of = *warm_slot;  // the warm start stands in for this window
      } else {
        return finish_milp(p, std::nullopt, std::nullopt, summary, warm);
      }
      commit(p, c, in, slot_of, moirai::evaluate(in, slot_of, task_key, flow_key), placed, flow_start);
    }
    auto [plan, predicted] = whole_plan(p, c, devices, placed, flow_start);
    return finish_milp(p, std::move(plan), predicted, summary, warm);
  }

  // Records a window's schedule for the windows after it.
  static void commit(const Problem& p, const Coarse& c, const Instance& in, const std::vector<int>& slot_of,
                     const Timed& t, Placed& placed, std::map<std::pair<int, int>, double>& flow_start) {
    const models::Graph& g = *p.graph;
    for (int i = 0; i < in.tasks(); ++i) {
      if (!in.is_free(i)) continue;
      const int task = in.task[i], k = slot_of[i];
      placed.slot[task] = k;
      placed.start[task] = t.start[i];
      placed.device_avail[k] = std::max(placed.device_avail[k], t.finish[i]);
      placed.mem_used[k] += in.own_bytes[i];
      for (int v : c.members[task])
        for (int e : g.in_edges(v)) {
          const int w = g.edges[e].src;
          if (g.nodes[w].kind != models::NodeKind::Param || placed.param_resident[w][k]) continue;
          placed.param_resident[w][k] = true;
          placed.mem_used[k] += g.nodes[w].param_bytes;
        }
    }
    for (size_t q = 0; q < in.flows.size(); ++q) {
      const moirai::Flow& f = in.flows[q];
      const int a = slot_of[f.src], b = slot_of[f.dst];
      flow_start[{in.task[f.src], in.task[f.dst]}] = t.flow_start[q];
      if (a != b) placed.channel_avail[a][b] = std::max(placed.channel_avail[a][b], t.flow_finish[q]);
    }
  }

  // The plan of the committed schedule and its makespan under the model.
  static std::pair<Plan, double> whole_plan(const Problem& p, const Coarse& c, const std::vector<int>& devices,
                                            const Placed& placed, const std::map<std::pair<int, int>, double>& flow_start) {
    const models::Graph& g = *p.graph;
    const Instance whole = moirai::make_instance(p, c, devices, c.order, Placed(p, c, static_cast<int>(devices.size())));
    std::vector<int> slot_of(whole.tasks());
    std::vector<double> task_key(whole.tasks()), flow_key(whole.flows.size());
    for (int i = 0; i < whole.tasks(); ++i) slot_of[i] = placed.slot[whole.task[i]], task_key[i] = placed.start[whole.task[i]];
    for (size_t q = 0; q < whole.flows.size(); ++q)
      flow_key[q] = flow_start.at({whole.task[whole.flows[q].src], whole.task[whole.flows[q].dst]});
    const double predicted = moirai::evaluate(whole, slot_of, task_key, flow_key).makespan;

    // One global order: ops (each task's members in turn) and, per (producer, device), the
    // position of the first flow that transfer serves.
    std::vector<int> device_of(g.nodes.size(), -1), order;
    std::map<std::pair<int, int>, int> transfer_pos;  // (producer op, device) -> position
    const std::vector<int> seq = moirai::global_order(whole, task_key, flow_key);
    for (size_t pos = 0; pos < seq.size(); ++pos) {
      const int v = seq[pos];
      if (v < whole.tasks()) {
        for (int op : c.members[whole.task[v]]) device_of[op] = devices[slot_of[v]], order.push_back(op);
        continue;
      }
      const moirai::Flow& f = whole.flows[v - whole.tasks()];
      const int dst_dev = devices[slot_of[f.dst]];
      for (int op : c.members[whole.task[f.src]]) transfer_pos.try_emplace({op, dst_dev}, static_cast<int>(pos));
    }
    BuildOptions opts;
    opts.channel_rank = std::move(transfer_pos);
    Plan plan = build_plan(p, "milp-moirai", device_of, order, opts);
    return {std::move(plan), predicted};
  }

  // Some assignment of the instance's tasks keeps within every device's memory ((4c) and (5)).
  bool fits(const Problem& p, const Instance& in) const {
    return milp::solve(moirai::build_model(in, 1, true).model, settings_.solve_options(p, settings_.time_limit_s)).has_solution();
  }

  // The instance has no placement within memory: the message naming the device(s) whose memory
  // binds, i.e. those for which unlimited memory alone would make a placement fit.
  std::string infeasible(const Problem& p, const Instance& in, const std::vector<int>& devices, size_t w,
                         size_t windows) const {
    std::vector<std::string> binding;
    for (int k = 0; k < in.slots; ++k) {
      if (in.capacity[k] == kInf) continue;
      Instance relaxed = in;
      relaxed.capacity[k] = kInf;
      if (fits(p, relaxed))
        binding.push_back(fmt::format("'{}' ({:.6g} bytes left)", p.topo->devices[devices[k]].id, in.capacity[k]));
    }
    const std::string where = windows > 1 ? fmt::format(" (window {} of {}, after the earlier windows' placement)", w + 1, windows) : "";
    return binding.empty()
               ? fmt::format("memory: the ops fit on no assignment to the devices{}; no single device's memory alone binds, "
                             "the devices are too small together",
                             where)
               : fmt::format("memory: the ops fit on no assignment to the devices{}; binding: {}", where,
                             fmt::join(binding, ", "));
  }

  MilpSettings settings_;
  std::vector<models::FusionRule> rules_;  // empty: no coarsening
  int window_ = 0;  // 0: auto
};

}  // namespace

void register_milp_moirai(Registry<PlacerEntry>& r) {
  std::vector<OptionSpec> options = milp_option_specs("60");
  for (OptionSpec& o : options)
    if (o.name == "warm") o.default_value = "[heft, m-etf, single-device]";
  options.push_back({"coarsen", "true", "group ops by GCOF (MOIRAI's coarsening); a group is placed together"});
  options.push_back({"fusion", "[eigen, epilogue]",
                     "GCOF's fusion rules, as built-in sets: eigen (MOIRAI's: conv/bn/relu) and epilogue "
                     "(GEMM epilogues: matmul + add / gelu / swiglu, what transformers fuse)"});
  options.push_back({"window", "auto",
                     "auto: one MILP over the whole (coarsened) graph, and windows of 30 tasks only when it ends "
                     "without a plan in its limits (it gets half the time); a number: most tasks per MILP, larger "
                     "graphs cut at dominator points into windows solved in order"});
  r.add("milp-moirai",
        {"MOIRAI (docs/placers.md): GCOF coarsening and its MILP on the augmented DAG, solved by CBC",
         std::move(options), PlacerKind::Milp, [](const PlacerOptions& o) { return std::make_unique<MilpMoirai>(o); },
         PlacerFacts{.needs = {.resident_weights = true},
                     .sample = {.hardware = "moirai-intraserver", .weights = WeightsMode::Resident}}});
}

}  // namespace placesim::scheduler
