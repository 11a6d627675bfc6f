// The volumes of asymgroup_cost.hpp, the even start, and the checks of their input.
#include "scheduler/placers/tensor_parallel/asymgroup_cost.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <numeric>
#include <queue>

#include "scheduler/placers/tensor_parallel/asymgroup_terms.hpp"
#include "sim/core/error.hpp"

namespace placesim::scheduler::asymgroup {
namespace {

void check_bytes(const char* who, double bytes) {
  if (!std::isfinite(bytes) || bytes < 0)
    throw InputError(fmt::format("{}: the volume B is {}; it must be finite and >= 0", who, bytes));
}

void check_gpus(const char* who, int gpus) {
  if (gpus < 1) throw InputError(fmt::format("{}: {} GPUs; it needs at least one", who, gpus));
}

}  // namespace

namespace detail {

std::vector<Term> largest_terms(const std::vector<double>& share, const std::vector<double>& m, int width) {
  const int k = static_cast<int>(share.size());
  const int w = std::min(width, k);
  auto descending = [&](const std::vector<double>& key) {
    std::vector<int> order(k);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return key[x] > key[y]; });
    return order;
  };
  const std::vector<int> by_m = descending(m), by_share = descending(share);
  std::vector<Term> out(static_cast<size_t>(std::max(k - 1, 0)) * w);
  for (int s = 0; s + 1 < k; ++s) {
    Term* top = &out[static_cast<size_t>(s) * w];
    int n = 0;
    auto ahead = [](const Term& x, const Term& y) { return x.value > y.value || (x.value == y.value && x.t < y.t); };
    auto offer = [&](int t) {
      const Term term{share[(t - s + k) % k] * m[t], t};
      if (n == w && !ahead(term, top[w - 1])) return;
      for (int j = 0; j < n; ++j)
        if (top[j].t == t) return;  // met from the other list already
      int at = std::min(n, w - 1);
      for (; at > 0 && ahead(term, top[at - 1]); --at) top[at] = top[at - 1];
      top[at] = term;
      n = std::min(n + 1, w);
    };
    for (int i = 0; i < k; ++i) {
      offer(by_m[i]);
      offer((by_share[i] + s) % k);  // the sender of the block that the i-th largest share owns
      if (n == w && m[by_m[i]] * share[by_share[i]] <= top[w - 1].value) break;  // nothing unseen is larger
    }
  }
  return out;
}

}  // namespace detail

double seconds(const Volume& v, double alpha, double beta) { return alpha * v.steps + beta * v.total; }
double seconds(const AllReduceVolume& v, double alpha, double beta) { return alpha * v.steps + beta * v.total; }

void check_capabilities(const Capabilities& c) {
  if (c.empty()) throw InputError("asymgroup: no nodes");
  for (size_t n = 0; n < c.size(); ++n)
    if (!std::isfinite(c[n]) || c[n] <= 0)
      throw InputError(fmt::format("asymgroup: node {} has capability {}; capabilities must be finite and > 0", n, c[n]));
}

void check_grouping(const Capabilities& c, const Grouping& groups) {
  check_capabilities(c);
  const int N = static_cast<int>(c.size());
  if (groups.empty()) throw InputError("asymgroup: no groups");
  std::vector<int> group_of(N, -1);
  for (size_t t = 0; t < groups.size(); ++t) {
    if (groups[t].empty()) throw InputError(fmt::format("asymgroup: group {} is empty", t));
    for (int n : groups[t]) {
      if (n < 0 || n >= N)
        throw InputError(fmt::format("asymgroup: group {} lists node {}, but the nodes are 0..{}", t, n, N - 1));
      if (group_of[n] >= 0)
        throw InputError(fmt::format("asymgroup: node {} is listed twice (groups {} and {})", n, group_of[n], t));
      group_of[n] = static_cast<int>(t);
    }
  }
  for (int n = 0; n < N; ++n)
    if (group_of[n] < 0) throw InputError(fmt::format("asymgroup: node {} is in no group", n));
}

std::vector<double> allgather_step_volumes(const Capabilities& c, const Grouping& groups, double bytes) {
  check_grouping(c, groups);
  check_bytes("asymgroup", bytes);
  const int k = static_cast<int>(groups.size());
  const double total = std::accumulate(c.begin(), c.end(), 0.0);
  std::vector<double> share(k), r(k), m(k);
  for (int t = 0; t < k; ++t) {
    double sum = 0, most = 0;
    for (int n : groups[t]) sum += c[n], most = std::max(most, c[n]);
    share[t] = sum / total;
    r[t] = most / sum;
  }
  for (int t = 0; t < k; ++t) m[t] = std::max(r[t], r[(t + 1) % k]);
  const std::vector<detail::Term> top = detail::largest_terms(share, m, 1);
  std::vector<double> steps(top.size());
  for (size_t s = 0; s < top.size(); ++s) steps[s] = bytes * top[s].value;
  return steps;
}

Volume asym_volume(const Capabilities& c, const Grouping& groups, Payload bytes) {
  const std::vector<double> steps = allgather_step_volumes(c, groups, bytes.gathered);
  check_bytes("asymgroup", bytes.scattered);
  const double total = std::accumulate(c.begin(), c.end(), 0.0);
  Volume v;
  v.intergroup = std::accumulate(steps.begin(), steps.end(), 0.0);
  double spread = 0;  // max over groups of C_G - c_min(G)
  size_t largest = 0;
  for (const std::vector<int>& g : groups) {
    double sum = 0, least = c[g.front()];
    for (int n : g) sum += c[n], least = std::min(least, c[n]);
    spread = std::max(spread, sum - least);
    largest = std::max(largest, g.size());
  }
  v.intragroup = bytes.scattered * spread / total;
  v.total = v.intergroup + v.intragroup;
  v.steps = static_cast<int>(groups.size() - 1 + largest - 1);
  return v;
}

Grouping even_groups(const Capabilities& c, int k) {
  check_capabilities(c);
  const int N = static_cast<int>(c.size());
  if (k < 1 || k > N)
    throw InputError(fmt::format("asymgroup: k = {} groups for {} nodes; k must be in 1..{}", k, N, N));
  std::vector<int> order(N);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return c[x] > c[y]; });
  // (total capability, group index), least first.
  using Slot = std::pair<double, int>;
  std::priority_queue<Slot, std::vector<Slot>, std::greater<>> least;
  for (int t = 0; t < k; ++t) least.push({0.0, t});
  Grouping groups(k);
  for (int n : order) {
    auto [sum, t] = least.top();
    least.pop();
    groups[t].push_back(n);
    least.push({sum + c[n], t});
  }
  for (std::vector<int>& g : groups) std::sort(g.begin(), g.end());
  return groups;
}

Volume symmetric_2d_volume(int gpus, int k, double bytes) {
  check_gpus("autoddl-2d", gpus);
  check_bytes("autoddl-2d", bytes);
  if (k < 1 || k > gpus || gpus % k != 0)
    throw InputError(fmt::format("autoddl-2d: k = {} does not divide G = {} GPUs (the grid is k x G/k)", k, gpus));
  Volume v;
  v.intergroup = bytes / gpus * (k - 1);
  v.intragroup = bytes / gpus * (gpus / k - 1);
  v.total = v.intergroup + v.intragroup;
  v.steps = (k - 1) + (gpus / k - 1);
  return v;
}

Symmetric2d best_symmetric_2d(int gpus, double bytes) {
  check_gpus("autoddl-2d", gpus);
  Symmetric2d best;
  for (int k = 1; k <= gpus; ++k) {
    if (gpus % k != 0) continue;
    // Compare the step counts, which are exact and proportional to the volume (B/G per step).
    const Volume v = symmetric_2d_volume(gpus, k, bytes);
    if (best.k == 0 || v.steps < best.volume.steps) best = {k, v};
  }
  return best;
}

AllReduceVolume megatron_all_reduce_volume(int gpus, double bytes) {
  check_gpus("megatron-tp", gpus);
  check_bytes("megatron-tp", bytes);
  AllReduceVolume v;
  v.half = bytes * (gpus - 1) / gpus;
  v.total = 2 * v.half;
  v.steps = 2 * (gpus - 1);
  return v;
}

}  // namespace placesim::scheduler::asymgroup
