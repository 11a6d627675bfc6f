// The TaskGraph: the single IR every executor runs (docs/execution.md).
//
// It knows nothing of GPUs, models or placers. It holds
//   * resources: capacities per second (a GPU's compute = 1, a link direction = bytes/s, ...);
//   * queues: named orderings; a task starts only after the task before it in its queue ended,
//     and a queue's order is the order its tasks were added (so it is not stored: see
//     queue_predecessors and queue_orders);
//   * tasks: each with dependencies, a queue, the resources it uses and how much of each
//     (a_r: the amount consumed over the task's whole life), an optional latency waited before
//     it becomes an activity, and an optional cap on its progress rate;
//   * memory pools and buffers: bytes held on a pool between two task events;
//   * traffic: what tasks move from one device to another, for the communication metric only.
// scheduler/lower/lower.cpp is the one place that builds TaskGraphs from plans.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sim/core/time.hpp"
#include "sim/engine/shared_uses.hpp"
#include "sim/engine/short_list.hpp"

namespace placesim::engine {

using ResourceId = std::int32_t;
using QueueId = std::int32_t;
using TaskId = std::int32_t;
using PoolId = std::int32_t;

inline constexpr double kUnbounded = std::numeric_limits<double>::infinity();

struct Resource {
  std::string name;       // "gpu0", "pcie0.up", ...: for traces only
  double capacity = 1.0;  // units per second, > 0
  // Serve one activity at a time, in start order (a GPU with concurrent_kernels: false).
  bool exclusive = false;
};

enum class TaskKind : std::uint8_t { Compute, Transfer, Dha, Launch };
const char* to_string(TaskKind k);

// A task consumes `amount` of a resource over its life: a Compute of duration d uses d of its
// device (capacity 1/s); a Transfer of b bytes uses b of every link direction on its route.
struct Use {
  ResourceId resource;
  double amount;
};

// Most tasks have one or two of each: kept inline (short_list.hpp).
using DepList = ShortList<TaskId, 2>;
using UseList = ShortList<Use, 1>;

// What every task has: 64 bytes, at tens of millions of tasks the graph's bulk. Its name is
// kept by its graph (TaskGraph::name), all names in one block, and so is what few tasks have
// (TaskExtras).
struct Task {
  DepList deps;
  UseList uses;                   // empty: ends as soon as its latency has passed; see add_task
  TimePs latency = 0;             // waited before the task becomes an activity
  double bytes = 0;               // bytes moved (Transfer, Dha): metrics, its sharing unit (rate_groups.hpp)
  QueueId queue = -1;
  TaskKind kind = TaskKind::Compute;
};

// What some tasks have, kept by the graph apart from their Task (TaskGraph::rate_cap, op).
struct TaskExtras {
  double rate_cap = kUnbounded;   // upper bound on progress rate (1/s)
  std::int32_t op = -1;           // graph node it implements, -1 if none (for trace diffs)
};

struct Pool {
  std::string name;  // "gpu0.mem"
  double capacity = kUnbounded;
};

// Bytes a task moves from one device to another, recorded for the communication metric
// (scheduler/comm_bytes.hpp). The engine never reads it: a task's time follows from its `uses`
// and `bytes` alone. Devices are the builder's indices (topology devices in lower(), group
// members in the collectives); `kind` says what moved them ("activation", "all-reduce", ...): a
// string with static storage (a literal, or to_string of a collective), one pointer per record.
struct Traffic {
  TaskId task = -1;
  std::int32_t src = -1, dst = -1;
  const char* kind = "";
  double bytes = 0;
};

// Memory held on a pool: from an allocation event to the end of the last of `free_after`.
struct Buffer {
  std::string name;
  PoolId pool = -1;
  double bytes = 0;
  TaskId alloc_task = -1;        // -1: allocated at time 0
  bool alloc_at_end = false;     // allocate when alloc_task ends (else when it starts)
  std::vector<TaskId> free_after;  // empty: held until the end of the run
};

struct TaskGraph {
  std::vector<Resource> resources;
  std::vector<std::string> queues;  // queue names
  std::vector<Task> tasks;  // added by add_task only (which keeps the names beside them)
  std::vector<Pool> pools;
  std::vector<Buffer> buffers;
  std::vector<Traffic> traffic;

  ResourceId add_resource(std::string name, double capacity, bool exclusive = false);
  QueueId add_queue(std::string name);
  QueueId find_queue(const std::string& name) const;  // -1 when absent
  TaskId find_task(std::string_view name) const;      // the first of that name; -1 when absent
  // Appends the task to the end of its queue's order. A list of several uses is kept once per
  // graph, whichever tasks hold it (shared_uses.hpp). Throws InputError when its queue does not
  // exist or the graph already holds as many tasks as a TaskId numbers.
  TaskId add_task(std::string_view name, Task t, const TaskExtras& extras = {});
  double rate_cap(TaskId t) const;  // its TaskExtras::rate_cap: kUnbounded unless given one
  void set_rate_cap(TaskId t, double cap);
  std::int32_t op(TaskId t) const { return static_cast<std::size_t>(t) < ops_.size() ? ops_[t] : -1; }
  // Per task, the task before it in its queue, -1 for a queue's first.
  std::vector<TaskId> queue_predecessors() const;
  // Per queue, its tasks in execution order.
  std::vector<std::vector<TaskId>> queue_orders() const;
  // Task t's name, rebuilt from the graph's one block of names (see names_).
  std::string name(TaskId t) const;
  std::size_t names_bytes() const { return names_.size(); }  // what that block takes
  // Room for about `more` tasks, whose names take about `name_bytes` each in the block of
  // names (what follows the part each shares with the name before it), beyond those added
  // (grown by at least doubling, so that many small reservations cost no more than growth): a
  // builder that knows how many it adds spares the copies, and the moment of holding them
  // twice, of growth. Room never used costs address space, not memory.
  void reserve_tasks(std::size_t more, std::size_t name_bytes = 0);
  PoolId add_pool(std::string name, double capacity);
  void add_buffer(Buffer b);

  // Checks ids, capacities, amounts and that deps point backwards or are at least valid.
  // Throws InputError naming the task on violation.
  void validate() const;

 private:
  // Declared after `tasks`: assigned after them, and destroyed before them (a task's borrowed
  // list is never freed by the task).
  friend class NameReader;
  void add_name(std::string_view name);

  SharedUses shared_uses_;  // lists of several uses, once each (shared_uses.hpp)
  // Every task's name, front-coded (as a sorted-string table's blocks are): per task, how many
  // leading characters it shares with the name before it, how many follow, and those. A
  // collective's transfers are named alike ("ar.s12.c0.1022>1023" after "ar.s12.c0.1021>1022"),
  // so an entry is a few bytes where a name is tens. Every kNamesPerRestart-th entry shares
  // nothing and where it begins is kept: a name is rebuilt from at most that many entries.
  static constexpr std::size_t kNamesPerRestart = 16;
  std::string names_;
  std::vector<std::uint64_t> restart_;  // where entries 0, 16, 32, ... begin in names_
  std::size_t named_ = 0;               // entries in names_ (== tasks.size() unless pushed by hand)
  std::string last_name_;               // the last entry's name, to share a prefix with
  std::vector<std::pair<TaskId, double>> rate_caps_;  // the tasks given one, by id
  std::vector<std::int32_t> ops_;  // per task up to the last given an op (-1 for none)
};

// The graph's task names in task order, each decoded once (TaskGraph::name(t) decodes up to 16
// entries): for whoever reads every name, as a trace writer does.
class NameReader {
 public:
  explicit NameReader(const TaskGraph& g) : g_(g) {}
  // The next task's name, valid until the next call. Call at most once per task.
  std::string_view next();

 private:
  const TaskGraph& g_;
  std::size_t at_ = 0;  // in g_.names_
  std::string name_;
};

}  // namespace placesim::engine
