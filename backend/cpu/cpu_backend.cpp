#include "backend/cpu/cpu_backend.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <fmt/format.h>
#include <limits>
#include <mutex>
#include <thread>
#include <vector>

#include "backend/cpu/core_team.hpp"
#include "backend/cpu/kernels.hpp"
#include "backend/cpu/machine.hpp"
#include "backend/cpu/task_buffers.hpp"
#include "backend/measured_trace.hpp"
#include "sim/core/error.hpp"
#include "sim/core/units.hpp"

namespace placesim::backend {
namespace {

using Clock = std::chrono::steady_clock;
constexpr int kReleased = std::numeric_limits<int>::max();  // a completion word after cancel

void check_workload(const engine::TaskGraph& g, const Workload& w) {
  PLACESIM_ASSERT(w.tasks.size() == g.tasks.size() && w.queue_unit.size() == g.queues.size(),
                  "workload does not match the task graph");
  auto cpu_side = [&](int unit, const std::string& what) {
    PLACESIM_ASSERT(unit >= 0 && unit < static_cast<int>(w.units.size()), "unit index out of range");
    if (w.units[unit].kind == Unit::Kind::Gpu)
      throw InputError(fmt::format("{} runs on GPU '{}': use --backend cuda", what, w.units[unit].id));
  };
  double bytes = 0;
  const std::vector<std::vector<engine::TaskId>> orders = g.queue_orders();
  for (size_t q = 0; q < g.queues.size(); ++q)
    if (!orders[q].empty()) cpu_side(w.queue_unit[q], fmt::format("queue '{}'", g.queues[q]));
  for (size_t t = 0; t < g.tasks.size(); ++t) {
    const Work& work = w.tasks[t];
    if (work.kind == WorkKind::Dha)
      throw InputError(fmt::format("task '{}' reads host memory from a GPU (DHA): use --backend cuda", g.name(t)));
    if (work.kind == WorkKind::Copy) {
      cpu_side(work.src, fmt::format("copy '{}'", g.name(t)));
      cpu_side(work.dst, fmt::format("copy '{}'", g.name(t)));
    }
    bytes += cpu::bytes_needed(work);
  }
  const double have = this_machine().memory_bytes();
  if (bytes > kMaxMemoryFraction * have)
    throw InputError(fmt::format("the plan needs {} of buffers, more than {:.0f}% of this machine's {}; refused",
                                 units::format_bytes(bytes), 100 * kMaxMemoryFraction, units::format_bytes(have)));
}

// Shared by the workers and the thread that drives the runs.
class Runner {
 public:
  Runner(const engine::TaskGraph& g, const Workload& w)
      : g_(g), w_(w), orders_(g.queue_orders()), done_(g.tasks.size()), times_(g.tasks.size()) {
    for (auto& d : done_) d.store(0);
  }

  std::vector<engine::Trace> run_all(const BackendOptions& opts) {
    std::vector<std::thread> threads;
    for (size_t q = 0; q < g_.queues.size(); ++q)
      if (!orders_[q].empty()) threads.emplace_back([this, q, n = opts.warmup + opts.repeats] { worker(q, n); });
    std::vector<engine::Trace> traces;
    std::exception_ptr failure;
    try {
      wait_for(ready_, threads.size(), opts.watchdog_s, 0);
      for (int run = 1; run <= opts.warmup + opts.repeats; ++run) {
        {
          std::lock_guard lock(mu_);
          finished_ = 0;
          for (TaskTimes& t : times_) t = {};
        }
        t0_ = Clock::now();
        go_.store(run, std::memory_order_release);
        go_.notify_all();
        wait_for(finished_, threads.size(), opts.watchdog_s, run);
        if (run > opts.warmup) traces.push_back(make_trace(g_, times_));
      }
    } catch (...) {
      failure = std::current_exception();
      release_all();
    }
    for (std::thread& t : threads) t.join();
    if (worker_failure_) std::rethrow_exception(worker_failure_);
    if (failure) std::rethrow_exception(failure);
    return traces;
  }

 private:
  // Waits until `counter` reaches `target`; the watchdog fires after `limit_s`.
  void wait_for(const size_t& counter, size_t target, double limit_s, int run) {
    std::unique_lock lock(mu_);
    const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limit_s));
    if (!cv_.wait_until(lock, deadline, [&] { return counter >= target || worker_failure_; }))
      throw WatchdogError(fmt::format("watchdog: run {} did not finish within {} s: {}", run, limit_s, stuck_task(run)));
    if (worker_failure_) throw std::runtime_error("a worker failed");
  }

  // A task of run `run` that never finished: the first unfinished task of a queue, preferring
  // one whose dependencies have all ended (it is running); else what the first one waits for.
  std::string stuck_task(int run) const {
    std::string waiting;
    for (size_t q = 0; q < g_.queues.size(); ++q)
      for (engine::TaskId t : orders_[q]) {
        if (done_[t].load() >= run) continue;
        const engine::Task& task = g_.tasks[t];
        engine::TaskId blocker = -1;
        for (engine::TaskId d : task.deps)
          if (done_[d].load() < run) {
            blocker = d;
            break;
          }
        if (blocker < 0) return fmt::format("task '{}' on queue '{}' started and never finished", g_.name(t), g_.queues[q]);
        if (waiting.empty())
          waiting = fmt::format("task '{}' on queue '{}' never finished: it waits for task '{}'", g_.name(t),
                                g_.queues[q], g_.name(blocker));
        break;
      }
    return waiting.empty() ? "no queue has an unfinished task" : waiting;
  }

  void release_all() {
    cancelled_.store(true);
    for (auto& d : done_) {
      d.store(kReleased, std::memory_order_release);
      d.notify_all();
    }
    go_.store(kReleased, std::memory_order_release);
    go_.notify_all();
  }

  static void wait_until_at_least(std::atomic<int>& word, int value) {
    for (int cur; (cur = word.load(std::memory_order_acquire)) < value;) word.wait(cur, std::memory_order_acquire);
  }

  void worker(size_t q, int runs) {
    try {
      const Unit& unit = w_.units[w_.queue_unit[q]];
      const bool on_cores = unit.kind == Unit::Kind::CpuCore;
      if (on_cores) this_machine().pin_this_thread(unit.index);
      cpu::CoreTeam team(on_cores ? unit.index : -1, on_cores ? unit.cores : 1);
      const std::vector<engine::TaskId>& order = orders_[q];
      std::vector<cpu::TaskBuffers> buffers;
      buffers.reserve(order.size());
      for (engine::TaskId t : order) buffers.emplace_back(w_.tasks[t]);
      signal(ready_);
      for (int run = 1; run <= runs; ++run) {
        wait_until_at_least(go_, run);
        if (cancelled_.load()) return;
        const Clock::time_point t0 = t0_;
        for (size_t i = 0; i < order.size(); ++i) {
          const engine::TaskId t = order[i];
          for (engine::TaskId d : g_.tasks[t].deps) wait_until_at_least(done_[d], run);
          if (cancelled_.load()) return;
          const Clock::time_point start = Clock::now();
          team.run([&](int part, int parts) { buffers[i].run(w_.tasks[t], part, parts); });
          const Clock::time_point end = Clock::now();
          times_[t] = {ps_since(t0, start), ps_since(t0, end)};
          done_[t].store(run, std::memory_order_release);
          done_[t].notify_all();
        }
        signal(finished_);
      }
    } catch (...) {
      {
        std::lock_guard lock(mu_);
        if (!worker_failure_) worker_failure_ = std::current_exception();
      }
      cv_.notify_all();
    }
  }

  void signal(size_t& counter) {
    {
      std::lock_guard lock(mu_);
      ++counter;
    }
    cv_.notify_all();
  }

  static TimePs ps_since(Clock::time_point t0, Clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(t - t0).count() * 1000;
  }

  const engine::TaskGraph& g_;
  const Workload& w_;
  const std::vector<std::vector<engine::TaskId>> orders_;  // per queue, its tasks in order
  std::vector<std::atomic<int>> done_;  // per task: the last run in which it ended
  std::vector<TaskTimes> times_;        // this run's, written by workers, read after `finished_`
  std::atomic<int> go_{0};              // the run the workers may begin
  std::atomic<bool> cancelled_{false};
  Clock::time_point t0_;                // written before go_ is released, read after it is seen
  std::mutex mu_;
  std::condition_variable cv_;
  size_t ready_ = 0, finished_ = 0;     // workers set up / done with this run (under mu_)
  std::exception_ptr worker_failure_;
};

}  // namespace

Measurement run_cpu(const engine::TaskGraph& g, const Workload& w, const BackendOptions& opts) {
  PLACESIM_ASSERT(opts.repeats >= 1 && opts.warmup >= 0, "at least one recorded run");
  check_workload(g, w);
  cpu::use_one_blas_thread();
  Runner runner(g, w);
  return median_run(runner.run_all(opts));
}

}  // namespace placesim::backend
