// The greedy group search of asymgroup_cost.hpp (V-C), and the search over k.
//
// Moving a node of capability v from group a to group b changes C, c_max and c_min of a and b
// only, so at step s it changes at most six terms of Eq. 2: those of the senders a-1, a, b-1, b
// (their m) and of a+s, b+s (whose owner's share moved). The search keeps the seven largest
// terms of every step; one of them is untouched, so a step's new cost is the largest of it and
// the six recomputed terms, and a move costs O(k) to evaluate exactly. Certifying a local
// optimum tries O(k^2) moves, so bounds skip most of them without changing the result:
//   * a term (owner o = t-s, sender t, receiver t+1) can fall only if a is one of o, t, t+1 or
//     b one of t, t+1 (b's share only grows). A step falls only if the move lowers every term
//     tied for its largest (within 1e-14 of it), and then still costs at least its seventh
//     largest term v7_s: it saves at most D_s = Cost_s - v7_s. Each step's D_s is credited to
//     the sources a that lower it whatever the target, the targets b that lower it whatever the
//     source, and the (a, b) pairs that lower it together. Where a lowers a term only as its
//     owner, the term falls by at most v m_t / C_sys: that credit is capped so (and b in t, t+1
//     gets a pair credit of D_s). Every step not credited to a move costs no less after it;
//   * the credits' sums bound a move in O(1); when a move has at most 64 credited steps, those
//     are costed exactly instead;
//   * b's share grows by v / C_sys, so step s costs at least b's term share'_b m_{b+s} (where
//     the move keeps m_{b+s}): what that exceeds Cost_s by, over the steps not costed exactly,
//     is a rise the move cannot avoid. It is cached per target and per rung of a ladder of up to
//     16 capabilities (the distinct ones, or quantiles of them), taking the rung at or below v;
//   * Eq. 4 after the move is exact from the three largest C - c_min.
// With balanced groups most largest terms tie, and a source is compared with only the few
// targets whose credits can pay for its bound. An exact evaluation also stops once the steps
// summed so far, plus a bound on the rest (their v7, or their Cost_s less the move's credits),
// cannot beat the best move found. Rounding stays well inside the 1e-12 of the total a move must
// gain: every bound has half of it as margin.
#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <numeric>

#include "scheduler/placers/tensor_parallel/asymgroup_cost.hpp"
#include "scheduler/placers/tensor_parallel/asymgroup_terms.hpp"
#include "sim/core/error.hpp"

namespace placesim::scheduler::asymgroup {
namespace {

constexpr int kWidth = 7;           // a move touches at most six terms of a step
constexpr double kImprove = 1e-12;  // a move must lower the total by more than this fraction of it
constexpr double kTie = 1e-14;      // terms this close to a step's largest count as tied with it
constexpr int kMovesPerNode = 10;   // the default max_moves, per node
constexpr int kRungs = 16;          // the most capabilities the rise is cached for
constexpr size_t kExactSteps = 64;  // the most credited steps of a move that are costed exactly
constexpr double kInf = std::numeric_limits<double>::infinity();

struct Distinct {
  double value = 0;
  int count = 0;
  int first = 0;  // its lowest node, the one a move takes
};

struct Group {
  std::vector<int> members;        // ascending
  std::vector<Distinct> distinct;  // ascending value
  double sum = 0, most = 0, least = 0;
};

// C, c_max and c_min of a group after it loses one node of `x`'s capability (it has two or more).
struct Left {
  double sum, most, least;
};
Left leave(const Group& g, const Distinct& x) {
  const size_t d = g.distinct.size();
  return {g.sum - x.value, x.value < g.most || x.count > 1 ? g.most : g.distinct[d - 2].value,
          x.value > g.least || x.count > 1 ? g.least : g.distinct[1].value};
}

// A step a source lowers whatever the target.
struct SourceCredit {
  int s;
  double saving;  // D_s
  double m;       // 0, or a lowers the step only as the owner of a term of sender m: v m / C_sys at most

  double of(double v, double system) const { return m > 0 ? std::min(saving, v * m / system) : saving; }
};

// A step a source and a target lower together.
struct PairCredit {
  int b, s;
  double saving;
  bool operator<(const PairCredit& o) const { return b < o.b || (b == o.b && s < o.s); }
};

class Greedy {
 public:
  // rho: bytes scattered per byte gathered, Eq. 4's weight against Eq. 3's (1 for Eq. 5).
  Greedy(const Capabilities& c, const Grouping& start, double rho)
      : c_(c), system_(std::accumulate(c.begin(), c.end(), 0.0)), k_(static_cast<int>(start.size())), rho_(rho),
        groups_(k_) {
    std::vector<double> values = c;
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    const size_t n = values.size(), rungs = std::min<size_t>(n, kRungs);
    for (size_t i = 0; i < rungs; ++i) ladder_.push_back(values[i * n / rungs]);
    for (int t = 0; t < k_; ++t) {
      groups_[t].members = start[t];
      std::sort(groups_[t].members.begin(), groups_[t].members.end());
      rebuild(groups_[t]);
    }
    refresh();
  }

  // Applies the best move of the first group, by decreasing contribution, that has an
  // improving one; false when none has.
  bool improve() {
    std::vector<int> sources(k_);
    std::iota(sources.begin(), sources.end(), 0);
    std::stable_sort(sources.begin(), sources.end(), [&](int x, int y) { return contribution_[x] > contribution_[y]; });
    const double margin = kImprove / 2 * total_;
    for (int a : sources) {
      const Group& ga = groups_[a];
      if (ga.members.size() < 2) continue;
      std::vector<const Distinct*> candidates;
      for (const Distinct& x : ga.distinct) candidates.push_back(&x);
      std::sort(candidates.begin(), candidates.end(), [](auto* x, auto* y) { return x->first < y->first; });
      double best = total_ - 2 * margin;
      int node = -1, target = -1;
      for (const Distinct* x : candidates) {
        double credit = 0;
        for (const SourceCredit& sc : credits_[a]) credit += sc.of(x->value, system_);
        const Left left = leave(ga, *x);
        const double base = inter_ - credit + rho_ * std::max((left.sum - left.least) / system_, spread_except(a, a));
        // Targets whose credits could bring the bound below the best: all of them, or those
        // with a pair credit and those with the largest W_dst.
        std::vector<int> targets;
        if (base < best + margin) {
          for (int b = 0; b < k_; ++b)
            if (b != a) targets.push_back(b);
        } else {
          for (const PairCredit& p : pairs_[a]) targets.push_back(p.b);
          for (int b : by_w_dst_) {
            if (w_dst_[b] <= base - best - margin) break;
            if (b != a) targets.push_back(b);
          }
          std::sort(targets.begin(), targets.end());
          targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
        }
        for (int b : targets) {
          const double after = evaluate(a, *x, b, credit, best + margin);
          if (after < best) best = after, node = x->first, target = b;
        }
      }
      if (node >= 0) {
        move(a, node, target);
        return true;
      }
    }
    return false;
  }

  Grouping groups() const {
    Grouping out;
    for (const Group& g : groups_) out.push_back(g.members);
    return out;
  }

 private:
  void rebuild(Group& g) const {
    std::vector<std::pair<double, int>> caps;
    for (int n : g.members) caps.push_back({c_[n], n});
    std::sort(caps.begin(), caps.end());
    g.distinct.clear();
    g.sum = 0;
    for (auto [value, n] : caps) {
      if (g.distinct.empty() || g.distinct.back().value != value) g.distinct.push_back({value, 0, n});
      ++g.distinct.back().count;
    }
    for (int n : g.members) g.sum += c_[n];
    g.least = g.distinct.front().value;
    g.most = g.distinct.back().value;
  }

  void refresh() {
    share_.resize(k_);
    ratio_.resize(k_);
    spread_.resize(k_);
    m_.resize(k_);
    for (int t = 0; t < k_; ++t) {
      share_[t] = groups_[t].sum / system_;
      ratio_[t] = groups_[t].most / groups_[t].sum;
      spread_[t] = (groups_[t].sum - groups_[t].least) / system_;
    }
    for (int t = 0; t < k_; ++t) m_[t] = std::max(ratio_[t], ratio_[(t + 1) % k_]);
    top_ = detail::largest_terms(share_, m_, kWidth);
    width_ = std::min(kWidth, k_);
    // Up to three groups by decreasing spread (ties: lower index): a move changes two.
    spread_top_.resize(k_);
    std::iota(spread_top_.begin(), spread_top_.end(), 0);
    const size_t keep = std::min(3, k_);
    std::partial_sort(spread_top_.begin(), spread_top_.begin() + keep, spread_top_.end(), [&](int x, int y) {
      return spread_[x] > spread_[y] || (spread_[x] == spread_[y] && x < y);
    });
    spread_top_.resize(keep);

    inter_ = 0;
    rest_.assign(k_, 0.0);
    rest_cost_.assign(k_, 0.0);
    rise_.assign(static_cast<size_t>(k_) * ladder_.size(), kInf);
    w_dst_.assign(k_, 0.0);
    // Cleared rather than reassigned, so their memory serves every move.
    clear_lists(dst_steps_);
    clear_lists(credits_);
    clear_lists(pairs_);
    contribution_.assign(k_, 0.0);
    for (int s = k_ - 2; s >= 0; --s) {
      rest_[s] = rest_[s + 1] + seventh(s);
      rest_cost_[s] = rest_cost_[s + 1] + top_[static_cast<size_t>(s) * width_].value;
    }
    for (int s = 0; s + 1 < k_; ++s) {
      const detail::Term* top = &top_[static_cast<size_t>(s) * width_];
      const double cost = top[0].value;
      inter_ += cost;
      int tied = 0;
      while (tied < width_ && top[tied].value >= cost * (1 - kTie)) ++tied;
      charge(s, top[0]);
      // Seven tied terms may hide more: no move lowers such a step.
      if (tied < kWidth) credit(s, top, tied, cost - seventh(s));
    }
    intra_ = rho_ * spread_[spread_top_.front()];
    contribution_[spread_top_.front()] += intra_;
    total_ = inter_ + intra_;
    by_w_dst_.clear();
    for (int g = 0; g < k_; ++g) {
      if (w_dst_[g] > 0) by_w_dst_.push_back(g);
      std::sort(pairs_[g].begin(), pairs_[g].end());
    }
    std::stable_sort(by_w_dst_.begin(), by_w_dst_.end(), [&](int x, int y) { return w_dst_[x] > w_dst_[y]; });
  }

  template <class T>
  void clear_lists(std::vector<std::vector<T>>& lists) const {
    lists.resize(k_);
    for (std::vector<T>& l : lists) l.clear();
  }

  // A step's cost to the groups of its largest term: the owner, the sender and the receiver.
  void charge(int s, const detail::Term& first) {
    const int involved[3] = {(first.t - s + k_) % k_, first.t, (first.t + 1) % k_};
    for (int i = 0; i < 3; ++i)
      if (std::find(involved, involved + i, involved[i]) == involved + i) contribution_[involved[i]] += first.value;
  }

  // Credits step s's saving to the sources, targets and pairs that lower all its `tied` terms.
  void credit(int s, const detail::Term* top, int tied, double saving) {
    auto sender_side = [&](int g, int j) { return g == top[j].t || g == (top[j].t + 1) % k_; };
    auto owner = [&](int j) { return (top[j].t - s + k_) % k_; };
    std::vector<int> sources, targets;  // the groups that lower at least one tied term
    for (int j = 0; j < tied; ++j) {
      for (int g : {owner(j), top[j].t, (top[j].t + 1) % k_}) sources.push_back(g);
      for (int g : {top[j].t, (top[j].t + 1) % k_}) targets.push_back(g);
    }
    for (std::vector<int>* v : {&sources, &targets}) {
      std::sort(v->begin(), v->end());
      v->erase(std::unique(v->begin(), v->end()), v->end());
    }
    auto lowers = [&](int a, int b) {
      for (int j = 0; j < tied; ++j)
        if (a != owner(j) && !sender_side(a, j) && !sender_side(b, j)) return false;
      return true;
    };
    std::vector<bool> alone(sources.size(), false);
    for (size_t i = 0; i < sources.size(); ++i) {
      const int a = sources[i];
      if (!lowers(a, -1)) continue;
      alone[i] = true;
      int only_owner = -1;  // a tied term that a lowers only as its owner
      for (int j = 0; j < tied; ++j)
        if (a == owner(j) && !sender_side(a, j)) only_owner = j;
      if (only_owner < 0) {
        credits_[a].push_back({s, saving, 0.0});
        continue;
      }
      credits_[a].push_back({s, saving, m_[top[only_owner].t]});
      for (int b : {top[only_owner].t, (top[only_owner].t + 1) % k_})
        if (b != a) pairs_[a].push_back({b, s, saving});
    }
    for (int b : targets)
      if (lowers(-1, b)) {
        w_dst_[b] += saving;
        dst_steps_[b].push_back(s);
      }
    for (size_t i = 0; i < sources.size(); ++i)
      if (!alone[i])
        for (int b : targets)
          if (b != sources[i] && lowers(sources[i], b)) pairs_[sources[i]].push_back({b, s, saving});
  }

  // The seventh largest term of step s, 0 when there are fewer (then a move may touch them all).
  double seventh(int s) const {
    return width_ == kWidth ? top_[static_cast<size_t>(s) * width_ + kWidth - 1].value : 0.0;
  }

  // The largest spread among groups other than x and y, 0 if none.
  double spread_except(int x, int y) const {
    for (int g : spread_top_)
      if (g != x && g != y) return spread_[g];
    return 0.0;
  }

  // a and b's pair credits.
  std::pair<std::vector<PairCredit>::const_iterator, std::vector<PairCredit>::const_iterator> pair_credits(int a,
                                                                                                       int b) const {
    return std::equal_range(pairs_[a].begin(), pairs_[a].end(), PairCredit{b, 0, 0},
                            [](const PairCredit& x, const PairCredit& y) { return x.b < y.b; });
  }

  // The rise of Eq. 3 when b gains a node of capability v, over the steps where a move from a
  // keeps m_{b+s} (not s = 0, b's own m, nor b+s = a-1, a) other than `exact` (ascending).
  // Cached per b and rung until the next move (every source shares it).
  double rise(int a, int b, double v, const std::vector<int>& exact) const {
    const size_t rung = std::upper_bound(ladder_.begin(), ladder_.end(), v) - ladder_.begin() - 1;
    const double share_b = share_[b] + ladder_[rung] / system_;
    auto excess = [&](int s) {
      return std::max(0.0, share_b * m_[(b + s) % k_] - top_[static_cast<size_t>(s) * width_].value);
    };
    double& cached = rise_[static_cast<size_t>(b) * ladder_.size() + rung];
    if (cached == kInf) {
      cached = 0;
      for (int s = 1; s + 1 < k_; ++s) cached += excess(s);
    }
    double sum = cached;
    for (int t : {(a - 1 + k_) % k_, a}) {
      const int s = (t - b + k_) % k_;
      if (s >= 1 && s + 1 < k_ && !std::binary_search(exact.begin(), exact.end(), s)) sum -= excess(s);
    }
    for (int s : exact)
      if (s >= 1) sum -= excess(s);
    return sum;
  }

  // The total after moving a node of x's capability from a to b, or +inf once it cannot be
  // below `bound`. `credit`: what a saves whatever the target.
  double evaluate(int a, const Distinct& x, int b, double credit, double bound) const {
    const Left left = leave(groups_[a], x);
    const Group& gb = groups_[b];
    const double b_sum = gb.sum + x.value;
    const double share_a = left.sum / system_, share_b = b_sum / system_;
    const double ratio_a = left.most / left.sum, ratio_b = std::max(gb.most, x.value) / b_sum;
    const double intra = rho_ * std::max({(left.sum - left.least) / system_,
                                          (b_sum - std::min(gb.least, x.value)) / system_, spread_except(a, b)});
    const auto [pairs_from, pairs_to] = pair_credits(a, b);
    double others = w_dst_[b];
    for (auto p = pairs_from; p != pairs_to; ++p) others += p->saving;
    const double saved = credit + others;
    if (inter_ - saved + intra >= bound) return kInf;
    auto share = [&](int g) { return g == a ? share_a : g == b ? share_b : share_[g]; };
    auto ratio = [&](int g) { return g == a ? ratio_a : g == b ? ratio_b : ratio_[g]; };
    auto term = [&](int s, int t) { return share((t - s + k_) % k_) * std::max(ratio(t), ratio((t + 1) % k_)); };
    // Step s after the move: the largest of its terms the move leaves (one of its seven largest)
    // and the six it touches.
    auto step = [&](int s) {
      const int touched[6] = {(a - 1 + k_) % k_, a, (b - 1 + k_) % k_, b, (a + s) % k_, (b + s) % k_};
      double cost = 0;
      for (int j = 0; j < width_; ++j) {
        const detail::Term& kept = top_[static_cast<size_t>(s) * width_ + j];
        if (std::find(std::begin(touched), std::end(touched), kept.t) == std::end(touched)) {
          cost = kept.value;
          break;
        }
      }
      for (int t : touched) cost = std::max(cost, term(s, t));
      return cost;
    };
    // The steps the move may lower, costed exactly when they are few.
    std::vector<int>& lowered = lowered_;
    lowered.clear();
    if (credits_[a].size() + dst_steps_[b].size() + (pairs_to - pairs_from) <= kExactSteps) {
      for (const SourceCredit& sc : credits_[a]) lowered.push_back(sc.s);
      lowered.insert(lowered.end(), dst_steps_[b].begin(), dst_steps_[b].end());
      for (auto p = pairs_from; p != pairs_to; ++p) lowered.push_back(p->s);
      std::sort(lowered.begin(), lowered.end());
      lowered.erase(std::unique(lowered.begin(), lowered.end()), lowered.end());
      double bound_inter = inter_;
      for (int s : lowered) bound_inter += step(s) - top_[static_cast<size_t>(s) * width_].value;
      if (bound_inter + intra >= bound || bound_inter + intra + rise(a, b, x.value, lowered) >= bound) return kInf;
    } else if (inter_ - saved + intra + rise(a, b, x.value, lowered) >= bound) {
      return kInf;
    }
    double sum = intra;
    for (int s = 0; s + 1 < k_; ++s) {
      const double cost = step(s);
      sum += cost;
      if (sum + std::max(rest_[s + 1], rest_cost_[s + 1] - saved) >= bound) return kInf;
    }
    return sum;
  }

  void move(int a, int node, int b) {
    std::vector<int>& from = groups_[a].members;
    from.erase(std::find(from.begin(), from.end(), node));
    std::vector<int>& to = groups_[b].members;
    to.insert(std::lower_bound(to.begin(), to.end(), node), node);
    rebuild(groups_[a]);
    rebuild(groups_[b]);
    refresh();
  }

  const Capabilities& c_;
  const double system_;
  const int k_;
  const double rho_;
  std::vector<Group> groups_;
  std::vector<double> ladder_;  // ascending capabilities the rise is cached for, the least first
  std::vector<double> share_, ratio_, spread_, m_;
  std::vector<detail::Term> top_;  // per step, its width_ largest terms
  int width_ = 0;
  std::vector<int> spread_top_;
  std::vector<double> rest_;       // rest_[s]: the sum of seventh(s') over s' >= s
  std::vector<double> rest_cost_;  // rest_cost_[s]: the sum of Cost_s' over s' >= s
  mutable std::vector<double> rise_;  // per target and rung: rise() before a's steps; inf: not yet
  double inter_ = 0, intra_ = 0, total_ = 0;
  std::vector<double> contribution_;
  std::vector<double> w_dst_;                              // per target: the savings it gives alone
  std::vector<std::vector<int>> dst_steps_;                // per target: the steps it lowers alone
  std::vector<std::vector<SourceCredit>> credits_;         // per source: the savings it gives alone
  std::vector<std::vector<PairCredit>> pairs_;             // per source, by target
  std::vector<int> by_w_dst_;  // groups with w_dst_ > 0, largest first
  mutable std::vector<int> lowered_;  // evaluate()'s scratch
};

}  // namespace

GreedyResult greedy_groups(const Capabilities& c, const Grouping& start, Payload bytes, int max_moves) {
  check_grouping(c, start);
  if (max_moves < 0) throw InputError(fmt::format("asymgroup: max_moves is {}; it must be >= 0", max_moves));
  // The greedy works in units of the gathered bytes (Eq. 3's shares), Eq. 4 weighted by rho.
  if (!(bytes.gathered > 0) && bytes.scattered > 0)
    throw InputError(fmt::format("asymgroup: {} bytes scattered but {} gathered; the search needs both > 0",
                                 bytes.scattered, bytes.gathered));
  Greedy greedy(c, start, bytes.gathered > 0 ? bytes.scattered / bytes.gathered : 1.0);
  GreedyResult out;
  while (out.moves < max_moves && greedy.improve()) ++out.moves;
  out.groups = greedy.groups();
  // Only a search that could still move was cut short.
  out.capped = out.moves == max_moves && greedy.improve();
  out.volume = asym_volume(c, out.groups, bytes);
  return out;
}

SearchResult search_groups(const Capabilities& c, Payload bytes, const SearchOptions& options) {
  check_capabilities(c);
  const int N = static_cast<int>(c.size());
  SearchResult out;
  if (!options.groups.empty()) {
    if (options.k != 0)
      throw InputError(fmt::format("asymgroup: give k ({}) or the groups, not both", options.k));
    const Volume v = asym_volume(c, options.groups, bytes);
    out.per_k.push_back({static_cast<int>(options.groups.size()), v, v, options.groups, 0, false});
  } else {
    if (options.k < 0 || options.k > N)
      throw InputError(fmt::format("asymgroup: k = {} groups for {} nodes; k must be in 1..{} (0: every k)", options.k,
                                   N, N));
    const int max_moves = options.max_moves.value_or(kMovesPerNode * N);
    const int lo = options.k ? options.k : 1, hi = options.k ? options.k : N;
    for (int k = lo; k <= hi; ++k) {
      const Grouping start = even_groups(c, k);
      GreedyResult g = greedy_groups(c, start, bytes, max_moves);
      const Volume v = g.moves == 0 ? g.volume : asym_volume(c, start, bytes);
      out.per_k.push_back({k, v, g.volume, std::move(g.groups), g.moves, g.capped});
    }
  }
  const KResult* best = &out.per_k.front();
  for (const KResult& r : out.per_k)
    if (r.greedy.total < best->greedy.total - kImprove * best->greedy.total) best = &r;
  out.k = best->k;
  out.groups = best->groups;
  out.volume = best->greedy;
  return out;
}

}  // namespace placesim::scheduler::asymgroup
