// Eq. 5's recurrence, the crossing of tau_G with tau_C, and the input checks (pipeline.hpp).
#include "scheduler/placers/offload/pipeline.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>

#include "sim/core/error.hpp"

namespace placesim::scheduler::scheinfer::detail {

void Streams::add(double t_launch, double t_copy, double t_gpu, double t_cpu) {
  e_.launch += t_launch;
  e_.copy = std::max(e_.launch, e_.copy) + t_copy;
  e_.gpu = std::max(e_.copy, e_.gpu) + t_gpu;
  e_.cpu += t_cpu;
}

StreamEnds Streams::ends() const {
  StreamEnds e = e_;
  e.fin = std::max(e.gpu, e.cpu);
  return e;
}

double meet(const Line& a, const Line& b) {
  if (a.slope == b.slope) return std::numeric_limits<double>::quiet_NaN();
  return (b.at0 - a.at0) / (a.slope - b.slope);
}

double crossing(const std::vector<GemmLines>& gemms) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  const std::size_t n = gemms.size();
  Line cpu;
  for (const GemmLines& g : gemms) {
    cpu.at0 += g.cpu.at0;
    cpu.slope += g.cpu.slope;
  }
  // gpu_from[b]: the gpu times of GEMMs b..n-1, summed from the end so each is exact for
  // exact inputs.
  std::vector<Line> gpu_from(n + 1);
  for (std::size_t b = n; b-- > 0;)
    gpu_from[b] = {gpu_from[b + 1].at0 + gemms[b].gpu.at0, gpu_from[b + 1].slope + gemms[b].gpu.slope};
  double least = inf;
  double launches = 0;
  for (std::size_t a = 0; a < n; ++a) {
    launches += gemms[a].launch;
    Line copies;
    for (std::size_t b = a; b < n; ++b) {
      copies.at0 += gemms[b].copy.at0;
      copies.slope += gemms[b].copy.slope;
      const Line path{launches + copies.at0 + gpu_from[b].at0, copies.slope + gpu_from[b].slope};
      const double rise = path.slope - cpu.slope;  // >= 0: path rises, tau_C falls
      const double x = rise > 0 ? (cpu.at0 - path.at0) / rise : (path.at0 >= cpu.at0 ? -inf : inf);
      least = std::min(least, x);
    }
  }
  return least;
}

namespace {

void check_nonnegative(const char* who, const char* what, double x) {
  if (!std::isfinite(x) || x < 0) throw InputError(fmt::format("{}: {} is {}; expected finite and >= 0", who, what, x));
}

}  // namespace

void check_hardware(const char* who, const Hardware& hw) {
  check_nonnegative(who, "the GPU GEMM alpha", hw.gpu.alpha);
  check_nonnegative(who, "the GPU GEMM beta", hw.gpu.beta);
  check_nonnegative(who, "the CPU GEMM alpha", hw.cpu.alpha);
  check_nonnegative(who, "the CPU GEMM beta", hw.cpu.beta);
  check_nonnegative(who, "the host-to-GPU copy alpha", hw.c2g.alpha);
  check_nonnegative(who, "the host-to-GPU copy beta", hw.c2g.beta);
  check_nonnegative(who, "t_Launch", hw.launch);
}

void check_block(const char* who, const Block& block) {
  check_nonnegative(who, "the launches before the block", block.launch_before);
  for (const Gemm& g : block.gemms) {
    check_nonnegative(who, "a GEMM's work", g.work);
    check_nonnegative(who, "a GEMM's weight bytes", g.weight_bytes);
  }
}

void check_rates(const char* who, const Rates& r) {
  const auto in_unit = [](double x) { return x >= 0 && x <= 1; };  // false for NaN
  if (!in_unit(r.cc) || !in_unit(r.cg) || !in_unit(r.gg) || !(std::abs(r.cc + r.cg + r.gg - 1) <= 1e-9))
    throw InputError(fmt::format("{}: rates cc {} cg {} gg {}; expected each in [0, 1] and summing to 1 (within 1e-9)",
                                 who, r.cc, r.cg, r.gg));
}

}  // namespace placesim::scheduler::scheinfer::detail
