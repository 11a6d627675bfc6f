#include "sim/engine/max_min_links.hpp"

#include <algorithm>

namespace placesim::engine {

void ConstraintLinks::unite(ConstraintId a, ConstraintId b) {
  a = find(a);
  b = find(b);
  if (a == b) return;
  root_[a] = b;
  --groups_;
}

// The group with the most entries is only met, not searched from: it is usually most of what
// must be joined. Its constraints leave the queue; the others are sorted to be searched from
// those with the fewest variables up.
void ConstraintLinks::drop_largest(const MaxMinProblem& problem) {
  for (ConstraintId c : queue_) weight_[find(c)] = 0;
  ConstraintId largest = -1;
  for (ConstraintId c : queue_) {
    const ConstraintId r = find(c);
    weight_[r] += problem.cons(c).entries.size();
    if (largest < 0 || weight_[r] > weight_[largest] || (weight_[r] == weight_[largest] && r < largest)) largest = r;
  }
  std::erase_if(queue_, [&](ConstraintId c) { return find(c) == largest; });
  std::sort(queue_.begin(), queue_.end(), [&](ConstraintId a, ConstraintId b) {
    const std::size_t na = problem.cons(a).entries.size(), nb = problem.cons(b).entries.size();
    return na != nb ? na < nb : a < b;
  });
}

// A search from the queued constraints joins the groups it meets, and stops once one is left. A
// constraint the search meets is searched next, before the rest of the queue: when a link with
// slack regains it, its flows' other links are dozens of groups, each joined to all the others
// through any uplink behind one of them, so going deep joins them in two steps where going level
// by level searched every group first. The search gives up (false) past `budget` entries.
bool ConstraintLinks::join(const MaxMinProblem& problem, const Parts& parts, std::size_t budget) {
  if (groups_ <= 1) return true;
  drop_largest(problem);
  met_.clear();
  for (std::size_t k = 0; k < queue_.size() || !met_.empty();) {
    ConstraintId c;
    if (!met_.empty()) {
      c = met_.back();
      met_.pop_back();
    } else {
      c = queue_[k++];
    }
    for (const MaxMinProblem::Entry& en : problem.cons(c).entries) {
      if (budget-- == 0) return false;
      for (const MaxMinProblem::Element& e : problem.var(en.v).elems) {
        if (parts.slack(e.c) || e.c == c) continue;
        if (seen_[e.c] != epoch_) {
          add(e.c, find(c));
          met_.push_back(e.c);
        } else {
          unite(c, e.c);
          if (groups_ == 1) return true;
        }
      }
    }
  }
  return false;
}

}  // namespace placesim::engine
