#include "hw/backend/calibrate/interleaved.hpp"

#include "hw/backend/calibrate/linear_fit.hpp"
#include "sim/core/error.hpp"

namespace placesim::backend {

std::vector<std::vector<double>> interleaved_samples(const std::vector<Measure>& points, int rounds) {
  PLACESIM_ASSERT(rounds >= 1, "at least one recorded round");
  for (const Measure& m : points) m();  // the unrecorded round
  std::vector<std::vector<double>> samples(points.size());
  for (int r = 0; r < rounds; ++r)
    for (size_t p = 0; p < points.size(); ++p) samples[p].push_back(points[p]());
  return samples;
}

std::vector<double> interleaved_medians(const std::vector<Measure>& points, int rounds) {
  std::vector<double> out;
  for (const std::vector<double>& s : interleaved_samples(points, rounds)) out.push_back(median(s));
  return out;
}

}  // namespace placesim::backend
