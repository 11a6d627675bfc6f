// Eq. 4/15 with Eq. 5 (block_time, prompt_block_time) and the edge-point solvers of Eq. 6-13
// (solve_cg) and section IV-B (solve_tokens). Eq. 14 is in assign_gg.cpp.
#include "scheduler/placers/offload/solver.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "scheduler/placers/offload/pipeline.hpp"
#include "sim/core/error.hpp"

namespace placesim::scheduler::scheinfer {
namespace {

using detail::GemmLines;
using detail::Line;

double sgn(double x) { return x > 0 ? 1 : 0; }

// Eq. 15 and Eq. 5 with the inputs checked. Eq. 4 is its n_g = 0 case: with s = 0 every term
// is Eq. 4's, computed in the same order (x + 0 and n * 1 are exact), so block_time is
// bit-identical to prompt_block_time at n_g = 0. The GPU work [T (r_CG + r_GG) + n_g r_CC] M H
// is computed as (r_CG + r_GG) n + r_CC n (n_g / T), n = T M H, for that reason.
StreamEnds stream_ends(const Hardware& hw, const Block& block, const Rates& r, int n_g, int T) {
  const double s_cg = sgn(r.cg), s_gg = sgn(r.gg), s = sgn(r.cc * n_g), s_cpu = sgn(r.cc * (T - n_g));
  const double moved = static_cast<double>(n_g) / T, kept = static_cast<double>(T - n_g) / T;
  const double copied = r.cg + r.cc * s;
  detail::Streams streams(block.launch_before);
  for (const Gemm& g : block.gemms)
    streams.add((2 * s_cg + 2 * s + s_gg) * hw.launch,
                (s_cg + s) * hw.c2g.alpha + copied * g.weight_bytes * hw.c2g.beta,
                (s_cg + s_gg + s) * hw.gpu.alpha + ((r.cg + r.gg) * g.work + r.cc * (g.work * moved)) * hw.gpu.beta,
                s_cpu * hw.cpu.alpha + r.cc * (g.work * kept) * hw.cpu.beta);
  return streams.ends();
}

// The lines with the launches before the block on the first GEMM's: every path of Eq. 5's grid
// starts with the launches up to some GEMM, so each path line rises by them and the crossing
// argument holds as it is.
std::vector<GemmLines> shifted(std::vector<GemmLines> lines, const Block& block) {
  if (!lines.empty()) lines.front().launch += block.launch_before;
  return lines;
}

void check(const char* who, const Hardware& hw, const Block& block) {
  detail::check_hardware(who, hw);
  detail::check_block(who, block);
}

}  // namespace

StreamEnds block_time(const Hardware& hw, const Block& block, const Rates& r) {
  check("scheinfer block_time", hw, block);
  detail::check_rates("scheinfer block_time", r);
  return stream_ends(hw, block, r, 0, 1);
}

CgSolution solve_cg(const Hardware& hw, const Block& block, double r_gg) {
  const char* who = "scheinfer solve_cg";
  check(who, hw, block);
  if (!(r_gg >= 0 && r_gg <= 1)) throw InputError(fmt::format("{}: r_GG is {}; expected it in [0, 1]", who, r_gg));
  const double top = 1 - r_gg;  // r_CG's upper end; r_CC = top - r_CG >= 0 for r_CG <= top
  CgSolution best{0, stream_ends(hw, block, {top, 0, r_gg}, 0, 1).fin, "r_CG = 0"};
  const auto consider = [&](double r, const char* edge) {
    if (!(r >= 0 && r <= top)) return;  // off the interval, or NaN from parallel lines
    const double t = stream_ends(hw, block, {top - r, r, r_gg}, 0, 1).fin;
    if (t < best.t_fin || (t == best.t_fin && r < best.r_cg)) best = {r, t, edge};
  };
  consider(top, "r_CG = 1 - r_GG");
  // The lines of Eq. 4 for 0 < r_CG < top (every sgn of CG and CC is 1 there).
  const double s_gg = sgn(r_gg);
  const double launch = (2 + s_gg) * hw.launch;
  std::vector<GemmLines> lines;
  lines.reserve(block.gemms.size());
  for (const Gemm& g : block.gemms)
    lines.push_back({launch,
                     {hw.c2g.alpha, g.weight_bytes * hw.c2g.beta},
                     {(1 + s_gg) * hw.gpu.alpha + r_gg * g.work * hw.gpu.beta, g.work * hw.gpu.beta},
                     {hw.cpu.alpha + top * g.work * hw.cpu.beta, -g.work * hw.cpu.beta}});
  for (const GemmLines& g : lines) {
    consider(detail::meet({g.launch, 0}, g.copy), "t_L = t_C2G");
    consider(detail::meet(g.gpu, g.copy), "t_G = t_C2G");
    consider(detail::meet({g.launch, 0}, g.gpu), "t_L = t_G");
  }
  consider(detail::crossing(shifted(lines, block)), "tau_G = tau_C");
  return best;
}

StreamEnds prompt_block_time(const Hardware& hw, const Block& block, const Rates& r, int n_g, int T) {
  const char* who = "scheinfer prompt_block_time";
  check(who, hw, block);
  detail::check_rates(who, r);
  if (T < 1) throw InputError(fmt::format("{}: T is {}; expected at least 1 prompt token", who, T));
  if (n_g < 0 || n_g > T) throw InputError(fmt::format("{}: n_g is {}; expected it in [0, T = {}]", who, n_g, T));
  return stream_ends(hw, block, r, n_g, T);
}

PromptSolution solve_tokens(const Hardware& hw, const Block& block, const Rates& r, int T) {
  const char* who = "scheinfer solve_tokens";
  check(who, hw, block);
  detail::check_rates(who, r);
  if (T < 1) throw InputError(fmt::format("{}: T is {}; expected at least 1 prompt token", who, T));
  PromptSolution best{0, stream_ends(hw, block, r, 0, T).fin, "n_g = 0"};
  const auto consider = [&](int n_g, const char* edge) {
    const double t = stream_ends(hw, block, r, n_g, T).fin;
    if (t < best.t_fin || (t == best.t_fin && n_g < best.n_g)) best = {n_g, t, edge};
  };
  consider(T, "n_g = T");
  // The lines of Eq. 15 in x = n_g for 0 < n_g < T (sgn(r_CC n_g) = sgn(r_CC (T - n_g)) = sgn(r_CC)).
  const double s_cg = sgn(r.cg), s_gg = sgn(r.gg), s = sgn(r.cc);
  std::vector<GemmLines> lines;
  lines.reserve(block.gemms.size());
  for (const Gemm& g : block.gemms) {
    const double per_token = g.work / T;
    lines.push_back({(2 * s_cg + 2 * s + s_gg) * hw.launch,
                     {(s_cg + s) * hw.c2g.alpha + (r.cg + r.cc * s) * g.weight_bytes * hw.c2g.beta, 0},
                     {(s_cg + s_gg + s) * hw.gpu.alpha + (r.cg + r.gg) * g.work * hw.gpu.beta, r.cc * per_token * hw.gpu.beta},
                     {s * hw.cpu.alpha + r.cc * g.work * hw.cpu.beta, -r.cc * per_token * hw.cpu.beta}});
  }
  // On the integers 1..T-1 t_fin is least at one either side of the crossing; clamped to [1, T]
  // (n_g = T is itself never worse than the lines' value there).
  const double x = std::clamp(detail::crossing(shifted(lines, block)), 1.0, static_cast<double>(T));
  consider(static_cast<int>(std::floor(x)), "tau_G = tau_C");
  consider(static_cast<int>(std::ceil(x)), "tau_G = tau_C");
  return best;
}

}  // namespace placesim::scheduler::scheinfer
