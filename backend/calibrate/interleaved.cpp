#include "backend/calibrate/interleaved.hpp"

#include "backend/calibrate/linear_fit.hpp"
#include "sim/core/error.hpp"

namespace placesim::backend {

std::vector<std::vector<double>> interleaved_samples(const std::vector<Measure>& points, int rounds,
                                                     const MeasureProgress& progress) {
  PLACESIM_ASSERT(rounds >= 1, "at least one recorded round");
  const int total = static_cast<int>(points.size()) * (rounds + 1);
  int done = 0;
  auto measure = [&](const Measure& m) {
    const double t = m();
    if (progress) progress(++done, total);
    return t;
  };
  if (progress) progress(0, total);
  for (const Measure& m : points) measure(m);  // the unrecorded round
  std::vector<std::vector<double>> samples(points.size());
  for (int r = 0; r < rounds; ++r)
    for (size_t p = 0; p < points.size(); ++p) samples[p].push_back(measure(points[p]));
  return samples;
}

std::vector<double> interleaved_medians(const std::vector<Measure>& points, int rounds) {
  std::vector<double> out;
  for (const std::vector<double>& s : interleaved_samples(points, rounds)) out.push_back(median(s));
  return out;
}

}  // namespace placesim::backend
