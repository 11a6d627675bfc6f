#include "sim/engine/memory_ledger.hpp"

#include <algorithm>

namespace placesim::engine {

template <class TasksOf>
IdRows MemoryLedger::per_task(const TaskGraph& g, TasksOf tasks_of) {
  return IdRows::build(g.tasks.size(), [&](const auto& emit) {
    for (std::size_t i = 0; i < g.buffers.size(); ++i)
      tasks_of(g.buffers[i], [&](TaskId t) { emit(static_cast<std::size_t>(t), static_cast<std::int32_t>(i)); });
  });
}

MemoryLedger::MemoryLedger(const TaskGraph& g)
    : g_(g),
      alloc_at_start_(per_task(g, [](const Buffer& b, auto add) { if (b.alloc_task >= 0 && !b.alloc_at_end) add(b.alloc_task); })),
      alloc_at_end_(per_task(g, [](const Buffer& b, auto add) { if (b.alloc_task >= 0 && b.alloc_at_end) add(b.alloc_task); })),
      frees_at_end_(per_task(g, [](const Buffer& b, auto add) { for (TaskId f : b.free_after) add(f); })),
      frees_left_(g.buffers.size(), 0),
      allocated_(g.buffers.size(), 0),
      bytes_(g.pools.size(), 0.0),
      changed_(g.pools.size(), 0),
      series_(g.pools.size()) {
  // Every pool gets a first sample at the end of instant 0.
  for (std::size_t p = 0; p < g.pools.size(); ++p) {
    changed_[p] = 1;
    changed_pools_.push_back(static_cast<PoolId>(p));
  }
  for (std::size_t i = 0; i < g.buffers.size(); ++i) {
    const Buffer& b = g.buffers[i];
    const auto id = static_cast<std::int32_t>(i);
    frees_left_[i] = static_cast<std::int32_t>(b.free_after.size());
    if (b.alloc_task < 0) allocate(id);
  }
}

void MemoryLedger::change(PoolId pool, double delta) {
  bytes_[pool] += delta;
  if (!changed_[pool]) {
    changed_[pool] = 1;
    changed_pools_.push_back(pool);
  }
}

void MemoryLedger::allocate(std::int32_t buffer) {
  const Buffer& b = g_.buffers[buffer];
  if (!b.free_after.empty() && frees_left_[buffer] == 0) return;  // already past its free
  allocated_[buffer] = 1;
  change(b.pool, b.bytes);
}

void MemoryLedger::free_one(std::int32_t buffer) {
  if (--frees_left_[buffer] > 0 || !allocated_[buffer]) return;
  allocated_[buffer] = 0;
  change(g_.buffers[buffer].pool, -g_.buffers[buffer].bytes);
}

void MemoryLedger::task_started(TaskId t) {
  for (const std::int32_t b : alloc_at_start_.row(static_cast<std::size_t>(t))) allocate(b);
}

void MemoryLedger::task_ended(TaskId t) {
  for (const std::int32_t b : alloc_at_end_.row(static_cast<std::size_t>(t))) allocate(b);
  for (const std::int32_t b : frees_at_end_.row(static_cast<std::size_t>(t))) free_one(b);
}

void MemoryLedger::end_instant(TimePs now) {
  for (PoolId p : changed_pools_) {
    changed_[p] = 0;
    std::vector<Sample>& s = series_[p];
    if (!s.empty() && s.back().value == bytes_[p]) continue;
    s.push_back(Sample{now, bytes_[p]});
  }
  changed_pools_.clear();
}

void MemoryLedger::write(Trace& trace) {
  trace.peak_memory.assign(series_.size(), 0.0);
  for (std::size_t p = 0; p < series_.size(); ++p) {
    for (const Sample& s : series_[p]) trace.peak_memory[p] = std::max(trace.peak_memory[p], s.value);
  }
  trace.memory = std::move(series_);
}

}  // namespace placesim::engine
