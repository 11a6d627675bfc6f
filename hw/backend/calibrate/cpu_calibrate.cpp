#include "hw/backend/calibrate/cpu_calibrate.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <memory>
#include <numeric>
#include <thread>

#include "hw/backend/calibrate/interleaved.hpp"
#include "hw/backend/cpu/core_team.hpp"
#include "hw/backend/cpu/cpu_backend.hpp"
#include "hw/backend/cpu/kernels.hpp"
#include "hw/backend/cpu/machine.hpp"
#include "hw/backend/cpu/task_buffers.hpp"

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

// One run, timed.
Measure once(Kernel& k) {
  return [&k] {
    const auto t0 = Clock::now();
    k.run();
    return seconds_since(t0);
  };
}

// A kernel whose data is already in cache: one untimed pass brings it in, then the mean of
// `reps` back-to-back passes (each far shorter than the clock's noise alone).
Measure hot(Kernel& k, int reps) {
  return [&k, reps] {
    k.run();
    const auto t0 = Clock::now();
    for (int r = 0; r < reps; ++r) k.run();
    return seconds_since(t0) / reps;
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
  // caches only; DRAM sharing is measured apart, by `probe`.
  const Work contender = gemm_work(64, 512, 512);
  const Work copier = bytes_work(WorkKind::Copy, 2 * llc);
  for (int i = 0; i < cores; ++i) {
    contenders.emplace_back(contender);
    copiers.emplace_back(copier);
  }
  // The DRAM rate of all cores together: a GEMM that mostly reads its weights (m = 8; 2048 x n
  // floats, 1.5 times the last-level cache) split over every core.
  Kernel probe(gemm_work(8, 2048, static_cast<long>(std::ceil(1.5 * llc / (sizeof(float) * 2048)))));
  cpu::CoreTeam team(0, cores);

  std::vector<Measure> points;
  for (Kernel& k : gemms) points.push_back(once(k));
  for (Kernel& k : cache) points.push_back(hot(k, std::max(1, static_cast<int>(64 * kMiB / k.work.bytes))));
  for (Kernel& k : copies) points.push_back(once(k));
  for (int k = 1; k <= cores; ++k) points.push_back(together(team, contenders, k));
  points.push_back(split(team, probe));
  points.push_back(together(team, copiers, cores));
  points.push_back(empty_tasks(1));
  points.push_back(empty_tasks(2));
  const std::vector<std::vector<double>> samples = interleaved_samples(points, opts.repeats);
  size_t at = 0;
  auto next = [&](size_t n) {  // the medians of the next n points
    std::vector<double> out;
    for (size_t i = 0; i < n; ++i) out.push_back(median(samples[at++]));
    return out;
  };

  std::vector<double> flops, bytes;
  for (const Kernel& k : gemms) {
    flops.push_back(gemm_flops(k.work));
    bytes.push_back(cpu::bytes_needed(k.work));
  }
  c.gemm = fit_plane(flops, bytes, next(gemms.size()));
  c.stream_cache = fit_bytes(cache, next(cache.size()));
  c.copy = fit_bytes(copies, next(copies.size()));
  const std::vector<double> per_core = next(static_cast<size_t>(cores));
  for (double s : per_core) c.contention.push_back(std::max(1.0, s / per_core[0]));
  // The probe's time less its arithmetic on all cores (the gemm fit's, slowed by the curve)
  // is its DRAM time; a socket reaches at least one core's rate and at most all of theirs.
  const double core_bw = c.gemm.beta2 > 0 ? 1 / c.gemm.beta2 : 0;
  const double arithmetic = gemm_flops(probe.work) * c.gemm.beta * c.contention.back() / cores;
  const double dram_s = next(1)[0] - arithmetic;
  c.dram_all_cores_bw = dram_s > 0 ? cpu::bytes_needed(probe.work) / dram_s : cores * core_bw;
  c.dram_all_cores_bw = std::clamp(c.dram_all_cores_bw, core_bw, cores * core_bw);
  c.copy_all_bw = cores * copier.bytes / next(1)[0];
  const std::vector<double>& launch = samples[at];
  c.launch_s = next(1)[0];
  double var = 0;
  for (double v : launch) var += (v - c.launch_s) * (v - c.launch_s) / static_cast<double>(launch.size());
  c.launch_sd_s = std::sqrt(var);
  c.handoff_s = next(1)[0];
  return c;
}

}  // namespace

void require_usable_fits(const CpuCalibration& c) {
  require_usable("gemm (time vs FLOPs and bytes, one core)", c.gemm);
  require_usable("stream_cache (time vs bytes, one core, within its cache)", c.stream_cache);
  require_usable("copy (time vs bytes, one core, past the last-level cache)", c.copy);
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
