// The flow-fidelity lowering of one collective: what every algorithm file builds with.
//
// Each ordered pair of ranks that exchanges data gets one connection per channel: a queue of
// its own ("<name>:<src>><dst>", "#<channel>" appended past channel 0; named by group member),
// so the transfers on it run in the order they were appended, as on an NCCL channel. Algorithms append transfers in an order in which every
// dependency comes earlier; queue order is append order too, so the graph can always progress.
// A rank's collective is over when the last transfer of every connection it sends or receives
// on has ended (a queue's last task ends after all the others).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "sim/engine/collectives/collective.hpp"

namespace placesim::engine {

// Per member of a set of ranks, per chunk: the tasks after which that member holds that chunk.
using ChunkDeps = std::vector<std::vector<std::vector<TaskId>>>;

// No dependencies yet: `members` entries of `chunks` empty lists.
ChunkDeps no_deps(std::size_t members, int chunks);

class Lowering {
 public:
  Lowering(TaskGraph& g, const CollectiveSpec& spec, const Network& net);

  const CollectiveSpec& spec() const { return spec_; }
  int ranks() const { return static_cast<int>(spec_.group.size()); }
  int chunks() const { return spec_.chunks; }

  // A Transfer of `bytes` from rank src to rank dst after `deps` and after both ranks' `after`
  // tasks, appended to the connection src->dst of `channel`. `label` names the step ("s3.c0").
  // Its bytes are recorded as traffic of the operation's kind between the two group members
  // (one record per connection, of all its transfers' bytes, counted once its last has ended).
  TaskId send(int src, int dst, double bytes, DepList deps, const std::string& label, int channel = 0);
  // A task that uses nothing and ends as soon as `deps` have: gathers rank r's arrivals.
  TaskId join(int rank, DepList deps, const std::string& label);
  // Per rank, a join after the last transfer of each of its connections.
  std::vector<TaskId> finish();

 private:
  struct Connection {
    QueueId queue = -1;
    TaskId last = -1;       // its latest transfer, -1 before the first
    std::int64_t traffic = -1;  // its record in g_.traffic
    double bytes = 0;       // of the transfer `uses` was asked for
    UseList uses;
    TimePs latency = 0;
  };
  QueueId rank_queue(int rank);

  TaskGraph& g_;
  const CollectiveSpec& spec_;
  const Network& net_;
  std::vector<TaskId> gate_;                    // per rank: its `after`, joined; -1 if none
  std::vector<QueueId> rank_queue_;             // per rank, for joins; -1 until needed
  std::vector<Connection> connections_;
  std::vector<std::vector<int>> connections_of_;  // per rank, indexes into connections_
  std::vector<std::vector<std::array<int, 3>>> out_;  // per src: (dst, channel, connection index)
  std::string name_;  // send()'s task name, built here
};

// The collective's flow lowering alone on the network (no `after`, nothing else running),
// simulated: when each rank is done, in seconds from its start. The analytic fidelity of an
// algorithm whose alpha-beta closed form is not exact under max-min sharing (proportional) waits
// these instead, each rank its own, so that the two fidelities agree wherever nothing else
// contends. Solved once per spec and network.
const std::vector<double>& flow_alone_ends(const CollectiveSpec& spec, const Network& net);
// The last of them: the collective's analytic time.
double flow_alone_seconds(const CollectiveSpec& spec, const Network& net);

// The link fidelity's loads: the collective's flow lowering alone, summed per resource; its
// latency the longest chain of route latencies through the transfers, each after its
// dependencies and after the transfer before it on its connection. Computed once per spec and
// network, as flow_alone_ends.
const LinkLoads& link_loads(const CollectiveSpec& spec, const Network& net);

// The ideal fidelity: the flow lowering's sends in steps (a send is one step after the latest
// send it waits for); each step ends when its busiest resource has moved the step's load at
// full capacity, after the step's longest route latency, and steps follow one another. So sends
// sliced in proportion all end together, no link part idle: for `proportional`, AsymGroup's
// Eq. 2-4 (the most loaded node's volume) in seconds.
double ideal_seconds(const CollectiveSpec& spec, const Network& net);

// The worst link an algorithm crosses: max latency and min bandwidth over its (src, dst) pairs.
struct AlphaBeta {
  double latency_s = 0;
  double bandwidth = 0;
};
AlphaBeta worst_pair(const CollectiveSpec& spec, const Network& net, const std::vector<std::pair<int, int>>& pairs);

}  // namespace placesim::engine
