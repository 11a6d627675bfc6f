// The pieces of the ScheInfer solver that Eq. 4/15 and Eq. 6-15 share (internal to
// scheduler/placers/offload): Eq. 5's recurrence, the crossing of tau_G with tau_C when the
// per-GEMM times are lines in one variable, and the checks of the input.
#pragma once

#include <vector>

#include "scheduler/placers/offload/solver.hpp"

namespace placesim::scheduler::scheinfer::detail {

// Eq. 5, one GEMM at a time, every stream from 0 but the launches, from `launch_start`.
class Streams {
 public:
  explicit Streams(double launch_start = 0) { e_.launch = launch_start; }
  void add(double t_launch, double t_copy, double t_gpu, double t_cpu);
  StreamEnds ends() const;  // with fin = max(gpu, cpu)

 private:
  StreamEnds e_;
};

// A stream time on an open interval of a variable x: at0 + slope * x.
struct Line { double at0 = 0, slope = 0; };
struct GemmLines { double launch = 0; Line copy, gpu, cpu; };

// The x where a and b meet, or NaN where they are parallel.
double meet(const Line& a, const Line& b);

// The least x at which tau_G(x) >= tau_C(x), for per-GEMM lines whose copy and gpu slopes are
// >= 0 and cpu slopes <= 0. tau_G is the largest path of Eq. 5's grid (launch up to GEMM a, copy
// from a to b, gpu from b to the last), so tau_G >= tau_C exactly where some path line is, and
// the answer is the least crossing of tau_C with any path line: -inf where a path is never below
// tau_C, +inf where none reaches it (or there are no GEMMs).
double crossing(const std::vector<GemmLines>& gemms);

// InputError unless every fit and t_Launch is finite and >= 0, every GEMM's work and bytes too,
// and the rates are each in [0, 1] summing to 1 within 1e-9. `who` starts the message.
void check_hardware(const char* who, const Hardware& hw);
void check_block(const char* who, const Block& block);
void check_rates(const char* who, const Rates& r);

}  // namespace placesim::scheduler::scheinfer::detail
