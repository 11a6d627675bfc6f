#include "models/generation.hpp"

#include <algorithm>

namespace placesim::models {

std::vector<DecodeStep> decode_steps(int input, int output, int kv_stride) {
  std::vector<DecodeStep> steps;
  for (int first = 1; first <= output - 1; first += kv_stride) {
    const int last = std::min(first + kv_stride - 1, output - 1);
    steps.push_back({input + last, last - first + 1});
  }
  return steps;
}

}  // namespace placesim::models
