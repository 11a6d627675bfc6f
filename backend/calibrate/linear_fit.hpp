// Least-squares fits of t = alpha + beta * x (ScheInfer Eq. 3) and t = alpha + beta * x +
// beta2 * x2 (a GEMM's time from its FLOPs and its bytes), with what ScheInfer's Table I reports
// for each: the coefficient of determination r^2 = 1 - SS_res / SS_tot. Also the standard error
// of the intercept, se(alpha) = sqrt(s^2 * [(X^T X)^-1]_00) with s^2 = SS_res / (n - p - 1)
// (p slopes), so a calibration can tell an intercept that is negative from one that is zero
// give or take the noise.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace placesim::backend {

struct LinearFit {
  double alpha = 0;     // intercept: the start-up time, seconds
  double beta = 0;      // slope: seconds per unit of x (per FLOP, per byte)
  double beta2 = 0;     // seconds per unit of x2 (fit_plane only)
  double alpha_se = 0;  // standard error of alpha; 0 when there are no spare samples
  double r2 = 0;        // 1 for a perfect fit; 1 as well when every t is equal and matched
  int samples = 0;
};

// Needs at least two distinct x; the fit of fewer is alpha = mean(t), beta = 0, r2 = 0.
LinearFit fit_line(const std::vector<double>& x, const std::vector<double>& t);
// Needs x and x2 not collinear (with the intercept); otherwise as fit_line of x alone.
LinearFit fit_plane(const std::vector<double>& x, const std::vector<double>& x2, const std::vector<double>& t);

// A fit as the calibration schema writes one (models/cost/calibration.hpp):
// {alpha: S, beta: S, r2: R, samples: N}.
std::string fit_yaml(const LinearFit& f);

// Median of a sample (the middle of repeated timings: robust to a noisy neighbour).
double median(std::vector<double> v);

// A calibration whose measurements do not make a usable fit: the figures it would write would
// be wrong, so none are written.
class CalibrationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr double kMinFitR2 = 0.95;
// An intercept counts as negative when it lies more than this many standard errors below zero.
inline constexpr double kInterceptSigmas = 2;

// Throws CalibrationError naming `name` when the fit's intercept is negative (a start-up time
// cannot be: the points mix two regimes, such as cache and DRAM, or a neighbour slowed the
// large ones) or its r^2 is below kMinFitR2 (the points are not on a line: too noisy).
void require_usable(const std::string& name, const LinearFit& f);

}  // namespace placesim::backend
