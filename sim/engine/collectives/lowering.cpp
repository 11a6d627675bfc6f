#include "sim/engine/collectives/lowering.hpp"

#include <algorithm>
#include <charconv>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <limits>
#include <map>
#include <utility>

#include "sim/engine/collectives/algorithm.hpp"
#include "sim/engine/executor.hpp"

namespace placesim::engine {

namespace {

// Appends "a>b", the two members' device ids (without a string per number: once per task).
void append_member_pair(std::string& s, const CollectiveSpec& spec, int src, int dst) {
  char buf[32];  // two ints of at most 11 characters each, and '>'
  char* end = std::to_chars(buf, buf + 11, spec.group[src]).ptr;
  *end++ = '>';
  end = std::to_chars(end, buf + sizeof buf, spec.group[dst]).ptr;
  s.append(buf, end);
}

// The collective's flows on a graph of their own, waiting for nothing (`after` cleared): the
// ranks' done tasks.
std::vector<TaskId> lower_alone(TaskGraph& scratch, const CollectiveSpec& spec, const Network& net) {
  CollectiveSpec alone = spec;
  alone.after.clear();
  alone.fidelity = Fidelity::Flow;
  Lowering low(scratch, alone, net);
  collective_algorithms().get(spec.algorithm).lower(low);
  return low.finish();
}

// Every field the lowering reads but the name (which only labels tasks) and `after` (cleared);
// "{}" prints a double in its shortest exact form, so equal keys are equal specs.
std::string alone_key(const CollectiveSpec& spec) {
  return fmt::format("{}|{}|{}|{}|{}|{}|{}|{}|{}", spec.algorithm, static_cast<int>(spec.op), fmt::join(spec.group, ","),
                     spec.bytes, spec.chunks, fmt::join(spec.nodes, ","), fmt::join(spec.weights, ","),
                     fmt::join(spec.groups, ","), spec.senders);
}

}  // namespace

ChunkDeps no_deps(std::size_t members, int chunks) {
  return ChunkDeps(members, std::vector<std::vector<TaskId>>(chunks));
}

Lowering::Lowering(TaskGraph& g, const CollectiveSpec& spec, const Network& net)
    : g_(g), spec_(spec), net_(net), gate_(spec.group.size(), -1), rank_queue_(spec.group.size(), -1),
      connections_of_(spec.group.size()), out_(spec.group.size()) {
  for (int r = 0; r < static_cast<int>(spec.after.size()); ++r) {
    const std::vector<TaskId>& a = spec.after[r];
    if (a.size() == 1) gate_[r] = a[0];
    if (a.size() > 1) gate_[r] = join(r, a, "after");
  }
}

QueueId Lowering::rank_queue(int rank) {
  if (rank_queue_[rank] < 0) rank_queue_[rank] = g_.add_queue(spec_.name + ":" + std::to_string(spec_.group[rank]));
  return rank_queue_[rank];
}

TaskId Lowering::send(int src, int dst, double bytes, DepList deps, const std::string& label, int channel) {
  std::vector<std::array<int, 3>>& out = out_[src];
  auto it = std::find_if(out.begin(), out.end(),
                         [dst, channel](const std::array<int, 3>& o) { return o[0] == dst && o[1] == channel; });
  if (it == out.end()) {
    const int c = static_cast<int>(connections_.size());
    std::string queue = spec_.name + ":";
    append_member_pair(queue, spec_, src, dst);
    if (channel > 0) queue += fmt::format("#{}", channel);
    connections_.emplace_back().queue = g_.add_queue(std::move(queue));
    connections_of_[src].push_back(c);
    connections_of_[dst].push_back(c);
    out.push_back({dst, channel, c});
    it = out.end() - 1;
  }
  Connection& conn = connections_[(*it)[2]];
  // Only a connection's first transfer waits for the two ranks' gates: every later one is
  // queued behind it, so the gates have ended before it can start either way (a wait per
  // transfer made most of them hold three dependencies, out of line).
  if (conn.last < 0) {
    for (int r : {src, dst}) {
      if (gate_[r] >= 0) deps.push_back(gate_[r]);
    }
  }
  // A connection's transfers all cross one route, most of the same bytes: asked for once.
  if (conn.last < 0 || bytes != conn.bytes) {
    conn.uses = net_.uses(spec_.group[src], spec_.group[dst], bytes);
    conn.bytes = bytes;
  }
  if (conn.last < 0) conn.latency = net_.latency(spec_.group[src], spec_.group[dst]);
  // The name is built in a buffer kept between calls: no allocation per task.
  name_.assign(spec_.name);
  name_ += '.';
  name_ += label;
  name_ += '.';
  append_member_pair(name_, spec_, src, dst);
  Task t;
  t.kind = TaskKind::Transfer;
  t.queue = conn.queue;
  t.deps = std::move(deps);
  const UseList& uses = conn.uses;  // read, not copied: a copy of a list of several allocates
  t.uses = UseList::borrow(uses.data(), static_cast<std::uint32_t>(uses.size()));
  t.latency = conn.latency;
  t.bytes = bytes;
  conn.last = g_.add_task(name_, std::move(t));
  // From now on the graph's copy of the list (add_task keeps one per graph): the next transfer
  // borrows it too, and add_task finds it without allocating.
  const UseList& kept = std::as_const(g_.tasks)[conn.last].uses;
  conn.uses = UseList::borrow(kept.data(), static_cast<std::uint32_t>(kept.size()));
  // One traffic record per connection, its bytes summed, counted when the connection's last
  // transfer ends (the queue's transfers end in order): a record per transfer was a quarter of
  // a ring's graph.
  if (conn.traffic < 0) {
    conn.traffic = static_cast<std::int64_t>(g_.traffic.size());
    g_.traffic.push_back({conn.last, spec_.group[src], spec_.group[dst], to_string(spec_.op), 0});
  }
  g_.traffic[conn.traffic].task = conn.last;
  g_.traffic[conn.traffic].bytes += bytes;
  return conn.last;
}

TaskId Lowering::join(int rank, DepList deps, const std::string& label) {
  Task t;
  t.kind = TaskKind::Transfer;
  t.queue = rank_queue(rank);
  t.deps = std::move(deps);
  return g_.add_task(spec_.name + "." + label + "." + std::to_string(spec_.group[rank]), std::move(t));
}

std::vector<TaskId> Lowering::finish() {
  std::vector<TaskId> done(spec_.group.size());
  for (int r = 0; r < ranks(); ++r) {
    std::vector<TaskId> last;
    for (int c : connections_of_[r]) last.push_back(connections_[c].last);
    if (gate_[r] >= 0) last.push_back(gate_[r]);
    done[r] = join(r, std::move(last), "done");
  }
  return done;
}

AlphaBeta worst_pair(const CollectiveSpec& spec, const Network& net, const std::vector<std::pair<int, int>>& pairs) {
  AlphaBeta w{0, std::numeric_limits<double>::infinity()};
  for (auto [s, d] : pairs) {
    w.latency_s = std::max(w.latency_s, to_seconds(net.latency(spec.group[s], spec.group[d])));
    w.bandwidth = std::min(w.bandwidth, net.bandwidth(spec.group[s], spec.group[d]));
  }
  return w;
}


const std::vector<double>& flow_alone_ends(const CollectiveSpec& spec, const Network& net) {
  const std::string key = alone_key(spec);
  if (auto it = net.alone_.find(key); it != net.alone_.end()) return it->second;
  TaskGraph scratch;
  const std::vector<TaskId> done = lower_alone(scratch, spec, net);
  // The scratch graph holds the network's resources under the ids its uses() name; ids between
  // them that no transfer uses get a placeholder capacity.
  ResourceId top = -1;
  for (const Task& t : scratch.tasks)
    for (const Use& u : t.uses) top = std::max(top, u.resource);
  scratch.resources.assign(top + 1, Resource{"unused", 1.0});
  for (const Task& t : scratch.tasks)
    for (const Use& u : t.uses) scratch.resources[u.resource] = {fmt::format("r{}", u.resource), net.capacity(u.resource)};
  const Trace trace = simulate(scratch);
  std::vector<double> ends;
  for (TaskId d : done) ends.push_back(to_seconds(trace.tasks[d].end));
  return net.alone_.emplace(key, std::move(ends)).first->second;
}

double ideal_seconds(const CollectiveSpec& spec, const Network& net) {
  TaskGraph scratch;
  lower_alone(scratch, spec, net);
  auto moves = [](const Task& t) { return t.bytes > 0; };
  std::vector<int> step(scratch.tasks.size(), 0);
  std::vector<std::map<ResourceId, double>> load;  // per step: bytes on each resource
  std::vector<TimePs> latency;                      // per step: the longest route latency
  for (std::size_t t = 0; t < scratch.tasks.size(); ++t) {
    const Task& task = scratch.tasks[t];
    for (TaskId d : task.deps) step[t] = std::max(step[t], step[d] + (moves(scratch.tasks[d]) ? 1 : 0));
    if (!moves(task)) continue;
    const auto s = static_cast<std::size_t>(step[t]);
    if (load.size() <= s) load.resize(s + 1), latency.resize(s + 1, 0);
    for (const Use& u : task.uses) load[s][u.resource] += u.amount;
    latency[s] = std::max(latency[s], task.latency);
  }
  double seconds = 0;
  for (std::size_t s = 0; s < load.size(); ++s) {
    double busiest = 0;
    for (auto [r, bytes] : load[s]) busiest = std::max(busiest, bytes / net.capacity(r));
    seconds += to_seconds(latency[s]) + busiest;
  }
  return seconds;
}

const LinkLoads& link_loads(const CollectiveSpec& spec, const Network& net) {
  const std::string key = alone_key(spec);
  if (auto it = net.loads_.find(key); it != net.loads_.end()) return it->second;
  TaskGraph scratch;
  lower_alone(scratch, spec, net);
  LinkLoads out;
  std::map<ResourceId, double> amounts;
  const std::vector<TaskId> before = scratch.queue_predecessors();
  std::vector<TimePs> chain(scratch.tasks.size(), 0);  // latency waited up to each task's end
  for (std::size_t t = 0; t < scratch.tasks.size(); ++t) {
    const Task& task = scratch.tasks[t];
    TimePs start = before[t] >= 0 ? chain[before[t]] : 0;
    for (TaskId d : task.deps) start = std::max(start, chain[d]);
    chain[t] = start + task.latency;
    out.latency = std::max(out.latency, chain[t]);
    for (const Use& u : task.uses) amounts[u.resource] += u.amount;
  }
  out.amounts.assign(amounts.begin(), amounts.end());
  std::map<std::pair<int, int>, double> sent;
  for (const Traffic& t : scratch.traffic) sent[{t.src, t.dst}] += t.bytes;
  for (auto& [pair, bytes] : sent) out.sent.emplace_back(pair.first, pair.second, bytes);
  return net.loads_.emplace(key, std::move(out)).first->second;
}

double flow_alone_seconds(const CollectiveSpec& spec, const Network& net) {
  const std::vector<double>& ends = flow_alone_ends(spec, net);
  return *std::max_element(ends.begin(), ends.end());
}

}  // namespace placesim::engine
