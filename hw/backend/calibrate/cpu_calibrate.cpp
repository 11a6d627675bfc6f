#include "hw/backend/calibrate/cpu_calibrate.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <fmt/format.h>
#include <functional>
#include <thread>

#include "hw/backend/cpu/cpu_backend.hpp"
#include "hw/backend/cpu/kernels.hpp"
#include "hw/backend/cpu/machine.hpp"
#include "hw/backend/cpu/task_buffers.hpp"

namespace placesim::backend {
namespace {

using Clock = std::chrono::steady_clock;

// Median seconds of `fn` over `repeats` runs after one warm-up, on a thread pinned to `pu`.
double time_on(int pu, int repeats, const std::function<void()>& fn) {
  std::vector<double> s;
  std::thread th([&] {
    this_machine().pin_this_thread(pu);
    fn();
    for (int r = 0; r < repeats; ++r) {
      const auto t0 = Clock::now();
      fn();
      s.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    }
  });
  th.join();
  return median(s);
}

// Seconds each of `k` pinned threads takes for `fn` when all run at once (median over repeats of
// the slowest thread).
double time_concurrent(int k, int repeats, const std::function<std::function<void()>(int)>& make) {
  std::vector<double> slowest;
  for (int r = 0; r <= repeats; ++r) {
    std::vector<double> s(k);
    std::vector<std::thread> th;
    for (int i = 0; i < k; ++i)
      th.emplace_back([&, i] {
        this_machine().pin_this_thread(i);
        const std::function<void()> fn = make(i);
        const auto t0 = Clock::now();
        fn();
        s[i] = std::chrono::duration<double>(Clock::now() - t0).count();
      });
    for (auto& t : th) t.join();
    if (r > 0) slowest.push_back(*std::max_element(s.begin(), s.end()));  // run 0 warms up
  }
  return median(slowest);
}

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

LinearFit fit_work(const std::vector<Work>& works, const std::function<double(const Work&)>& x, int repeats) {
  std::vector<double> xs, ts;
  for (const Work& w : works) {
    cpu::TaskBuffers b(w);
    xs.push_back(x(w));
    ts.push_back(time_on(0, repeats, [&] { b.run(w); }));
  }
  return fit_line(xs, ts);
}

// Per-task seconds of `n` empty tasks through the CPU backend, on one queue or alternating
// between two queues (each task waiting for the one before it).
std::vector<double> empty_task_seconds(int n, int queues, int repeats) {
  const EmptyChain chain = empty_chain(n, queues);
  const engine::TaskGraph& g = chain.graph;
  const Workload& w = chain.workload;
  std::vector<double> per_task;
  for (int r = 0; r < repeats; ++r) {
    BackendOptions o;
    o.repeats = 1;
    per_task.push_back(to_seconds(run_cpu(g, w, o).makespan) / n);
  }
  return per_task;
}

}  // namespace

CpuCalibration calibrate_cpu(const CalibrateOptions& opts) {
  CpuCalibration c;
  c.cores = opts.cores > 0 ? opts.cores : this_machine().pus();
  c.memory_bytes = this_machine().memory_bytes();
  cpu::use_one_blas_thread();
  const int rep = opts.repeats;

  std::vector<Work> gemms;
  for (long m : {16L, 64L, 256L})
    for (auto [k, n] : {std::pair{512L, 512L}, {1024L, 1024L}, {1024L, 4096L}, {4096L, 1024L}}) gemms.push_back(gemm_work(m, k, n));
  c.gemm = fit_work(gemms, [](const Work& w) { return 2.0 * w.m * w.n * w.k; }, rep);

  std::vector<Work> streams, copies;
  for (double mib : {0.25, 1.0, 4.0, 16.0, 32.0}) {
    streams.push_back(bytes_work(WorkKind::Stream, mib * 1048576));
    copies.push_back(bytes_work(WorkKind::Copy, mib * 1048576));
  }
  c.stream = fit_work(streams, [](const Work& w) { return w.bytes; }, rep);
  c.copy = fit_work(copies, [](const Work& w) { return w.bytes; }, rep);

  const double big = 64.0 * 1048576;
  std::vector<cpu::TaskBuffers> bufs;
  const Work copy_big = bytes_work(WorkKind::Copy, big);
  for (int i = 0; i < c.cores; ++i) bufs.emplace_back(copy_big);
  const double t_all = time_concurrent(c.cores, rep, [&](int i) { return [&, i] { bufs[i].run(copy_big); }; });
  c.copy_all_bw = c.cores * big / t_all;
  bufs.clear();

  const Work g = gemm_work(256, 1024, 1024);
  std::vector<cpu::TaskBuffers> gb;
  for (int i = 0; i < c.cores; ++i) gb.emplace_back(g);
  const double t1 = time_concurrent(1, rep, [&](int i) { return [&, i] { gb[i].run(g); }; });
  for (int k = 1; k <= c.cores; ++k)
    c.contention.push_back(time_concurrent(k, rep, [&](int i) { return [&, i] { gb[i].run(g); }; }) / t1);

  const std::vector<double> one = empty_task_seconds(2000, 1, rep);
  c.launch_s = median(one);
  double var = 0;
  for (double v : one) var += (v - c.launch_s) * (v - c.launch_s) / one.size();
  c.launch_sd_s = std::sqrt(var);
  if (c.cores >= 2) c.handoff_s = median(empty_task_seconds(2000, 2, rep));
  return c;
}

std::string cpu_hardware_yaml(const CpuCalibration& c, const std::string& name, const std::string& command) {
  const double fp32 = c.gemm.beta > 0 ? 1 / c.gemm.beta : 0;
  const double stream_bw = c.stream.beta > 0 ? 1 / c.stream.beta : 0;
  const double copy_bw = c.copy.beta > 0 ? 1 / c.copy.beta : 0;
  const double link_latency = std::max(0.0, c.copy.alpha) + c.handoff_s;
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));

  std::string y;
  y += fmt::format("# This machine, measured by: {}\n# on {} (UTC). Fits t = alpha + beta * x (ScheInfer Eq. 3),\n", command, date);
  y += "# in the form of ScheInfer's Table I (seconds; x in FLOPs for GEMM, bytes otherwise;\n";
  y += "# launch is a constant: its standard deviation replaces r^2):\n#\n";
  y += fmt::format("#            {:>12} {:>12} {:>12} {:>12}\n", "CPU GEMM", "stream", "copy", "launch");
  y += fmt::format("#            {:>12} {:>12} {:>12} {:>12}\n", "FP32 1 core", "1 core", "1 core", "(backend)");
  y += fmt::format("#   alpha    {:12.3e} {:12.3e} {:12.3e} {:12.3e}\n", c.gemm.alpha, c.stream.alpha, c.copy.alpha, c.launch_s);
  y += fmt::format("#   beta     {:12.3e} {:12.3e} {:12.3e} {:>12}\n", c.gemm.beta, c.stream.beta, c.copy.beta, "-");
  y += fmt::format("#   r^2/sd   {:12.4f} {:12.4f} {:12.4f} {:12.3e}\n#\n", c.gemm.r2, c.stream.r2, c.copy.r2, c.launch_sd_s);
  y += fmt::format("# all {} cores copying at once: {:.3f} GB/s in total\n", c.cores, c.copy_all_bw / 1e9);
  y += fmt::format("# queue-to-queue handoff of the CPU backend: {:.3e} s (added to each link latency)\n", c.handoff_s);
  std::string curve;
  for (double s : c.contention) curve += fmt::format("{}{:.3f}", curve.empty() ? "" : ", ", s);
  y += fmt::format("# contention (per-core GEMM slowdown with k = 1..{} cores busy): [{}]\n", c.cores, curve);
  y += fmt::format("name: {}\n", name);
  y += fmt::format("description: this machine's {} cores, calibrated by placesim calibrate --backend cpu\n", c.cores);
  y += fmt::format("source: placesim calibrate, {}\n", date);
  y += "devices:\n";
  y += fmt::format("  - {{id: host, type: host_memory, memory: {:.0f}, memory_bw: {:.6e}}}\n", c.memory_bytes, c.copy_all_bw);
  y += "  - {id: mem, type: switch, model: memory system}\n";
  for (int i = 0; i < c.cores; ++i)
    y += fmt::format("  - {{id: core{}, type: cpu, cores: 1, fp32: {:.6e}, memory_bw: {:.6e}, launch: {:.6e}}}\n", i, fp32,
                     stream_bw, c.launch_s);
  y += "links:\n";
  y += fmt::format("  - {{a: host, b: mem, bw: {:.6e}, latency: 0, kind: memory}}\n", c.copy_all_bw);
  for (int i = 0; i < c.cores; ++i)
    y += fmt::format("  - {{a: core{}, b: mem, bw: {:.6e}, latency: {:.6e}, kind: memory}}\n", i, copy_bw, link_latency / 2);
  return y;
}

}  // namespace placesim::backend
