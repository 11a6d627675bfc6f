#include "backend/calibrate/linear_fit.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace placesim::backend {
namespace {

// Ordinary least squares of t on an intercept and `p` (1 or 2) centred regressors. Centring
// splits the problem: the slopes solve the p x p system S b = s_xt of centred sums, and the
// intercept is mean(t) - b . mean(x). Then [(X^T X)^-1]_00 = 1/n + m^T S^-1 m (the inverse of
// a bordered matrix), which gives se(alpha).
LinearFit fit(const std::vector<const std::vector<double>*>& xs, const std::vector<double>& t) {
  const size_t n = t.size(), p = xs.size();
  PLACESIM_ASSERT(n > 0 && p >= 1 && p <= 2, "a fit needs samples and one or two regressors");
  for (const auto* x : xs) PLACESIM_ASSERT(x->size() == n, "a fit needs paired samples");
  std::array<double, 2> mx{0, 0};
  double mt = 0;
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < p; ++j) mx[j] += (*xs[j])[i] / n;
    mt += t[i] / n;
  }
  std::array<std::array<double, 2>, 2> S{};
  std::array<double, 2> sxt{0, 0};
  double stt = 0;
  for (size_t i = 0; i < n; ++i) {
    const double dt = t[i] - mt;
    stt += dt * dt;
    for (size_t j = 0; j < p; ++j) {
      const double dj = (*xs[j])[i] - mx[j];
      sxt[j] += dj * dt;
      for (size_t k = 0; k < p; ++k) S[j][k] += dj * ((*xs[k])[i] - mx[k]);
    }
  }
  LinearFit f;
  f.samples = static_cast<int>(n);
  f.alpha = mt;
  // S^-1 (1 x 1 or 2 x 2); a singular S (constant or collinear regressors) fits fewer slopes.
  std::array<std::array<double, 2>, 2> inv{};
  if (p == 2) {
    const double det = S[0][0] * S[1][1] - S[0][1] * S[1][0];
    if (!(std::abs(det) > 1e-12 * S[0][0] * S[1][1])) return fit({xs[0]}, t);
    inv = {{{S[1][1] / det, -S[0][1] / det}, {-S[1][0] / det, S[0][0] / det}}};
  } else {
    if (!(S[0][0] > 0)) return f;
    inv[0][0] = 1 / S[0][0];
  }
  std::array<double, 2> b{0, 0};
  for (size_t j = 0; j < p; ++j)
    for (size_t k = 0; k < p; ++k) b[j] += inv[j][k] * sxt[k];
  f.beta = b[0];
  f.beta2 = b[1];
  for (size_t j = 0; j < p; ++j) f.alpha -= b[j] * mx[j];
  double ss_res = 0;
  for (size_t i = 0; i < n; ++i) {
    double r = t[i] - f.alpha;
    for (size_t j = 0; j < p; ++j) r -= b[j] * (*xs[j])[i];
    ss_res += r * r;
  }
  f.r2 = stt > 0 ? 1 - ss_res / stt : 1;
  if (n > p + 1) {
    double quad = 0;  // m^T S^-1 m
    for (size_t j = 0; j < p; ++j)
      for (size_t k = 0; k < p; ++k) quad += mx[j] * inv[j][k] * mx[k];
    f.alpha_se = std::sqrt(ss_res / static_cast<double>(n - p - 1) * (1.0 / n + quad));
  }
  return f;
}

}  // namespace

LinearFit fit_line(const std::vector<double>& x, const std::vector<double>& t) { return fit({&x}, t); }

LinearFit fit_plane(const std::vector<double>& x, const std::vector<double>& x2, const std::vector<double>& t) {
  return fit({&x, &x2}, t);
}

std::string fit_yaml(const LinearFit& f) {
  return fmt::format("{{alpha: {:.6e}, beta: {:.6e}, r2: {:.5f}, samples: {}}}", f.alpha, f.beta, f.r2, f.samples);
}

double median(std::vector<double> v) {
  PLACESIM_ASSERT(!v.empty(), "median of nothing");
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

void require_usable(const std::string& name, const LinearFit& f) {
  if (f.alpha < -kInterceptSigmas * f.alpha_se)
    throw CalibrationError(fmt::format(
        "the {} fit has a negative intercept (alpha = {:.3e} s, {:.1f} standard errors below zero): its points mix "
        "two regimes or were disturbed; re-run on a quiet machine",
        name, f.alpha, f.alpha_se > 0 ? -f.alpha / f.alpha_se : INFINITY));
  if (!(f.r2 >= kMinFitR2))
    throw CalibrationError(fmt::format(
        "the {} fit is too noisy to use (r^2 = {:.4f} over {} points, below {}): re-run on a quiet machine, or with "
        "more --repeats",
        name, f.r2, f.samples, kMinFitR2));
}

}  // namespace placesim::backend
