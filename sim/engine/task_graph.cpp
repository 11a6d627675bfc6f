#include "sim/engine/task_graph.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/core/error.hpp"

namespace placesim::engine {

const char* to_string(TaskKind k) {
  switch (k) {
    case TaskKind::Compute: return "compute";
    case TaskKind::Transfer: return "transfer";
    case TaskKind::Dha: return "dha";
    case TaskKind::Launch: return "launch";
  }
  return "unknown";
}

ResourceId TaskGraph::add_resource(std::string name, double capacity, bool exclusive) {
  resources.push_back(Resource{std::move(name), capacity, exclusive});
  return static_cast<ResourceId>(resources.size() - 1);
}

QueueId TaskGraph::add_queue(std::string name) {
  queues.push_back(std::move(name));
  return static_cast<QueueId>(queues.size() - 1);
}

QueueId TaskGraph::find_queue(const std::string& name) const {
  for (std::size_t q = 0; q < queues.size(); ++q) {
    if (queues[q] == name) return static_cast<QueueId>(q);
  }
  return -1;
}

TaskId TaskGraph::add_task(std::string_view name, Task t, const TaskExtras& extras) {
  const auto id = static_cast<TaskId>(tasks.size());
  if (t.queue < 0 || t.queue >= static_cast<QueueId>(queues.size())) {
    throw InputError("task '" + std::string(name) + "': queue " + std::to_string(t.queue) + " does not exist");
  }
  if (tasks.size() >= static_cast<std::size_t>(std::numeric_limits<TaskId>::max())) {
    throw InputError("task '" + std::string(name) + "': a task graph holds at most " +
                     std::to_string(std::numeric_limits<TaskId>::max()) + " tasks");
  }
  shared_uses_.share(t.uses);
  tasks.push_back(std::move(t));
  add_name(name);
  if (extras.rate_cap != kUnbounded) rate_caps_.emplace_back(id, extras.rate_cap);
  if (extras.op != -1) {
    ops_.resize(tasks.size(), -1);
    ops_[id] = extras.op;
  }
  return id;
}

double TaskGraph::rate_cap(TaskId t) const {
  const auto at = std::lower_bound(rate_caps_.begin(), rate_caps_.end(), std::pair{t, -kUnbounded});
  return at != rate_caps_.end() && at->first == t ? at->second : kUnbounded;
}

void TaskGraph::set_rate_cap(TaskId t, double cap) {
  const auto at = std::lower_bound(rate_caps_.begin(), rate_caps_.end(), std::pair{t, -kUnbounded});
  if (at != rate_caps_.end() && at->first == t) {
    at->second = cap;
  } else {
    rate_caps_.insert(at, {t, cap});
  }
}

namespace {

void put_length(std::string& out, std::size_t n) {  // LEB128: 7 bits a byte, low bits first
  while (n >= 0x80) {
    out += static_cast<char>((n & 0x7f) | 0x80);
    n >>= 7;
  }
  out += static_cast<char>(n);
}

std::size_t get_length(const std::string& in, std::size_t& at) {
  std::size_t n = 0;
  for (int shift = 0;; shift += 7) {
    const auto b = static_cast<unsigned char>(in[at++]);
    n |= static_cast<std::size_t>(b & 0x7f) << shift;
    if (b < 0x80) return n;
  }
}

// Decodes the entry at `at` onto `name` (the previous entry's name), moving `at` past it.
void decode_entry(const std::string& names, std::size_t& at, std::string& name) {
  const std::size_t shared = get_length(names, at), rest = get_length(names, at);
  name.resize(shared);
  name.append(names, at, rest);
  at += rest;
}

}  // namespace

void TaskGraph::add_name(std::string_view name) {
  std::size_t shared = 0;
  if (named_ % kNamesPerRestart == 0) {
    restart_.push_back(names_.size());
  } else {
    const std::size_t most = std::min(name.size(), last_name_.size());
    while (shared < most && name[shared] == last_name_[shared]) ++shared;
  }
  put_length(names_, shared);
  put_length(names_, name.size() - shared);
  names_.append(name.substr(shared));
  last_name_.assign(name);
  ++named_;
}

std::string TaskGraph::name(TaskId t) const {
  const auto i = static_cast<std::size_t>(t);
  PLACESIM_ASSERT(i < named_, "name of a task that has none");
  std::size_t at = restart_[i / kNamesPerRestart];
  std::string name;
  for (std::size_t k = i - i % kNamesPerRestart; k <= i; ++k) decode_entry(names_, at, name);
  return name;
}

std::string_view NameReader::next() {
  decode_entry(g_.names_, at_, name_);
  return name_;
}

std::vector<TaskId> TaskGraph::queue_predecessors() const {
  std::vector<TaskId> last(queues.size(), -1), pred(tasks.size());
  for (std::size_t t = 0; t < tasks.size(); ++t) {
    pred[t] = last[tasks[t].queue];
    last[tasks[t].queue] = static_cast<TaskId>(t);
  }
  return pred;
}

std::vector<std::vector<TaskId>> TaskGraph::queue_orders() const {
  std::vector<std::vector<TaskId>> orders(queues.size());
  for (std::size_t t = 0; t < tasks.size(); ++t) orders[tasks[t].queue].push_back(static_cast<TaskId>(t));
  return orders;
}

namespace {

template <class Container>
void reserve_more(Container& c, std::size_t more) {
  if (c.size() + more > c.capacity()) c.reserve(std::max(c.size() + more, 2 * c.capacity()));
}

}  // namespace

void TaskGraph::reserve_tasks(std::size_t more, std::size_t name_bytes) {
  reserve_more(tasks, more);
  restart_.reserve(tasks.capacity() / kNamesPerRestart + 1);
  reserve_more(names_, more * name_bytes);
}

TaskId TaskGraph::find_task(std::string_view name) const {
  NameReader names(*this);
  for (std::size_t t = 0; t < named_; ++t) {
    if (names.next() == name) return static_cast<TaskId>(t);
  }
  return -1;
}

PoolId TaskGraph::add_pool(std::string name, double capacity) {
  pools.push_back(Pool{std::move(name), capacity});
  return static_cast<PoolId>(pools.size() - 1);
}

void TaskGraph::add_buffer(Buffer b) { buffers.push_back(std::move(b)); }

namespace {

template <class Id>
bool valid(Id id, std::size_t n) {
  return id >= 0 && static_cast<std::size_t>(id) < n;
}

[[noreturn]] void bad_task(const TaskGraph& g, TaskId id, const std::string& what) {
  throw InputError("task '" + std::string(g.name(id)) + "' (#" + std::to_string(id) + "): " + what);
}

}  // namespace

void TaskGraph::validate() const {
  PLACESIM_ASSERT(named_ == tasks.size(), "tasks added other than by add_task");
  for (const Resource& r : resources) {
    if (!(r.capacity > 0) || !std::isfinite(r.capacity)) {
      throw InputError("resource '" + r.name + "': capacity must be positive and finite");
    }
  }
  for (const Pool& p : pools) {
    if (!(p.capacity > 0)) throw InputError("memory pool '" + p.name + "': capacity must be positive");
  }
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const Task& t = tasks[i];
    const auto id = static_cast<TaskId>(i);
    if (!valid(t.queue, queues.size())) bad_task(*this, id, "queue " + std::to_string(t.queue) + " does not exist");
    for (TaskId d : t.deps) {
      if (!valid(d, tasks.size())) bad_task(*this, id, "dependency " + std::to_string(d) + " does not exist");
      if (d == id) bad_task(*this, id, "depends on itself");
    }
    for (const Use& u : t.uses) {
      if (!valid(u.resource, resources.size())) bad_task(*this, id, "resource " + std::to_string(u.resource) + " does not exist");
      if (!(u.amount >= 0) || !std::isfinite(u.amount)) bad_task(*this, id, "amount of '" + resources[u.resource].name + "' must be finite and >= 0");
    }
    if (t.latency < 0) bad_task(*this, id, "latency must be >= 0");
    if (!(t.bytes >= 0)) bad_task(*this, id, "bytes must be >= 0");
  }
  for (const auto& [id, cap] : rate_caps_) {
    if (!valid(id, tasks.size())) throw InputError("rate cap of task " + std::to_string(id) + ", which does not exist");
    if (!(cap > 0)) bad_task(*this, id, "rate cap must be positive");
  }
  for (const Traffic& t : traffic) {
    // The message is built only on failure: a graph can hold tens of millions of records.
    auto bad = [&t](const std::string& what) { throw InputError(std::string("traffic '") + t.kind + "': " + what); };
    if (!valid(t.task, tasks.size())) bad("task " + std::to_string(t.task) + " does not exist");
    if (t.src < 0 || t.dst < 0 || t.src == t.dst) {
      bad("needs two different devices, got " + std::to_string(t.src) + " and " + std::to_string(t.dst));
    }
    if (!(t.bytes >= 0) || !std::isfinite(t.bytes)) bad("bytes must be finite and >= 0");
  }
  for (const Buffer& b : buffers) {
    const std::string where = "buffer '" + b.name + "': ";
    if (!valid(b.pool, pools.size())) throw InputError(where + "memory pool " + std::to_string(b.pool) + " does not exist");
    if (!(b.bytes >= 0) || !std::isfinite(b.bytes)) throw InputError(where + "bytes must be finite and >= 0");
    if (b.alloc_task != -1 && !valid(b.alloc_task, tasks.size())) {
      throw InputError(where + "allocating task " + std::to_string(b.alloc_task) + " does not exist");
    }
    for (TaskId f : b.free_after) {
      if (!valid(f, tasks.size())) throw InputError(where + "freeing task " + std::to_string(f) + " does not exist");
    }
  }
}

}  // namespace placesim::engine
