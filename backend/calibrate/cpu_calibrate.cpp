#include "backend/calibrate/cpu_calibrate.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <exception>
#include <memory>
#include <numeric>
#include <thread>

#include <fmt/format.h>

#include "backend/calibrate/interleaved.hpp"
#include "backend/cpu/core_team.hpp"
#include "backend/cpu/cpu_backend.hpp"
#include "backend/cpu/kernels.hpp"
#include "backend/cpu/machine.hpp"
#include "backend/cpu/task_buffers.hpp"

namespace placesim::backend {
namespace {

using Clock = std::chrono::steady_clock;
constexpr double kMiB = 1048576;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

Work gemm_work(long m, long k, long n) {
  Work w;
  w.kind = WorkKind::Gemm;
  w.m = m;
  w.k = k;
  w.n = n;
  return w;
}

Work bytes_work(WorkKind kind, double bytes) {
  Work w;
  w.kind = kind;
  w.bytes = bytes;
  return w;
}

double gemm_flops(const Work& w) { return 2.0 * w.m * w.n * w.k; }

// A kernel and its buffers, allocated (and first touched) on the calibrating thread.
struct Kernel {
  Work work;
  std::unique_ptr<cpu::TaskBuffers> buffers;
  explicit Kernel(const Work& w) : work(w), buffers(std::make_unique<cpu::TaskBuffers>(w)) {}
  void run() { buffers->run(work); }
};

double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// The time the calibrating thread ran on its core, and the time that took, over the
// single-threaded points: a share well below 1 means another process took the core.
struct CoreShare {
  double cpu_s = 0, wall_s = 0;
};

// `reps` back-to-back runs of a kernel: the mean, its CPU time counted in `share`.
double timed(Kernel& k, int reps, CoreShare& share) {
  const double c0 = thread_cpu_seconds();
  const auto t0 = Clock::now();
  for (int r = 0; r < reps; ++r) k.run();
  const double wall = seconds_since(t0);
  share.cpu_s += thread_cpu_seconds() - c0;
  share.wall_s += wall;
  return wall / reps;
}

// One run, timed.
Measure once(Kernel& k, CoreShare& share) {
  return [&k, &share] { return timed(k, 1, share); };
}

// A kernel whose data is already in cache: one untimed pass brings it in, then the mean of
// `reps` back-to-back passes (each far shorter than the clock's noise alone).
Measure hot(Kernel& k, int reps, CoreShare& share) {
  return [&k, reps, &share] {
    k.run();
    return timed(k, reps, share);
  };
}

// `parts` cores of the team each running its own kernel at once: the mean of their times.
Measure together(cpu::CoreTeam& team, std::vector<Kernel>& kernels, int parts) {
  return [&team, &kernels, parts] {
    std::vector<double> s(static_cast<size_t>(parts));
    team.run([&](int part, int) {
      const auto t0 = Clock::now();
      kernels[static_cast<size_t>(part)].run();
      s[static_cast<size_t>(part)] = seconds_since(t0);
    }, parts);
    return std::accumulate(s.begin(), s.end(), 0.0) / parts;
  };
}

// One kernel split over every core of the team, as the backend runs an op on k cores.
Measure split(cpu::CoreTeam& team, Kernel& k) {
  return [&team, &k] {
    const auto t0 = Clock::now();
    team.run([&k](int part, int parts) { k.buffers->run(k.work, part, parts); });
    return seconds_since(t0);
  };
}

// Seconds per empty task through the CPU backend, `queues` queues taking turns.
Measure empty_tasks(int queues) {
  return [queues] {
    constexpr int kTasks = 2000;
    const EmptyChain chain = empty_chain(kTasks, queues);
    BackendOptions o;
    o.warmup = 0;
    o.repeats = 1;
    return to_seconds(run_cpu(chain.graph, chain.workload, o).trace.makespan) / kTasks;
  };
}

// Seconds per op a host dispatch thread hands to core 0 and waits for (dispatched_chain).
Measure dispatched_ops() {
  return [] {
    constexpr int kOps = 1000;
    const EmptyChain chain = dispatched_chain(kOps);
    BackendOptions o;
    o.warmup = 0;
    o.repeats = 1;
    return to_seconds(run_cpu(chain.graph, chain.workload, o).trace.makespan) / kOps;
  };
}

LinearFit fit_bytes(const std::vector<Kernel>& ks, const std::vector<double>& t) {
  std::vector<double> x;
  for (const Kernel& k : ks) x.push_back(k.work.bytes);
  return fit_line(x, t);
}

// Every measurement, on the calling thread (pinned to PU 0) and its team.
CpuCalibration measure(const CalibrateOptions& opts, int cores) {
  CpuCalibration c;
  c.cores = cores;
  c.rounds = opts.repeats;
  c.memory_bytes = this_machine().memory_bytes();
  const double llc = std::max(this_machine().last_level_cache_bytes(), 8 * kMiB);
  c.cache_bytes = this_machine().private_cache_bytes();
  if (!(c.cache_bytes > 0)) c.cache_bytes = 256 * 1024;

  std::vector<Kernel> gemms, cache, copies, contenders, copiers;
  for (long m : {8L, 16L, 32L, 64L, 128L})
    for (auto [k, n] : {std::pair{1024L, 1024L}, {1024L, 4096L}, {4096L, 1024L}, {2048L, 4096L}})
      gemms.emplace_back(gemm_work(m, k, n));
  // Cache: 1/8 .. 5/8 of one core's private cache, source and destination together.
  for (double f : {0.125, 0.25, 0.375, 0.5, 0.625}) cache.emplace_back(bytes_work(WorkKind::Stream, f * c.cache_bytes));
  // DRAM: 1.5 .. 5 times the last-level cache, so little of a buffer is left in it (and below
  // the sizes where glibc's memcpy turns to non-temporal stores, a regime of its own).
  for (double f : {1.5, 2.0, 3.0, 4.0, 5.0}) copies.emplace_back(bytes_work(WorkKind::Copy, f * llc));
  // Contention: a GEMM whose weights (1 MiB) stay in cache, so the cores share arithmetic and
  // caches only; DRAM sharing is measured apart, by the gemm shapes split over every core.
  const Work contender = gemm_work(64, 512, 512);
  const Work copier = bytes_work(WorkKind::Copy, 2 * llc);
  for (int i = 0; i < cores; ++i) {
    contenders.emplace_back(contender);
    copiers.emplace_back(copier);
  }
  cpu::CoreTeam team(0, cores);

  CoreShare share;
  std::vector<Measure> points;
  for (Kernel& k : gemms) points.push_back(once(k, share));
  for (Kernel& k : gemms) points.push_back(split(team, k));
  for (Kernel& k : cache) points.push_back(hot(k, std::max(1, static_cast<int>(64 * kMiB / k.work.bytes)), share));
  for (Kernel& k : copies) points.push_back(once(k, share));
  for (int k = 1; k <= cores; ++k) points.push_back(together(team, contenders, k));
  points.push_back(together(team, copiers, cores));
  points.push_back(empty_tasks(1));
  points.push_back(empty_tasks(2));
  points.push_back(dispatched_ops());
  const std::vector<std::vector<double>> samples = interleaved_samples(points, opts.repeats, opts.progress);
  c.core_share = share.cpu_s / share.wall_s;
  size_t at = 0;
  auto next = [&](size_t n) {  // the medians of the next n points
    std::vector<double> out;
    for (size_t i = 0; i < n; ++i) out.push_back(median(samples[at++]));
    return out;
  };

  std::vector<double> flops, bytes, macs;
  for (const Kernel& k : gemms) {
    flops.push_back(gemm_flops(k.work));
    bytes.push_back(cpu::bytes_needed(k.work));
    macs.push_back(static_cast<double>(k.work.m) * k.work.k * k.work.n);
  }
  const std::vector<double> one_core = next(gemms.size()), all_cores = next(gemms.size());
  c.gemm = fit_plane(flops, bytes, one_core);
  c.gemm_all = fit_plane(flops, bytes, all_cores);
  c.gemm_line = fit_line(macs, one_core);
  c.gemm_all_line = fit_line(macs, all_cores);
  c.stream_cache = fit_bytes(cache, next(cache.size()));
  c.copy = fit_bytes(copies, next(copies.size()));
  const std::vector<double> per_core = next(static_cast<size_t>(cores));
  for (double s : per_core) c.contention.push_back(std::max(1.0, s / per_core[0]));
  c.copy_all_bw = cores * copier.bytes / next(1)[0];
  const std::vector<double>& launch = samples[at];
  c.launch_s = next(1)[0];
  double var = 0;
  for (double v : launch) var += (v - c.launch_s) * (v - c.launch_s) / static_cast<double>(launch.size());
  c.launch_sd_s = std::sqrt(var);
  c.handoff_s = next(1)[0];
  // An op's cycle under the runtime is its dispatch, then the op (its launch): the rest is dispatch.
  c.dispatch_s = std::max(0.0, next(1)[0] - c.launch_s);
  return c;
}

}  // namespace

void require_usable_fits(const CpuCalibration& c) {
  if (!(c.core_share >= kMinCoreShare))
    throw CalibrationError(fmt::format(
        "the machine was busy: the calibrating thread ran only {:.0f}% of the time its measurements took (at least "
        "{:.0f}% needed), so every figure would be too slow; re-run when nothing else runs",
        100 * c.core_share, 100 * kMinCoreShare));
  require_usable("gemm (time vs FLOPs and bytes, one core)", c.gemm);
  require_usable("gemm_all (time vs FLOPs and bytes, split over every core)", c.gemm_all);
  require_usable("stream_cache (time vs bytes, one core, within its cache)", c.stream_cache);
  require_usable("copy (time vs bytes, one core, past the last-level cache)", c.copy);
  for (const auto& [name, f] : {std::pair{"cpu_gemm (time vs multiply-adds, one core)", c.gemm_line},
                                {"cpu_gemm (time vs multiply-adds, every core)", c.gemm_all_line}}) {
    require_usable(name, f);
    if (f.alpha < 0)
      throw CalibrationError(fmt::format("the {} fit has an intercept below zero (alpha = {:.3e} s), which the linear "
                                         "cost model cannot take as a start-up time; re-run on a quiet machine",
                                         name, f.alpha));
  }
}

CpuCalibration calibrate_cpu(const CalibrateOptions& opts) {
  const int cores = opts.cores > 0 ? opts.cores : this_machine().pus();
  cpu::use_one_blas_thread();
  CpuCalibration c;
  std::exception_ptr failure;
  std::thread th([&] {
    this_machine().pin_this_thread(0);
    try {
      c = measure(opts, cores);
    } catch (...) {
      failure = std::current_exception();
    }
  });
  th.join();
  if (failure) std::rethrow_exception(failure);
  return c;
}

}  // namespace placesim::backend
