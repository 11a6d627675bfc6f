// Collectives (docs/execution.md, "Collectives: flow, link and analytic fidelity"): all-reduce, all-gather, reduce-scatter, broadcast,
// all-to-all and point-to-point over an ordered group, lowered into a TaskGraph.
//
// Flow fidelity appends per-rank steps of Transfer tasks: step s of rank i depends on step s-1
// of rank i and on the arrival of the data it forwards; there is no global barrier, so the
// steps contend with everything else in the graph. With `chunks` = k the data are cut into k
// pieces that flow through the steps one after another (pipelining). Analytic fidelity appends
// one task per rank that waits the algorithm's alpha-beta closed form (in each algorithm's
// file) and uses no resource: fast for sweeps, exact where nothing else contends. Either way
// the graph's traffic records what each rank sends each peer (TaskGraph::traffic, of the
// operation's kind): per flow transfer, or per analytic task the flow lowering's bytes summed
// per peer, so both fidelities count the same bytes. Link fidelity appends one Transfer per
// resource the flow lowering uses, moving the sum of what its transfers put on that resource
// after the longest chain of their latencies, and a join every rank ends at (link_loads).
//
// Sizes: S = `bytes`. All-reduce: S per rank in and out. All-gather: S is the gathered output
// (each rank contributes S/n). Reduce-scatter: S per rank in, S/n out. Broadcast: S from rank 0
// (the root). All-to-all: S per rank in, S/n to each rank. Point-to-point: S in all, from the
// first `senders` ranks to the others. Algorithm `proportional` shares by capability (`weights`
// w, W their sum; AsymGroup sections V-B and V-C, proportional.hpp): its reduce-scatter leaves
// rank j the share S w_j / W; its all-gather runs among `groups` rather than ranks: group G
// starts with S C_G / W (C_G: its members' capability; each member holds its share of it) and
// ends with all S, each member holding its share w_j / C_G of every group's part.
//
// A group of one rank moves nothing and takes no time: it only orders its `after` tasks before
// whatever waits for it (a 2D tensor-parallel group with a single member, whose partial sums are
// already whole).
//
// Reductions' arithmetic is not modelled (no compute uses): on the links it matters for,
// reducing runs far faster than the transfer that feeds it.
#pragma once

#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/time.hpp"
#include "sim/engine/task_graph.hpp"

namespace placesim::engine {

enum class CollectiveOp { AllReduce, AllGather, ReduceScatter, Broadcast, AllToAll, PointToPoint };
const char* to_string(CollectiveOp op);
// "all-reduce", "all-gather", ...; InputError naming the known operations otherwise.
CollectiveOp parse_collective_op(const std::string& name);

// Flow: the algorithm's transfers, sharing links by max-min with everything else. Analytic: each
// rank waits the algorithm's closed form, sharing nothing. Ideal: the closed form of sends
// sliced perfectly in proportion (ideal_seconds in lowering.hpp); the same as Analytic for
// every algorithm but `proportional`, whose flows max-min sharing leaves part idle. Link: one
// activity per resource the flows use, moving all their bytes on it at once, sharing by
// max-min with everything else (link_loads in lowering.hpp): tasks grow with the links a
// collective crosses, not with its steps.
enum class Fidelity { Flow, Analytic, Ideal, Link };

struct CollectiveSpec;

// What a collective's flows put on the network alone: each resource's amount over all its
// transfers, the longest chain of route latencies through its steps, and the bytes each member
// sends each other (by group member).
struct LinkLoads {
  std::vector<std::pair<ResourceId, double>> amounts;  // in resource order
  TimePs latency = 0;
  std::vector<std::tuple<int, int, double>> sent;      // (src, dst, bytes), by (src, dst)
};

// Where transfers between two group members go. The engine knows no routes, so the caller
// (scheduler/lower/lower.cpp, from hw::Topology routes; LinkNetwork for tests) answers for it.
class Network {
 public:
  virtual ~Network() = default;
  // What a transfer of `bytes` from src to dst consumes: `bytes` of every link direction on
  // its route (and of whatever else the caller charges: copy engines, memory bandwidth).
  virtual UseList uses(int src, int dst, double bytes) const = 0;
  virtual TimePs latency(int src, int dst) const = 0;  // the route's, waited before the bytes move
  virtual double bandwidth(int src, int dst) const = 0;  // bytes/s of the route's bottleneck (analytic)
  // The capacity (bytes/s) of a resource that uses() names: to solve a collective's flows alone.
  virtual double capacity(ResourceId r) const = 0;

 private:
  // Collectives already solved alone on this network (flow_alone_ends in lowering.hpp), by
  // their spec: a network answers for one topology, so the spec is the whole key. Not
  // thread-safe: one network serves one lowering or one placer.
  friend const std::vector<double>& flow_alone_ends(const CollectiveSpec& spec, const Network& net);
  friend const LinkLoads& link_loads(const CollectiveSpec& spec, const Network& net);
  mutable std::unordered_map<std::string, std::vector<double>> alone_;
  mutable std::unordered_map<std::string, LinkLoads> loads_;
};

struct CollectiveSpec {
  std::string name = "coll";    // prefix of its task and queue names
  CollectiveOp op = CollectiveOp::AllReduce;
  std::string algorithm = "ring";  // a name in collective_algorithms()
  std::vector<int> group;       // network endpoints; rank r is group[r]; rank 0 is a broadcast's root
  double bytes = 0;             // S, see above
  int chunks = 1;               // k >= 1
  Fidelity fidelity = Fidelity::Flow;
  std::vector<int> nodes;       // hierarchical (equal counts per node), flexreduce: the node of each rank
  std::vector<double> weights;  // proportional, flexreduce: each rank's capability (> 0)
  std::vector<int> groups;      // proportional all-gather: each rank's group, 0..k-1 (none empty)
  int senders = 1;              // point-to-point: ranks [0, senders) send, the rest receive
  // Per rank (or empty for none): tasks that must end before the rank takes part. Transfers
  // wait for both ends; an analytic collective waits for every rank.
  std::vector<std::vector<TaskId>> after;
};

// Bad input in one option of a spec: names the field at fault (`weights`, `groups`, `senders`:
// a plan file's key of the same name), so a plan can point at it.
class CollectiveOptionError : public InputError {
 public:
  CollectiveOptionError(std::string option, const std::string& what) : InputError(what), option_(std::move(option)) {}
  const std::string& option() const { return option_; }

 private:
  std::string option_;
};

// Appends the collective to g and returns, per rank, a task that ends when the collective is
// over on that rank (its last send and last receive done). InputError on bad input: a group
// that is empty or has a repeated member, bytes <= 0, chunks < 1, an unknown algorithm, an
// algorithm that does not implement the operation, `groups` where the algorithm takes none for
// the operation, or options that do not fit the group (CollectiveOptionError).
std::vector<TaskId> lower_collective(TaskGraph& g, const CollectiveSpec& spec, const Network& net);

// About how many transfers the flow lowering of a collective of `ranks` members in `chunks`
// chunks creates: 2 n max(1, n-1) k, a ring or direct all-reduce's (the other operations and
// algorithms move fewer), beside a join or two per rank. For the cap on what a plan may lower
// into, and for the room the lowering reserves in the task graph ahead.
double collective_transfers_estimate(double ranks, double chunks);

// The alpha-beta closed form the analytic fidelity waits, in seconds (same validation).
double analytic_seconds(const CollectiveSpec& spec, const Network& net);

}  // namespace placesim::engine
