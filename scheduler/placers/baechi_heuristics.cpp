// m-topo, m-etf, m-sct: Baechi's memory-constrained placers (Jeon, Cai, Jeong, Jeong and
// Gupta, "Baechi: Fast Device Placement of Machine Learning Graphs", SoCC 2020, Section 4).
// Each op books its memory on the device it lands on (list_schedule.hpp's MemoryBook: output,
// state, and every parameter it is first to read there); a device an op does not fit on is not
// a candidate, and an op that fits nowhere makes the result `infeasible`.
//
// * m-topo: ops in topological order fill one device after another; a device takes ops while
//   its booked memory stays within  cap(d) = min(capacity(d), M / n + max_v m(v)),  M the sum
//   of every op's memory, n the number of devices, so the memory (and with it the work) is
//   spread evenly.
// * m-etf (Earliest Task First, Hwang, Chow, Anger and Lee 1989): repeatedly, over every ready
//   op v and every device d it fits on,  EST(v, d) = max(avail(d), max over preds u of
//   (AFT(u) + c(u, v)))  and the pair with the smallest EST is scheduled (ties: the higher
//   upward rank, then the lower op, then the lower device index).
// * m-sct (Small Communication Times, Hanen and Munier 1995): m-etf plus favourite children.
//   The paper picks them with an LP relaxation; we use its greedy rule: the favourite child of
//   u is the successor s with the largest mean communication time c-bar(u, s) among those
//   that have not yet been claimed as some earlier (topological) parent's favourite. Once u
//   is scheduled on d and its favourite child f is ready, d is kept for f: another op may start
//   on d only if it ends by EST(f, d).
// m-ETF and m-SCT run list_schedule.hpp's etf_schedule (shared with getf) over every device.
// Under `weights: host` every EST (m-topo's start too) also waits for the arrival of the op's
// parameters on the device (param_copies.hpp).
//
// Predicted makespan: the schedule length (m-topo: its placement run in topological order, one
// queue per device).
#include <algorithm>
#include <fmt/format.h>

#include "scheduler/placers/builtin.hpp"
#include "scheduler/placers/list_schedule.hpp"

namespace placesim::scheduler {
namespace {

PlacerResult infeasible(const Problem& p, int op) {
  PlacerResult r;
  r.status = RunStatus::Infeasible;
  r.message = fmt::format("op '{}' fits in the memory left on no device", p.graph->nodes[op].name);
  return r;
}

class MTopo final : public Placer {
 public:
  PlacerResult place(const Problem& p) const override {
    const models::Graph& g = *p.graph;
    const std::vector<int> devices = default_devices(*p.topo);
    const std::vector<int> ops = g.ops();
    MemoryBook book(p);
    double total = 0, largest = 0;
    for (int op : ops) {
      // Parameters read by several ops are counted once per reader: an upper bound is enough.
      const double m = book.need(op, devices.front());
      total += m;
      largest = std::max(largest, m);
    }
    const double share = total / static_cast<double>(devices.size()) + largest;
    std::vector<int> device_of(g.nodes.size(), -1);
    size_t k = 0;
    for (int op : ops) {
      while (k < devices.size()) {
        const int d = devices[k];
        const double cap = book.capacity(d) > 0 ? std::min(book.capacity(d), share) : share;
        if (p.duration(op, d) != models::kCannotRun && book.used(d) + book.need(op, d) <= cap) break;
        ++k;
      }
      if (k == devices.size()) return infeasible(p, op);
      book.add(op, devices[k]);
      device_of[op] = devices[k];
    }
    const Schedule s = schedule_in_order(p, CommModel(p), device_of, ops);
    PlacerResult r;
    r.plan = scheduled_plan(p, "m-topo", s);
    r.predicted_s = s.makespan;
    return r;
  }
};

class MEtf final : public Placer {
 public:
  explicit MEtf(bool favourite_children) : sct_(favourite_children) {}

  PlacerResult place(const Problem& p) const override {
    const models::Graph& g = *p.graph;
    const std::vector<int> devices = default_devices(*p.topo);
    const CommModel comm(p);
    const std::vector<double> rank = upward_rank(p, comm, devices);
    const std::vector<int> favourite = sct_ ? favourite_children(p, comm) : std::vector<int>(g.nodes.size(), -1);
    const EtfResult etf = etf_schedule(p, comm, rank, {devices}, std::vector<int>(g.nodes.size(), 0), favourite);
    if (etf.stuck >= 0) return infeasible(p, etf.stuck);
    PlacerResult r;
    r.plan = scheduled_plan(p, sct_ ? "m-sct" : "m-etf", etf.schedule);
    r.predicted_s = etf.schedule.makespan;
    return r;
  }

 private:
  // Per op, its favourite child (-1 for none): the greedy rule in the header.
  static std::vector<int> favourite_children(const Problem& p, const CommModel& comm) {
    const models::Graph& g = *p.graph;
    std::vector<int> fav(g.nodes.size(), -1);
    std::vector<bool> claimed(g.nodes.size(), false);
    for (int u : g.ops()) {
      double best = -1;
      for (int e : g.out_edges(u)) {
        const int c = g.edges[e].dst;
        if (g.nodes[c].kind != models::NodeKind::Op || claimed[c]) continue;
        const double t = comm.mean_edge_time(e);
        if (t > best) best = t, fav[u] = c;
      }
      if (fav[u] >= 0) claimed[fav[u]] = true;
    }
    return fav;
  }

  bool sct_;
};

// Baechi places general DAGs under memory limits: its sample is a random DAG on four T4s.
PlacerFacts baechi_facts() { return {.sample = {.hardware = "pcie-4gpu-2bus", .arch = "random-dag"}}; }

}  // namespace

void register_baechi(Registry<PlacerEntry>& r) {
  r.add("m-topo",
        {"Baechi's m-TOPO: ops in topological order fill the devices one after another, memory spread evenly",
         {},
         PlacerKind::Heuristic,
         [](const PlacerOptions&) { return std::make_unique<MTopo>(); },
         baechi_facts()});
  r.add("m-etf",
        {"Baechi's m-ETF: earliest-task-first list scheduling within each device's memory",
         {},
         PlacerKind::Heuristic,
         [](const PlacerOptions&) { return std::make_unique<MEtf>(false); },
         baechi_facts()});
  r.add("m-sct",
        {"Baechi's m-SCT: m-ETF that keeps a device for the favourite child (greedy rule) of the op it just ran",
         {},
         PlacerKind::Heuristic,
         [](const PlacerOptions&) { return std::make_unique<MEtf>(true); },
         baechi_facts()});
}

}  // namespace placesim::scheduler
