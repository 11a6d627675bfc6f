// The exact whole-layer knapsack of whole_layers.hpp.
#include "scheduler/placers/scheinfer/whole_layers.hpp"

#include <algorithm>
#include <cstddef>
#include <utility>

namespace placesim::scheduler::scheinfer::detail {
namespace {

struct Group {
  double bytes = 0;                 // of each of its layers
  std::vector<std::size_t> layers;  // gain > 0, best gain first (ties: the lower layer)
  std::vector<double> taken;        // taken[c]: the gain of its first c layers
};

struct Item { double bytes, gain; };

class Search {
 public:
  Search(std::vector<Group> groups, double limit) : groups_(std::move(groups)), limit_(limit) {
    // rest_[g]: the layers of groups g.. by gain per byte, best first, for the bound.
    rest_.resize(groups_.size() + 1);
    for (std::size_t g = groups_.size(); g-- > 0;) {
      rest_[g] = rest_[g + 1];
      for (std::size_t c = 1; c < groups_[g].taken.size(); ++c)
        rest_[g].push_back({groups_[g].bytes, groups_[g].taken[c] - groups_[g].taken[c - 1]});
      std::stable_sort(rest_[g].begin(), rest_[g].end(),
                       [](const Item& a, const Item& b) { return a.gain * b.bytes > b.gain * a.bytes; });
    }
    counts_.assign(groups_.size(), 0);
    best_counts_ = counts_;
    visit(0, 0, 0);
  }

  const std::vector<int>& counts() const { return best_counts_; }

 private:
  // The most gain groups g.. could add within `room` if layers could be split.
  double bound(std::size_t g, double room) const {
    double more = 0;
    for (const Item& it : rest_[g]) {
      if (it.bytes <= room) {
        room -= it.bytes;
        more += it.gain;
      } else {
        return more + it.gain * (room / it.bytes);
      }
    }
    return more;
  }

  void visit(std::size_t g, double used, double gain) {
    if (g == groups_.size()) {
      if (gain > best_gain_) {
        best_gain_ = gain;
        best_counts_ = counts_;
      }
      return;
    }
    if (gain + bound(g, limit_ - used) <= best_gain_) return;
    const Group& group = groups_[g];
    int most = static_cast<int>(group.layers.size());
    while (most > 0 && used + most * group.bytes > limit_) --most;
    for (int c = most; c >= 0; --c) {  // most first: finds a good assignment early
      counts_[g] = c;
      visit(g + 1, used + c * group.bytes, gain + group.taken[c]);
    }
    counts_[g] = 0;
  }

  std::vector<Group> groups_;
  double limit_;
  std::vector<std::vector<Item>> rest_;
  std::vector<int> counts_, best_counts_;
  double best_gain_ = 0;
};

}  // namespace

std::vector<bool> best_whole_layers(const std::vector<double>& bytes, const std::vector<double>& gain, double limit) {
  std::vector<Group> groups;
  for (std::size_t j = 0; j < bytes.size(); ++j) {
    if (!(gain[j] > 0)) continue;
    auto it = std::find_if(groups.begin(), groups.end(), [&](const Group& g) { return g.bytes == bytes[j]; });
    if (it == groups.end()) it = groups.insert(groups.end(), Group{bytes[j], {}, {}});
    it->layers.push_back(j);
  }
  for (Group& g : groups) {
    std::stable_sort(g.layers.begin(), g.layers.end(), [&](std::size_t a, std::size_t b) { return gain[a] > gain[b]; });
    g.taken.assign(1, 0);
    for (std::size_t j : g.layers) g.taken.push_back(g.taken.back() + gain[j]);
  }
  const Search search(groups, limit);
  std::vector<bool> on(bytes.size(), false);
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (int c = 0; c < search.counts()[g]; ++c) on[groups[g].layers[c]] = true;
  return on;
}

}  // namespace placesim::scheduler::scheinfer::detail
