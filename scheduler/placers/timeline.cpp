#include "scheduler/placers/timeline.hpp"

#include <algorithm>
#include <cfloat>
#include <limits>

namespace placesim::scheduler {

namespace {
constexpr double kNoGap = -std::numeric_limits<double>::infinity();
}  // namespace

void Timeline::pull(int t) {
  Node& n = nodes_[t];
  n.size = 1 + size(n.left) + size(n.right);
  n.max_gap = n.gap;
  if (n.left >= 0) n.max_gap = std::max(n.max_gap, nodes_[n.left].max_gap);
  if (n.right >= 0) n.max_gap = std::max(n.max_gap, nodes_[n.right].max_gap);
}

void Timeline::split(int t, double start, double finish, int& le, int& gt) {
  if (t < 0) {
    le = gt = -1;
    return;
  }
  Node& n = nodes_[t];
  if (std::make_pair(n.start, n.finish) <= std::make_pair(start, finish)) {
    split(n.right, start, finish, nodes_[t].right, gt);
    le = t;
  } else {
    split(n.left, start, finish, le, nodes_[t].left);
    gt = t;
  }
  pull(t);
}

int Timeline::merge(int a, int b) {
  if (a < 0) return b;
  if (b < 0) return a;
  if (nodes_[a].priority > nodes_[b].priority) {
    nodes_[a].right = merge(nodes_[a].right, b);
    pull(a);
    return a;
  }
  nodes_[b].left = merge(a, nodes_[b].left);
  pull(b);
  return b;
}

void Timeline::set_before(int t, double before) {
  if (nodes_[t].left >= 0) {
    set_before(nodes_[t].left, before);
  } else {
    nodes_[t].before = before;
    nodes_[t].gap = nodes_[t].start - before;
  }
  pull(t);
}

double Timeline::last_of(int t) const {
  while (nodes_[t].right >= 0) t = nodes_[t].right;
  return nodes_[t].finish;
}

int Timeline::first_gap(int t, int offset, int from, double threshold, int& at) const {
  if (t < 0 || nodes_[t].max_gap < threshold || offset + nodes_[t].size <= from) return -1;
  const Node& n = nodes_[t];
  if (const int r = first_gap(n.left, offset, from, threshold, at); r >= 0) return r;
  const int here = offset + size(n.left);
  if (here >= from && n.gap >= threshold) {
    at = here;
    return t;
  }
  return first_gap(n.right, here + 1, from, threshold, at);
}

double Timeline::earliest_start(double ready, double dur, bool insertion) const {
  if (!insertion || root_ < 0) return std::max(ready, available());
  // The first interval that ends after `ready` (finishes are in order): the gap before it starts
  // at `ready`, every later gap at the previous interval's finish.
  int first = -1, first_at = 0;
  for (int t = root_, offset = 0; t >= 0;) {
    const Node& n = nodes_[t];
    if (n.finish > ready) {
      first = t, first_at = offset + size(n.left);
      t = n.left;
    } else {
      offset += size(n.left) + 1;
      t = n.right;
    }
  }
  if (first < 0) return ready;
  if (ready + dur <= nodes_[first].start) return ready;
  // A gap fits when before + dur <= start. Stored gaps are start - before, rounded: any gap
  // that fits is >= dur less a few units in the last place of the times involved (all >= 0 and
  // at most available() + dur), so the threshold below lets through every gap that fits, and
  // the exact test decides (a gap within rounding of dur that does not fit is passed over).
  const double threshold = dur - DBL_EPSILON * (available() + dur);
  for (int from = first_at + 1;;) {
    int at = 0;
    const int t = first_gap(root_, 0, from, threshold, at);
    if (t < 0) return available();
    if (nodes_[t].before + dur <= nodes_[t].start) return nodes_[t].before;
    from = at + 1;
  }
}

void Timeline::add(double start, double finish) {
  Node n;
  n.start = start;
  n.finish = finish;
  random_ ^= random_ << 13, random_ ^= random_ >> 7, random_ ^= random_ << 17;  // xorshift64
  n.priority = static_cast<std::uint32_t>(random_ >> 32);
  int le = -1, gt = -1;
  split(root_, start, finish, le, gt);
  n.before = le >= 0 ? last_of(le) : 0;
  n.gap = le >= 0 ? start - n.before : kNoGap;
  n.max_gap = n.gap;
  nodes_.push_back(n);
  const int t = static_cast<int>(nodes_.size()) - 1;
  if (gt >= 0) set_before(gt, finish);
  root_ = merge(merge(le, t), gt);
  last_finish_ = std::max(last_finish_, finish);
}

}  // namespace placesim::scheduler
