#include "backend/calibrate/cuda_hardware_file.hpp"

#include <algorithm>
#include <ctime>
#include <fmt/format.h>
#include <initializer_list>

#include "backend/calibrate/machine.hpp"
#include "hw/yaml_text.hpp"

namespace placesim::backend {
namespace {

std::string table_row(const char* label, std::initializer_list<double> v, const char* fmt_spec) {
  std::string s = fmt::format("#   {:<8}", label);
  for (double d : v) s += fmt::format(fmt::runtime(fmt_spec), d);
  return s + "\n";
}

}  // namespace

std::string cuda_hardware_yaml(const CudaCalibration& c, const std::string& name, const std::string& command) {
  auto inv = [](const LinearFit& f) { return f.beta > 0 ? 1 / f.beta : 0; };
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
  std::string y = fmt::format("# {} measured by: {}\n# on {} (UTC). Fits t = alpha + beta * x (the linear cost model: README \"Cost models\"),\n",
                              c.gpu_name, command, date);
  y += "# in seconds; x in FLOPs for GEMM, bytes for copies; launch is a constant (its standard\n";
  y += "# deviation replaces r^2):\n#\n";
  y += fmt::format("#   {:<8}{:>12}{:>12}{:>12}{:>12}{:>12}{:>12}{:>12}\n", "", "GEMM FP32", "GEMM FP16", "D2D", "H2D pin",
                   "H2D page", "D2H pin", "launch");
  y += table_row("alpha", {c.gemm_fp32.alpha, c.gemm_fp16.alpha, c.d2d.alpha, c.h2d_pinned.alpha, c.h2d_pageable.alpha,
                           c.d2h_pinned.alpha, c.launch_s}, "{:12.3e}");
  y += table_row("beta", {c.gemm_fp32.beta, c.gemm_fp16.beta, c.d2d.beta, c.h2d_pinned.beta, c.h2d_pageable.beta,
                          c.d2h_pinned.beta}, "{:12.3e}");
  y += table_row("r^2/sd", {c.gemm_fp32.r2, c.gemm_fp16.r2, c.d2d.r2, c.h2d_pinned.r2, c.h2d_pageable.r2, c.d2h_pinned.r2,
                            c.launch_sd_s}, "{:12.4f}");
  y += fmt::format("# pageable host-to-device rate: {:.3f} GB/s\n", inv(c.h2d_pageable) / 1e9);
  y += fmt::format("name: {}\ndescription: {} and this host, calibrated by placesim calibrate --backend cuda\n", name, c.gpu_name);
  y += fmt::format("source: placesim calibrate, {}\n", date);
  // The GEMM fits per multiply-add (n = x / 2 for a square GEMM's x = 2 n^3 FLOPs: the same line,
  // beta doubled), and Table I's PCIe and launch as records (the link and gpu0 carry them).
  auto per_mac = [](LinearFit f) {
    f.beta *= 2;
    return f;
  };
  // The GPU and the host it is in, as validate compares it.
  y += fmt::format("calibration:\n  machine: {}\n", hw::yaml_quoted(fmt::format("{} in {}", c.gpu_name, machine_name())));
  y += "  # the linear cost model's fits (schema: models/cost/calibration.hpp): n = m * k * n multiply-adds\n";
  y += fmt::format("  gpu_gemm: {{fp32: {}, fp16: {}}}\n", fit_yaml(per_mac(c.gemm_fp32)), fit_yaml(c.gemm_grid_fp16));
  y += fmt::format("  gpu_gemm_unaligned: {{fp16: {}}}\n", fit_yaml(c.gemm_unaligned_fp16));
  // The stream kernel per element access: per byte times the element's size.
  auto per_access = [&](double bytes) {
    LinearFit f = c.stream;
    f.beta *= bytes;
    return fit_yaml(f);
  };
  for (const char* cls : {"norm", "elementwise", "gather"})
    y += fmt::format("  gpu_{}: {{fp16: {}, bf16: {}, fp32: {}}}\n", cls, per_access(2), per_access(2), per_access(4));
  y += fmt::format("  pcie: {}\n  launch: {:.6e}\ndevices:\n", fit_yaml(c.h2d_pinned), c.launch_s);
  y += fmt::format("  - {{id: host, type: host_memory, memory: {:.0f}}}\n", c.host_memory);
  y += fmt::format("  - {{id: gpu0, type: gpu, model: \"{}\", memory: {:.0f}, memory_bw: {:.6e}, fp32: {:.6e}, tensor: {:.6e}, launch: {:.6e}}}\n",
                   c.gpu_name, c.gpu_memory, 2 * inv(c.d2d), inv(c.gemm_fp32), inv(c.gemm_fp16), c.launch_s);
  y += fmt::format("links:\n  - {{a: host, b: gpu0, bw_ab: {:.6e}, bw_ba: {:.6e}, latency: {:.6e}, kind: pcie}}\n",
                   inv(c.h2d_pinned), inv(c.d2h_pinned), std::max(0.0, c.h2d_pinned.alpha));
  return y;
}

void require_usable_fits(const CudaCalibration& c) {
  require_usable("gemm fp16 over the shape grid (time vs multiply-adds)", c.gemm_grid_fp16);
  require_usable("gemm fp16 over unaligned shapes (time vs multiply-adds)", c.gemm_unaligned_fp16);
  require_usable("stream kernel (time vs bytes)", c.stream);
}

}  // namespace placesim::backend
