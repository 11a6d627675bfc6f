// The exact whole-layer knapsack of whole_layers.hpp.
#include "scheduler/placers/offload/whole_layers.hpp"

#include <cstddef>

namespace placesim::scheduler::scheinfer::detail {
namespace {

// One assignment of the layers so far that no other beats in both bytes and gain.
struct Point {
  double bytes = 0, gain = 0;
  std::size_t parent = 0;  // its point in the previous frontier
  bool took = false;       // whether it takes this frontier's layer
};

// The frontier after one more layer (bytes b, gain g): every point without it and with it
// (within the limit), merged by bytes, keeping only points of more gain than any of fewer
// bytes. Both inputs are sorted by bytes with gain rising, so one merge does it.
std::vector<Point> extend(const std::vector<Point>& from, double b, double g, double limit) {
  std::vector<Point> out;
  out.reserve(2 * from.size());
  const auto push = [&out](const Point& p) {
    if (!out.empty() && p.gain <= out.back().gain) return;  // dominated (or equal: keep the first)
    if (!out.empty() && p.bytes == out.back().bytes) out.pop_back();
    out.push_back(p);
  };
  std::size_t i = 0, k = 0;
  while (i < from.size() || k < from.size()) {
    const bool take_fits = k < from.size() && from[k].bytes + b <= limit;
    if (!take_fits) k = from.size();
    if (i < from.size() && (k == from.size() || from[i].bytes <= from[k].bytes + b)) {
      push({from[i].bytes, from[i].gain, i, false});
      ++i;
    } else if (k < from.size()) {
      push({from[k].bytes + b, from[k].gain + g, k, true});
      ++k;
    }
  }
  return out;
}

}  // namespace

std::vector<bool> best_whole_layers(const std::vector<double>& bytes, const std::vector<double>& gain, double limit) {
  std::vector<std::vector<Point>> frontier{{Point{}}};
  std::vector<std::size_t> layer_of;  // the layer each frontier after the first adds
  for (std::size_t j = 0; j < bytes.size(); ++j) {
    if (!(gain[j] > 0)) continue;
    frontier.push_back(extend(frontier.back(), bytes[j], gain[j], limit));
    layer_of.push_back(j);
  }
  // The most gain is the last point; walk its parents back.
  std::vector<bool> on(bytes.size(), false);
  std::size_t p = frontier.back().size() - 1;
  for (std::size_t f = frontier.size() - 1; f > 0; --f) {
    const Point& pt = frontier[f][p];
    if (pt.took) on[layer_of[f - 1]] = true;
    p = pt.parent;
  }
  return on;
}

}  // namespace placesim::scheduler::scheinfer::detail
