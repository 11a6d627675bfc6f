#include "hw/backend/calibrate/linear_fit.hpp"

#include <algorithm>

#include "sim/core/error.hpp"

namespace placesim::backend {

LinearFit fit_line(const std::vector<double>& x, const std::vector<double>& t) {
  PLACESIM_ASSERT(x.size() == t.size() && !x.empty(), "fit_line needs paired samples");
  const double n = static_cast<double>(x.size());
  double mx = 0, mt = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    mx += x[i] / n;
    mt += t[i] / n;
  }
  double sxx = 0, sxt = 0, stt = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxt += (x[i] - mx) * (t[i] - mt);
    stt += (t[i] - mt) * (t[i] - mt);
  }
  LinearFit f;
  f.samples = static_cast<int>(x.size());
  if (sxx <= 0) {
    f.alpha = mt;
    return f;
  }
  f.beta = sxt / sxx;
  f.alpha = mt - f.beta * mx;
  double ss_res = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    const double r = t[i] - (f.alpha + f.beta * x[i]);
    ss_res += r * r;
  }
  f.r2 = stt > 0 ? 1 - ss_res / stt : 1;
  return f;
}

double median(std::vector<double> v) {
  PLACESIM_ASSERT(!v.empty(), "median of nothing");
  std::sort(v.begin(), v.end());
  const size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

}  // namespace placesim::backend
