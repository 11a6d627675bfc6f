#include "scheduler/placers/timeline.hpp"

#include <algorithm>
#include <cfloat>
#include <limits>
#include <utility>

namespace placesim::scheduler {

namespace {
constexpr double kNoGap = -std::numeric_limits<double>::infinity();
}  // namespace

double Timeline::max_gap(std::size_t b) const {
  const Block& k = block(b);
  double gap = b == 0 ? kNoGap : k.start[0] - last_[b - 1];
  for (int j = 1; j < k.size; ++j) gap = std::max(gap, k.start[j] - k.finish[j - 1]);
  return gap;
}

void Timeline::set_gap(std::size_t b) {
  std::size_t i = leaves_ + b;
  tree_[i] = max_gap(b);
  for (i /= 2; i >= 1; i /= 2) tree_[i] = std::max(tree_[2 * i], tree_[2 * i + 1]);
}

void Timeline::rebuild_tree() {
  leaves_ = 1;
  while (leaves_ < order_.size()) leaves_ *= 2;
  tree_.assign(2 * leaves_, kNoGap);
  for (std::size_t b = 0; b < order_.size(); ++b) tree_[leaves_ + b] = max_gap(b);
  for (std::size_t i = leaves_ - 1; i >= 1; --i) tree_[i] = std::max(tree_[2 * i], tree_[2 * i + 1]);
}

int Timeline::first_block(std::size_t from, double threshold) const {
  if (from >= order_.size()) return -1;
  // Up from leaf `from` to the first subtree to its right (itself included) with a gap long
  // enough, then down to that subtree's leftmost such leaf.
  std::size_t i = leaves_ + from;
  while (tree_[i] < threshold) {
    while (i % 2 == 1) i /= 2;
    if (i == 0) return -1;
    ++i;
  }
  while (i < leaves_) {
    i *= 2;
    if (tree_[i] < threshold) ++i;
  }
  return static_cast<int>(i - leaves_);
}

double Timeline::earliest_start(double ready, double dur, bool insertion) const {
  if (!insertion || ready >= last_finish_) return std::max(ready, last_finish_);
  // The first interval that ends after `ready` (finishes are in order): the gap before it starts
  // at `ready`, every later gap at the previous interval's finish. Most queries fall in the
  // last block.
  const std::size_t n = order_.size();
  const std::size_t b = n == 1 || ready >= last_[n - 2] ? n - 1
                        : static_cast<std::size_t>(std::upper_bound(last_.begin(), last_.end(), ready) - last_.begin());
  const Block& k = block(b);
  int j = static_cast<int>(std::upper_bound(k.finish.begin(), k.finish.begin() + k.size, ready) - k.finish.begin());
  if (ready + dur <= k.start[j]) return ready;
  for (++j; j < k.size; ++j)
    if (k.finish[j - 1] + dur <= k.start[j]) return k.finish[j - 1];
  // A gap fits when before + dur <= start. The blocks' largest gaps are start - before,
  // rounded: any gap that fits is >= dur less a few units in the last place of the times
  // involved (all >= 0 and at most available() + dur), so the threshold below lets through
  // every block with a gap that fits, and the exact test decides (a block whose gaps are all
  // within rounding of dur and do not fit is passed over).
  const double threshold = dur - DBL_EPSILON * (last_finish_ + dur);
  for (int c = first_block(b + 1, threshold); c >= 0; c = first_block(c + 1, threshold)) {
    const Block& m = block(c);
    double before = last_[c - 1];
    for (int i = 0; i < m.size; before = m.finish[i++])
      if (before + dur <= m.start[i]) return before;
  }
  return last_finish_;
}

void Timeline::split(std::size_t b) {
  Block upper;
  Block& lower = pool_[order_[b]];
  upper.size = lower.size / 2;
  lower.size -= upper.size;
  std::copy_n(lower.start.begin() + lower.size, upper.size, upper.start.begin());
  std::copy_n(lower.finish.begin() + lower.size, upper.size, upper.finish.begin());
  const double lower_last = lower.finish[lower.size - 1];
  pool_.push_back(upper);
  order_.insert(order_.begin() + static_cast<std::ptrdiff_t>(b) + 1, static_cast<int>(pool_.size()) - 1);
  last_.insert(last_.begin() + static_cast<std::ptrdiff_t>(b), lower_last);
  rebuild_tree();
}

void Timeline::add(double start, double finish) {
  const std::pair<double, double> in{start, finish};
  const auto last_of = [&](std::size_t b) {
    const Block& k = block(b);
    return std::make_pair(k.start[k.size - 1], k.finish[k.size - 1]);
  };
  if (order_.empty()) {
    pool_.emplace_back();
    order_.push_back(0);
    last_.push_back(finish);
    rebuild_tree();
  }
  // The first block whose last interval comes after the new one, else the last block; inside
  // it, after every interval ordered <= the new one.
  std::size_t b = 0, hi = order_.size() - 1;
  while (b < hi) {
    const std::size_t mid = (b + hi) / 2;
    if (in < last_of(mid)) hi = mid; else b = mid + 1;
  }
  if (block(b).size == kBlock) {
    split(b);
    if (!(in < last_of(b))) ++b;
  }
  Block& k = pool_[order_[b]];
  int j = k.size;
  for (; j > 0 && in < std::make_pair(k.start[j - 1], k.finish[j - 1]); --j) {
    k.start[j] = k.start[j - 1];
    k.finish[j] = k.finish[j - 1];
  }
  k.start[j] = start;
  k.finish[j] = finish;
  ++k.size;
  last_[b] = k.finish[k.size - 1];
  set_gap(b);
  if (b + 1 < order_.size()) set_gap(b + 1);  // the gap before its first interval may have changed
  last_finish_ = std::max(last_finish_, finish);
}

}  // namespace placesim::scheduler
