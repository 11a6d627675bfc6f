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
#include <vector>

#include "sim/core/time.hpp"
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

// A task's name is kept by its graph (TaskGraph::name), all names in one block: a string per
// task would cost more than the rest of the task.
struct Task {
  TaskKind kind = TaskKind::Compute;
  QueueId queue = -1;
  DepList deps;
  UseList uses;                   // empty: ends as soon as its latency has passed
  TimePs latency = 0;             // waited before the task becomes an activity
  double rate_cap = kUnbounded;   // upper bound on progress rate (1/s)
  double bytes = 0;               // bytes moved (Transfer, Dha): metrics, its sharing unit (rate_groups.hpp)
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
  // Appends the task to the end of its queue's order. Throws InputError when its queue does not
  // exist or the names of all tasks would exceed 4 GiB.
  TaskId add_task(std::string_view name, Task t);
  // Per task, the task before it in its queue, -1 for a queue's first.
  std::vector<TaskId> queue_predecessors() const;
  // Per queue, its tasks in execution order.
  std::vector<std::vector<TaskId>> queue_orders() const;
  std::string_view name(TaskId t) const {
    const std::uint32_t begin = t == 0 ? 0 : name_end_[t - 1];
    return std::string_view(names_).substr(begin, name_end_[t] - begin);
  }
  // Room for about `more` tasks, as many traffic records, and names of about `name_bytes`
  // each, beyond those added (grown by at least doubling, so that many small reservations cost
  // no more than growth): a builder that knows how many it adds spares the copies, and the
  // moment of holding them twice, of growth. Room never used costs address space, not memory.
  void reserve_tasks(std::size_t more, std::size_t name_bytes = 0);
  PoolId add_pool(std::string name, double capacity);
  void add_buffer(Buffer b);

  // Checks ids, capacities, amounts and that deps point backwards or are at least valid.
  // Throws InputError naming the task on violation.
  void validate() const;

 private:
  std::string names_;                     // every task's name, end to end
  std::vector<std::uint32_t> name_end_;  // per task, where its name ends in names_
};

}  // namespace placesim::engine
