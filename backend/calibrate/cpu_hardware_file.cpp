#include "backend/calibrate/cpu_hardware_file.hpp"

#include <algorithm>
#include <ctime>
#include <fmt/format.h>

#include "backend/calibrate/machine.hpp"
#include "hw/yaml_text.hpp"

namespace placesim::backend {
namespace {

double rate(double seconds_per_unit) { return seconds_per_unit > 0 ? 1 / seconds_per_unit : 0; }

std::string fit_map(const LinearFit& f, bool plane) {
  std::string s = fmt::format("{{alpha_s: {:.6e}, alpha_se_s: {:.3e}, beta: {:.6e}", f.alpha, f.alpha_se, f.beta);
  if (plane) s += fmt::format(", beta2: {:.6e}", f.beta2);
  return s + fmt::format(", r2: {:.5f}, samples: {}}}", f.r2, f.samples);
}

std::string list(const std::vector<double>& v) {
  std::string s;
  for (double x : v) s += fmt::format("{}{:.4f}", s.empty() ? "" : ", ", x);
  return "[" + s + "]";
}

}  // namespace

std::string cpu_hardware_yaml(const CpuCalibration& c, const std::string& name, const std::string& command) {
  const double fp32 = c.cores * rate(c.gemm.beta);
  const double core_memory_bw = rate(c.gemm.beta2);
  const double memory_bw = std::clamp(rate(c.gemm_all.beta2), core_memory_bw, c.cores * core_memory_bw);
  const double cache_bw = c.cores * rate(c.stream_cache.beta);
  const double copy_bw = rate(c.copy.beta);
  const double link_latency = std::max(0.0, c.copy.alpha) + c.handoff_s;
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));

  std::string y;
  y += fmt::format("# This machine, measured by: {}\n# on {} (UTC): {} interleaved rounds, the median of each point.\n",
                   command, date, c.rounds);
  y += "# Fits t = alpha + beta * x (the linear cost model: README \"Cost models\"; seconds; x in FLOPs for\n";
  y += "# GEMM, with beta2 per byte of its operands, bytes otherwise; launch is a constant: its standard\n";
  y += "# deviation replaces r^2):\n#\n";
  y += fmt::format("#            {:>12} {:>12} {:>12} {:>12}\n", "CPU GEMM", "stream", "copy", "launch");
  y += fmt::format("#            {:>12} {:>12} {:>12} {:>12}\n", "FP32 1 core", "cache", "1 core", "(backend)");
  y += fmt::format("#   alpha    {:12.3e} {:12.3e} {:12.3e} {:12.3e}\n", c.gemm.alpha, c.stream_cache.alpha, c.copy.alpha,
                   c.launch_s);
  y += fmt::format("#   beta     {:12.3e} {:12.3e} {:12.3e} {:>12}\n", c.gemm.beta, c.stream_cache.beta, c.copy.beta, "-");
  y += fmt::format("#   beta2    {:12.3e} {:>12} {:>12} {:>12}\n", c.gemm.beta2, "-", "-", "-");
  y += fmt::format("#   r^2/sd   {:12.4f} {:12.4f} {:12.4f} {:12.3e}\n#\n", c.gemm.r2, c.stream_cache.r2, c.copy.r2,
                   c.launch_sd_s);
  y += fmt::format("# all {} cores copying at once: {:.3f} GB/s in total\n", c.cores, c.copy_all_bw / 1e9);
  y += fmt::format("# GEMM split over all {} cores: {:.3f} GFLOP/s, {:.3f} GB/s of its operands (r^2 {:.4f})\n", c.cores,
                   rate(c.gemm_all.beta) / 1e9, rate(c.gemm_all.beta2) / 1e9, c.gemm_all.r2);
  y += fmt::format("# queue-to-queue handoff of the CPU backend: {:.3e} s (added to the link latency)\n", c.handoff_s);
  y += fmt::format("# dispatch of the CPU backend (a host thread hands each op to its core and waits for it): {:.3e} s\n",
                   c.dispatch_s);
  y += fmt::format("# contention (per-core GEMM slowdown with k = 1..{} cores busy): {}\n", c.cores, list(c.contention));
  y += fmt::format("name: {}\n", name);
  y += fmt::format("description: this machine's {} cores, calibrated by placesim calibrate --backend cpu\n", c.cores);
  y += fmt::format("source: placesim calibrate, {}\n", date);
  y += "calibration:\n";
  y += fmt::format("  machine: {}\n", hw::yaml_quoted(machine_name()));
  y += fmt::format("  rounds: {}\n  core_share: {:.3f}\n", c.rounds, c.core_share);
  y += fmt::format("  gemm: {}\n", fit_map(c.gemm, true));
  y += fmt::format("  stream_cache: {}\n", fit_map(c.stream_cache, false));
  y += fmt::format("  copy: {}\n", fit_map(c.copy, false));
  y += fmt::format("  gemm_all: {}\n", fit_map(c.gemm_all, true));
  y += fmt::format("  copy_all_bw: {:.6e}\n", c.copy_all_bw);
  y += fmt::format("  launch_s: {:.6e}\n  launch_sd_s: {:.3e}\n  handoff_s: {:.6e}\n", c.launch_s, c.launch_sd_s, c.handoff_s);
  y += "  # the linear cost model's fits (schema: models/cost/calibration.hpp): n = m * k * n multiply-adds\n";
  y += fmt::format("  cpu_gemm:\n    - {{threads: 1, fp32: {}}}\n", fit_yaml(c.gemm_line));
  if (c.cores > 1) y += fmt::format("    - {{threads: {}, fp32: {}}}\n", c.cores, fit_yaml(c.gemm_all_line));
  y += "runtime: {dispatch_threads: 1}\n";
  y += "devices:\n";
  y += fmt::format("  - {{id: host, type: host_memory, memory: {:.0f}, memory_bw: {:.6e}}}\n", c.memory_bytes, c.copy_all_bw);
  y += fmt::format("  - {{id: cpu, type: cpu, cores: {}, fp32: {:.6e}, memory_bw: {:.6e}, core_memory_bw: {:.6e},\n", c.cores,
                   fp32, memory_bw, core_memory_bw);
  y += fmt::format("     overlap: 0, cache: {:.0f}, cache_bw: {:.6e}, launch: {:.6e}, dispatch: {:.6e}, contention: {}}}\n",
                   c.cache_bytes, cache_bw, c.launch_s, c.dispatch_s, list(c.contention));
  y += "links:\n";
  y += fmt::format("  - {{a: host, b: cpu, bw: {:.6e}, latency: {:.6e}, kind: memory}}\n", copy_bw, link_latency);
  return y;
}

}  // namespace placesim::backend
