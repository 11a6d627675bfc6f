// Least-squares fit of t = alpha + beta * x (ScheInfer Eq. 3), with the coefficient of
// determination r^2 = 1 - SS_res / SS_tot that ScheInfer's Table I reports for each fit.
#pragma once

#include <vector>

namespace placesim::backend {

struct LinearFit {
  double alpha = 0;  // intercept: the start-up time, seconds
  double beta = 0;   // slope: seconds per unit of x (per FLOP, per byte)
  double r2 = 0;     // 1 for a perfect fit; 1 as well when every t is equal and matched
  int samples = 0;
};

// Needs at least two distinct x; the fit of fewer is alpha = mean(t), beta = 0, r2 = 0.
LinearFit fit_line(const std::vector<double>& x, const std::vector<double>& t);

// Median of a sample (the middle of repeated timings: robust to a noisy neighbour).
double median(std::vector<double> v);

}  // namespace placesim::backend
