// Max-min solver: each expected allocation is worked by hand with progressive filling (every
// unfixed rate rises as one level t; a constraint saturates at t = R_c / U_c).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <iterator>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "sim/engine/max_min.hpp"

namespace placesim::engine {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// loads() gives each constraint's load() bit for bit, four sums at a time: constraints of
// 0 to 40 variables with coefficients and rates whose sums round differently in another order
// (1e16 + 1 + ... loses the ones unless they come first), asked in every count from 0 to 11 and
// in an order that repeats constraints.
TEST(MaxMin, LoadsOfManyConstraintsAreEachLoadBitForBit) {
  MaxMinSystem s;
  std::mt19937 rng(7);
  std::vector<ConstraintId> cons;
  for (int c = 0; c < 12; ++c) cons.push_back(s.add_constraint(1e17));
  for (int c = 0; c < 12; ++c) {
    const int n = (c * 7) % 41;
    for (int k = 0; k < n; ++k) {
      const VariableId v = s.add_variable(std::uniform_real_distribution<double>(0.1, 10.0)(rng) * (k % 5 == 0 ? 1e15 : 1.0));
      s.expand(v, cons[c], std::uniform_real_distribution<double>(0.3, 3.0)(rng));
      s.expand(v, cons[(c + 5) % 12], 1.0);
    }
  }
  s.solve();
  std::vector<ConstraintId> asked;
  for (int i = 0; i < 11; ++i) asked.push_back(cons[(i * 5) % 12]);
  for (std::size_t n = 0; n <= asked.size(); ++n) {
    std::vector<double> out(n, -1.0);
    s.loads(asked.data(), n, out.data());
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(out[i], s.load(asked[i])) << "n " << n << " i " << i;
  }
}

TEST(MaxMin, NFlowsOnOneLinkGetOneNthEach) {
  for (int n = 1; n <= 7; ++n) {
    MaxMinSystem s;
    const ConstraintId link = s.add_constraint(1.0);
    std::vector<VariableId> v;
    for (int i = 0; i < n; ++i) {
      v.push_back(s.add_variable(kInf));
      s.expand(v.back(), link, 1.0);
    }
    s.solve();
    for (VariableId x : v) EXPECT_DOUBLE_EQ(s.rate(x), 1.0 / n) << "n=" << n;
    EXPECT_DOUBLE_EQ(s.load(link), 1.0);
  }
}

TEST(MaxMin, TwoLinksSharedFlowBottleneckedOnTheSmaller) {
  // L1 = 1, L2 = 2. A over L1+L2, B over L1, C over L2.
  // L1: t = 1/2, L2: t = 2/2 = 1 -> L1 first: A = B = 0.5.
  // L2: R = 2 - 0.5 = 1.5, U = 1 -> C = 1.5.
  MaxMinSystem s;
  const ConstraintId l1 = s.add_constraint(1), l2 = s.add_constraint(2);
  const VariableId a = s.add_variable(kInf), b = s.add_variable(kInf), c = s.add_variable(kInf);
  s.expand(a, l1, 1);
  s.expand(a, l2, 1);
  s.expand(b, l1, 1);
  s.expand(c, l2, 1);
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate(a), 0.5);
  EXPECT_DOUBLE_EQ(s.rate(b), 0.5);
  EXPECT_DOUBLE_EQ(s.rate(c), 1.5);
  EXPECT_DOUBLE_EQ(s.load(l2), 2.0);
}

// What fixed each rate, worked as above. L1 = 1 (A, B, D), L2 = 2 (A, C), L3 = 4 (D); D's
// bound is 0.25. t(L1) = 1/3, t(L2) = 1, bound 0.25 -> D first at 0.25. L1: R = 0.75, U = 2 ->
// t = 0.375 fixes A and B. L2: R = 1.625, U = 1 -> C = 1.625. Both links are full, L3 is not;
// B removed is not seen until L1 is solved again.
TEST(MaxMin, TellsWhatFixedEachRateAndWhichConstraintsAreFull) {
  MaxMinSystem s;
  const ConstraintId l1 = s.add_constraint(1), l2 = s.add_constraint(2), l3 = s.add_constraint(4);
  const VariableId a = s.add_variable(kInf), b = s.add_variable(kInf), c = s.add_variable(kInf), d = s.add_variable(0.25);
  s.expand(a, l1, 1);
  s.expand(a, l2, 1);
  s.expand(b, l1, 1);
  s.expand(c, l2, 1);
  s.expand(d, l1, 1);
  s.expand(d, l3, 1);
  s.solve();
  EXPECT_EQ(s.fixed_by(d), -1);
  EXPECT_EQ(s.fixed_by(a), l1);
  EXPECT_EQ(s.fixed_by(b), l1);
  EXPECT_EQ(s.fixed_by(c), l2);
  EXPECT_DOUBLE_EQ(s.level(l1), 0.375);
  EXPECT_DOUBLE_EQ(s.level(l2), 1.625);
  EXPECT_TRUE(s.saturated(l1));
  EXPECT_TRUE(s.saturated(l2));
  EXPECT_FALSE(s.saturated(l3));
  s.remove_variable(b);
  EXPECT_TRUE(s.saturated(l1));
  // The last id removed is the first reused (the executor rebuilds a group's variable so).
  s.remove_variable(c);
  EXPECT_EQ(s.add_variable(kInf), c);
  s.expand(c, l2, 1);
  s.solve();  // L1: A alone with R = 0.75, D's bound first again; A = 0.75, C = 1.25
  EXPECT_DOUBLE_EQ(s.rate(a), 0.75);
  EXPECT_EQ(s.fixed_by(a), l1);
  EXPECT_DOUBLE_EQ(s.level(l1), 0.75);
  EXPECT_TRUE(s.saturated(l1));
}

TEST(MaxMin, ParkingLotOverThreeLinks) {
  // L1 = 1, L2 = 2, L3 = 3; F0 crosses all three, Fi crosses only Li.
  // t(L1) = 1/2, t(L2) = 1, t(L3) = 1.5 -> L1: F0 = F1 = 0.5.
  // L2: R = 1.5, U = 1 -> F2 = 1.5.  L3: R = 2.5, U = 1 -> F3 = 2.5.
  MaxMinSystem s;
  const ConstraintId l[3] = {s.add_constraint(1), s.add_constraint(2), s.add_constraint(3)};
  const VariableId f0 = s.add_variable(kInf);
  VariableId f[3];
  for (int i = 0; i < 3; ++i) {
    s.expand(f0, l[i], 1);
    f[i] = s.add_variable(kInf);
    s.expand(f[i], l[i], 1);
  }
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate(f0), 0.5);
  EXPECT_DOUBLE_EQ(s.rate(f[0]), 0.5);
  EXPECT_DOUBLE_EQ(s.rate(f[1]), 1.5);
  EXPECT_DOUBLE_EQ(s.rate(f[2]), 2.5);
}

TEST(MaxMin, ThreeLinksThreeDifferentBottlenecks) {
  // L1 = 10 {A, B, C}, L2 = 4 {C, D}, L3 = 3 {D, E}.
  // t: L1 10/3, L2 2, L3 1.5 -> L3 first: D = E = 1.5.
  // L2: R = 4 - 1.5 = 2.5, U = 1 -> t = 2.5 < L1's 10/3 -> C = 2.5.
  // L1: R = 10 - 2.5 = 7.5, U = 2 -> A = B = 3.75.
  MaxMinSystem s;
  const ConstraintId l1 = s.add_constraint(10), l2 = s.add_constraint(4), l3 = s.add_constraint(3);
  VariableId v[5];
  for (VariableId& x : v) x = s.add_variable(kInf);
  const auto [a, b, c, d, e] = v;
  s.expand(a, l1, 1);
  s.expand(b, l1, 1);
  s.expand(c, l1, 1);
  s.expand(c, l2, 1);
  s.expand(d, l2, 1);
  s.expand(d, l3, 1);
  s.expand(e, l3, 1);
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate(d), 1.5);
  EXPECT_DOUBLE_EQ(s.rate(e), 1.5);
  EXPECT_DOUBLE_EQ(s.rate(c), 2.5);
  EXPECT_DOUBLE_EQ(s.rate(a), 3.75);
  EXPECT_DOUBLE_EQ(s.rate(b), 3.75);
}

TEST(MaxMin, CoefficientsShareRatesNotAmounts) {
  // One link of 10; A consumes 1 per unit rate, B consumes 4: t + 4t = 10 -> t = 2 for both;
  // the link carries 2 + 8 = 10.
  MaxMinSystem s;
  const ConstraintId l = s.add_constraint(10);
  const VariableId a = s.add_variable(kInf), b = s.add_variable(kInf);
  s.expand(a, l, 1);
  s.expand(b, l, 4);
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate(a), 2.0);
  EXPECT_DOUBLE_EQ(s.rate(b), 2.0);
  EXPECT_DOUBLE_EQ(s.load(l), 10.0);
}

TEST(MaxMin, DhaAndCopyOnOneBus) {
  // docs/execution.md, worked example 3: GPU = 1/s, bus = 1e10 B/s. The Dha uses GPU 0.05 and bus 1e9, the
  // copy uses bus 1e9. Bus: t = 1e10 / 2e9 = 5; GPU: t = 1 / 0.05 = 20 -> the bus saturates
  // first, both run at 5/s; the GPU carries 0.05 * 5 = 0.25.
  MaxMinSystem s;
  const ConstraintId gpu = s.add_constraint(1), bus = s.add_constraint(1e10);
  const VariableId dha = s.add_variable(kInf), copy = s.add_variable(kInf);
  s.expand(dha, gpu, 0.05);
  s.expand(dha, bus, 1e9);
  s.expand(copy, bus, 1e9);
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate(dha), 5.0);
  EXPECT_DOUBLE_EQ(s.rate(copy), 5.0);
  EXPECT_DOUBLE_EQ(s.load(gpu), 0.25);
}

TEST(MaxMin, RepeatedExpandAddsCoefficients) {
  // Two expands of 1 on the same link: coefficient 2, so t = 4 / 2 = 2.
  MaxMinSystem s;
  const ConstraintId l = s.add_constraint(4);
  const VariableId a = s.add_variable(kInf);
  s.expand(a, l, 1);
  s.expand(a, l, 1);
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate(a), 2.0);
}

TEST(MaxMin, ALongRouteKeepsEveryElement) {
  // F0 crosses L0..L6 (capacity i + 1), twice over L6 (coefficient 2): more elements than a
  // variable keeps inline, so they move to the heap and are copied as the variables grow.
  // g_i crosses only L_i. U = 2 on each link but L6 (3): t(L0) = 1/2 is the smallest, so
  // F0 = g_0 = 1/2; then g_i = (i + 1) - 1/2 alone on L_i, and g_6 = 7 - 2 * 1/2 = 6.
  MaxMinSystem s;
  ConstraintId l[7];
  for (int i = 0; i < 7; ++i) l[i] = s.add_constraint(i + 1);
  const VariableId f0 = s.add_variable(kInf);
  for (int i = 0; i < 7; ++i) s.expand(f0, l[i], 1);
  s.expand(f0, l[6], 1);
  VariableId g[7];
  for (int i = 0; i < 7; ++i) {
    g[i] = s.add_variable(kInf);
    s.expand(g[i], l[i], 1);
  }
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate(f0), 0.5);
  for (int i = 0; i < 6; ++i) EXPECT_DOUBLE_EQ(s.rate(g[i]), i + 0.5) << i;
  EXPECT_DOUBLE_EQ(s.rate(g[6]), 6.0);
  EXPECT_DOUBLE_EQ(s.load(l[6]), 7.0);
  // F0 gone, its id reused for a flow on L0 alone: g_0 and it share L0, the others fill theirs.
  s.remove_variable(f0);
  const VariableId h = s.add_variable(kInf);
  EXPECT_EQ(h, f0);
  s.expand(h, l[0], 1);
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate(h), 0.5);
  EXPECT_DOUBLE_EQ(s.rate(g[0]), 0.5);
  for (int i = 1; i < 7; ++i) EXPECT_DOUBLE_EQ(s.rate(g[i]), i + 1.0) << i;
}

TEST(MaxMin, BoundsCapAndReleaseTheRest) {
  // Link 1, A bounded at 0.1: 0.1 < 1/3, so A = 0.1; then R = 0.9, U = 2 -> B = C = 0.45.
  MaxMinSystem s;
  const ConstraintId l = s.add_constraint(1);
  const VariableId a = s.add_variable(0.1), b = s.add_variable(kInf), c = s.add_variable(kInf);
  for (VariableId v : {a, b, c}) s.expand(v, l, 1);
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate(a), 0.1);
  EXPECT_DOUBLE_EQ(s.rate(b), 0.45);
  EXPECT_DOUBLE_EQ(s.rate(c), 0.45);
}

TEST(MaxMin, LooseBoundChangesNothing) {
  // A bounded at 0.5 > 1/3: the link saturates first and all get 1/3.
  MaxMinSystem s;
  const ConstraintId l = s.add_constraint(1);
  const VariableId a = s.add_variable(0.5), b = s.add_variable(kInf), c = s.add_variable(kInf);
  for (VariableId v : {a, b, c}) s.expand(v, l, 1);
  s.solve();
  for (VariableId v : {a, b, c}) EXPECT_DOUBLE_EQ(s.rate(v), 1.0 / 3.0);
}

TEST(MaxMin, UnconstrainedVariables) {
  // No constraint: its bound, or +inf without one. A zero coefficient adds no constraint.
  MaxMinSystem s;
  const ConstraintId l = s.add_constraint(1);
  const VariableId bounded = s.add_variable(3), free = s.add_variable(kInf);
  s.expand(free, l, 0.0);
  s.solve();
  EXPECT_DOUBLE_EQ(s.rate(bounded), 3.0);
  EXPECT_EQ(s.rate(free), kInf);
  EXPECT_EQ(s.load(l), 0.0);
}

// Two links of capacity 1, flow a alone on l1 and b alone on l2: two components, solved.
struct TwoComponents {
  MaxMinSystem s;
  ConstraintId l1 = s.add_constraint(1), l2 = s.add_constraint(1);
  VariableId a = s.add_variable(kInf), b = s.add_variable(kInf);
  TwoComponents() {
    s.expand(a, l1, 1);
    s.expand(b, l2, 1);
    s.solve();
  }
};

TEST(MaxMin, OnlyTheTouchedComponentIsResolved) {
  TwoComponents two;
  auto& [s, l1, l2, a, b] = two;
  EXPECT_EQ(s.solved_variables().size(), 2u);
  const VariableId c = s.add_variable(kInf);
  s.expand(c, l2, 1);
  s.solve();
  EXPECT_EQ(s.solved_variables(), (std::vector<VariableId>{b, c}));
  EXPECT_EQ(s.solved_constraints(), (std::vector<ConstraintId>{l2}));
  EXPECT_DOUBLE_EQ(s.rate(a), 1.0);
  EXPECT_DOUBLE_EQ(s.rate(b), 0.5);
  s.remove_variable(b);
  s.solve();
  EXPECT_EQ(s.solved_variables(), (std::vector<VariableId>{c}));
  EXPECT_DOUBLE_EQ(s.rate(c), 1.0);
  s.remove_variable(c);
  s.solve();  // the emptied link is still re-solved: its load drops to 0
  EXPECT_EQ(s.solved_constraints(), (std::vector<ConstraintId>{l2}));
  EXPECT_EQ(s.load(l2), 0.0);
}

// Changes in two components, the one of the higher ids first: the rates they change are listed
// in ascending id, as a solve of each component alone would list them in turn, whichever the
// solver met first (the executor places their events in this order, which orders the events of
// one instant).
TEST(MaxMin, ChangesInTwoComponentsAreListedInIdOrder) {
  TwoComponents two;
  auto& [s, l1, l2, a, b] = two;
  const VariableId c = s.add_variable(kInf);
  s.expand(c, l2, 1);
  s.remove_variable(a);
  const VariableId d = s.add_variable(kInf);  // a's id again, on l1
  s.expand(d, l1, 1);
  const VariableId e = s.add_variable(kInf);
  s.expand(e, l1, 1);
  ASSERT_LT(d, b);
  s.solve();
  // c (on l2) changed first, then d and e (on l1): listed d, b, c, e.
  EXPECT_EQ(s.solved_variables(), (std::vector<VariableId>{d, b, c, e}));
  EXPECT_EQ(s.rate(b), 0.5);
  EXPECT_EQ(s.rate(d), 0.5);
}

// A fill tells the variables it fixed by a one-byte fill number, which wraps after 255 fills
// (max_min_fill_state.hpp). Component A is filled once, then component B hundreds of times; at
// each count a copy adds a third flow to A's link of capacity 2, whose fill must fix all three
// at 2/3 whatever number A's variables were left with.
TEST(MaxMin, AFillLongAfterTheLastIsNotMisledByItsNumbers) {
  MaxMinSystem s;
  const ConstraintId a = s.add_constraint(2), b = s.add_constraint(2);
  const VariableId a1 = s.add_variable(kInf), a2 = s.add_variable(kInf);
  s.expand(a1, a, 1);
  s.expand(a2, a, 1);
  const VariableId b1 = s.add_variable(kInf);
  s.expand(b1, b, 1);
  VariableId b2 = s.add_variable(kInf);
  s.expand(b2, b, 1);
  s.solve();
  for (int fills = 0; fills < 600; ++fills) {
    s.remove_variable(b2);  // B's part: two flows on one link, filled (not lone)
    b2 = s.add_variable(kInf);
    s.expand(b2, b, 1);
    s.solve();
    MaxMinSystem t = s;
    const VariableId a3 = t.add_variable(kInf);
    t.expand(a3, a, 1);
    t.solve();
    for (VariableId v : {a1, a2, a3}) ASSERT_EQ(t.rate(v), 2.0 / 3) << "after " << fills << " fills of B";
  }
}

// Two flows on links of capacity 1, both also on a link of capacity 10 that keeps slack: a
// third flow beside one of them re-solves that one's part only, until the shared link fills up.
// The same with and without the edges listed (MaxMinSystem::list_edges).
TEST(MaxMin, ALinkWithSlackSeparatesParts) {
  for (const bool list_edges : {true, false}) {
    MaxMinSystem s;
    s.list_edges(list_edges);
    const ConstraintId l1 = s.add_constraint(1), l2 = s.add_constraint(1), shared = s.add_constraint(10);
    const VariableId a = s.add_variable(kInf), b = s.add_variable(kInf);
    s.expand(a, l1, 1);
    s.expand(a, shared, 1);
    s.expand(b, l2, 1);
    s.expand(b, shared, 1);
    s.solve();
    const VariableId c = s.add_variable(kInf);
    s.expand(c, l2, 1);
    s.solve();
    EXPECT_EQ(s.solved_variables(), (std::vector<VariableId>{b, c}));
    EXPECT_EQ(s.rate(a), 1.0);
    EXPECT_EQ(s.rate(b), 0.5);
    EXPECT_EQ(s.load(shared), 1.5);
    // The shared link's load changed, but it kept its slack: an edge of the part, listed as
    // solved only when edges are wanted (a run recording link usage).
    std::vector<ConstraintId> listed = s.solved_constraints();
    std::sort(listed.begin(), listed.end());
    EXPECT_EQ(listed, list_edges ? (std::vector<ConstraintId>{l2, shared}) : (std::vector<ConstraintId>{l2}));
    // A flow on the shared link alone (coefficient 0.5) takes what a and b leave (10 - 1 - 0.5):
    // the link is then full, so the next change re-solves everything linked through it.
    const VariableId d = s.add_variable(kInf);
    s.expand(d, shared, 0.5);
    s.solve();
    EXPECT_EQ(s.rate(d), 17.0);
    EXPECT_EQ(s.load(shared), 10.0);
    s.remove_variable(c);
    s.solve();
    // Everything linked through the full shared link is re-solved; a keeps its rate (its own link
    // holds it to 1), so only b (1) and d ((10 - 1 - 1) / 0.5) are listed as changed.
    EXPECT_EQ(s.solved_variables(), (std::vector<VariableId>{b, d}));
    EXPECT_EQ(s.rate(a), 1.0);
    EXPECT_EQ(s.rate(b), 1.0);
    EXPECT_EQ(s.rate(d), 16.0);
  }
}

// solved_variables() lists every variable whose rate changed: the executor reschedules those
// alone. `before` holds the rates before the solve (absent: added by it).
void expect_changes_listed(const MaxMinSystem& s, const std::map<VariableId, double>& before, const std::vector<VariableId>& live,
                           const std::string& where) {
  const std::vector<VariableId>& listed = s.solved_variables();
  for (VariableId v : live) {
    const auto it = before.find(v);
    if (it != before.end() && it->second == s.rate(v)) continue;
    EXPECT_NE(std::find(listed.begin(), listed.end(), v), listed.end()) << where << ": variable " << v << " changed rate, not listed";
  }
}

// An independent, slow progressive filling: each step recomputes R_c and U_c from scratch.
struct Flow {
  std::vector<std::pair<int, double>> uses;  // (link, coefficient)
  double bound;
};

std::vector<double> reference_rates(const std::vector<double>& cap, const std::vector<Flow>& flows) {
  const std::size_t n = flows.size();
  std::vector<double> x(n, 0);
  std::vector<bool> fixed(n, false);
  for (;;) {
    double best = kInf;
    for (std::size_t c = 0; c < cap.size(); ++c) {
      double r = cap[c], u = 0;
      for (std::size_t f = 0; f < n; ++f) {
        for (auto [l, a] : flows[f].uses) {
          if (l != static_cast<int>(c)) continue;
          if (fixed[f]) r -= a * x[f]; else u += a;
        }
      }
      if (u > 0) best = std::min(best, r / u);
    }
    for (std::size_t f = 0; f < n; ++f) {
      if (!fixed[f]) best = std::min(best, flows[f].bound);
    }
    if (best == kInf) break;
    // Fix the bounded flows at `best` and every flow of a saturated link.
    bool any = false;
    for (std::size_t c = 0; c < cap.size(); ++c) {
      double r = cap[c], u = 0;
      for (std::size_t f = 0; f < n; ++f) {
        for (auto [l, a] : flows[f].uses) {
          if (l == static_cast<int>(c)) (fixed[f] ? r -= a * x[f] : u += a);
        }
      }
      if (u > 0 && r / u <= best * (1 + 1e-12)) {
        for (std::size_t f = 0; f < n; ++f) {
          for (auto [l, a] : flows[f].uses) {
            if (l == static_cast<int>(c) && !fixed[f]) fixed[f] = true, x[f] = best, any = true;
          }
        }
      }
    }
    for (std::size_t f = 0; f < n; ++f) {
      if (!fixed[f] && flows[f].bound <= best) fixed[f] = true, x[f] = flows[f].bound, any = true;
    }
    if (!any) break;
  }
  for (std::size_t f = 0; f < n; ++f) {
    if (!fixed[f]) x[f] = kInf;
  }
  return x;
}

// Random churn of flows over random links: after every incremental solve() the rates equal,
// bit for bit, a full re-solve (solve_all on a copy), and agree with the slow reference. Some
// changes expand a flow already solved onto another link (or add to a coefficient), which a
// fill's replay must stop before (max_min_replay.hpp, "Replay": a variable the record fixed that
// changed since).
TEST(MaxMin, IncrementalEqualsFullOnRandomFlowSets) {
  constexpr int kSeeds = 2000;
  constexpr double kRefTolerance = 1e-9;  // the reference sums in another order
  for (int seed = 0; seed < kSeeds; ++seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> nlinks_d(1, 8);
    const int nlinks = nlinks_d(rng);
    std::uniform_real_distribution<double> cap_d(0.5, 10.0);
    MaxMinSystem s;
    if (seed % 2 == 1) s.keep_parts_from(1);  // every part kept (max_min_kept.hpp)
    s.list_edges(seed % 4 < 2);  // a kept part is loaded without its edges when they are not listed
    std::vector<double> cap;
    for (int l = 0; l < nlinks; ++l) {
      cap.push_back(seed % 3 == 0 ? 1.0 : cap_d(rng));  // a third with equal capacities: many ties
      s.add_constraint(cap.back());
    }
    std::vector<std::pair<VariableId, Flow>> live;
    for (int step = 0; step < 30; ++step) {
      const bool add = live.empty() || std::uniform_int_distribution<int>(0, 2)(rng) != 0;
      const bool grow = !add && std::uniform_int_distribution<int>(0, 2)(rng) == 0;
      if (grow) {
        auto& [v, f] = live[std::uniform_int_distribution<std::size_t>(0, live.size() - 1)(rng)];
        const double a = seed % 2 == 0 ? 1.0 : std::uniform_real_distribution<double>(0.1, 3.0)(rng);
        f.uses.emplace_back(std::uniform_int_distribution<int>(0, nlinks - 1)(rng), a);
        s.expand(v, f.uses.back().first, a);
      } else if (add) {
        Flow f;
        f.bound = std::uniform_int_distribution<int>(0, 4)(rng) == 0 ? cap_d(rng) / 4 : kInf;
        const int hops = std::uniform_int_distribution<int>(1, 3)(rng);
        for (int h = 0; h < hops; ++h) {
          const double a = seed % 2 == 0 ? 1.0 : std::uniform_real_distribution<double>(0.1, 3.0)(rng);
          f.uses.emplace_back(std::uniform_int_distribution<int>(0, nlinks - 1)(rng), a);
        }
        const VariableId v = s.add_variable(f.bound);
        for (auto [l, a] : f.uses) s.expand(v, l, a);
        live.emplace_back(v, f);
      } else {
        const std::size_t k = std::uniform_int_distribution<std::size_t>(0, live.size() - 1)(rng);
        s.remove_variable(live[k].first);
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
      }
      std::map<VariableId, double> before;
      std::vector<VariableId> live_ids;
      for (const auto& [v, f] : live) {
        live_ids.push_back(v);
        if (!add || v != live.back().first) before[v] = s.rate(v);
      }
      s.solve();
      expect_changes_listed(s, before, live_ids, "seed " + std::to_string(seed) + " step " + std::to_string(step));
      ASSERT_TRUE(MaxMinSystem(s).kept_part_is_closed()) << "seed " << seed << " step " << step;
      MaxMinSystem full = s;
      full.solve_all();
      std::vector<Flow> flows;
      for (const auto& [v, f] : live) flows.push_back(f);
      // The reference merges repeated links of one flow the same way expand() does.
      for (Flow& f : flows) {
        std::vector<std::pair<int, double>> merged;
        for (auto [l, a] : f.uses) {
          bool found = false;
          for (auto& m : merged) if (m.first == l) m.second += a, found = true;
          if (!found) merged.emplace_back(l, a);
        }
        f.uses = merged;
      }
      const std::vector<double> ref = reference_rates(cap, flows);
      for (std::size_t k = 0; k < live.size(); ++k) {
        const VariableId v = live[k].first;
        ASSERT_EQ(s.rate(v), full.rate(v)) << "seed " << seed << " step " << step;
        ASSERT_EQ(s.fixed_by(v), full.fixed_by(v)) << "seed " << seed << " step " << step;
        ASSERT_NEAR(s.rate(v), ref[k], kRefTolerance * ref[k]) << "seed " << seed << " step " << step;
      }
      for (int l = 0; l < nlinks; ++l) {
        ASSERT_EQ(s.load(l), full.load(l)) << "seed " << seed;
        // Full when under 1e-9 of its capacity is left (max_min.hpp, saturated()).
        ASSERT_EQ(s.saturated(l), cap[l] - s.load(l) < cap[l] * 1e-9) << "seed " << seed << " step " << step << " link " << l;
      }
    }
  }
}

// What solved_variables() promises (max_min.hpp), worked out from the flows alone: ascending
// ids, each a flow whose component (flows linked through shared links) holds a change (a flow
// added, or a link a removed flow used).
void expect_listed_in_id_order(const std::map<VariableId, std::vector<int>>& links_of, const std::vector<VariableId>& added,
                               const std::vector<int>& emptied, const std::vector<VariableId>& solved, const std::string& where) {
  std::map<VariableId, VariableId> parent;
  for (const auto& [v, links] : links_of) parent[v] = v;
  std::function<VariableId(VariableId)> root = [&](VariableId v) { return parent[v] == v ? v : parent[v] = root(parent[v]); };
  std::map<int, VariableId> on_link;
  for (const auto& [v, links] : links_of) {
    for (int l : links) {
      if (on_link.count(l)) parent[root(v)] = root(on_link[l]);
      on_link[l] = v;
    }
  }
  std::set<VariableId> changed;  // component roots
  for (VariableId v : added) {
    if (links_of.count(v)) changed.insert(root(v));
  }
  for (int l : emptied) {
    if (on_link.count(l)) changed.insert(root(on_link[l]));
  }
  for (VariableId v : solved) EXPECT_TRUE(changed.count(root(v))) << where << ": flow " << v << " solved, but nothing changed in its component";
  EXPECT_TRUE(std::adjacent_find(solved.begin(), solved.end(), std::greater_equal<>()) == solved.end()) << where << ": not in ascending id";
}

// Many links, few of them shared, so that solve() fills parts cut at links with slack: after
// every change the rates and loads equal, bit for bit, a whole-component re-solve, and the
// solved variables come in ascending id.
TEST(MaxMin, PartsEqualWholeComponentsOnSparseFlowSets) {
  for (int seed = 0; seed < 150; ++seed) {
    std::mt19937 rng(seed);
    const int nlinks = std::uniform_int_distribution<int>(20, 120)(rng);
    MaxMinSystem s;
    if (seed % 2 == 1) s.keep_parts_from(1 + seed % 5);  // small parts kept too (max_min_kept.hpp)
    s.list_edges(seed % 4 < 2);
    std::vector<double> cap;
    for (int l = 0; l < nlinks; ++l) {
      // Equal capacities (many ties), multiples of one, or any.
      cap.push_back(seed % 3 == 0 ? 1.0 : seed % 3 == 1 ? (l % 3 + 1) * 25e9 : std::uniform_real_distribution<double>(0.5, 10.0)(rng));
      s.add_constraint(cap.back());
    }
    std::vector<VariableId> live;
    std::map<VariableId, std::vector<int>> links_of;  // per live flow, its links
    for (int step = 0; step < 150; ++step) {
      std::vector<VariableId> added;
      std::vector<int> emptied;  // links of the flows removed
      for (int k = std::uniform_int_distribution<int>(1, 3)(rng); k > 0; --k) {  // changes per solve
        if (live.size() < 5 || (live.size() < 120 && std::uniform_int_distribution<int>(0, 2)(rng) != 0)) {
          const double bound = std::uniform_int_distribution<int>(0, 5)(rng) == 0
                                   ? std::uniform_real_distribution<double>(0.1, 5.0)(rng) * (seed % 3 == 1 ? 1e10 : 1)
                                   : kInf;
          const VariableId v = s.add_variable(bound);
          std::vector<int>& links = links_of[v];
          for (int h = std::uniform_int_distribution<int>(1, 4)(rng); h > 0; --h) {
            const double a = seed % 2 == 0 ? 1.0 : std::uniform_real_distribution<double>(0.1, 3.0)(rng);
            const int l = std::uniform_int_distribution<int>(0, nlinks - 1)(rng);
            s.expand(v, l, a);
            if (std::find(links.begin(), links.end(), l) == links.end()) links.push_back(l);
          }
          live.push_back(v);
          added.push_back(v);
        } else {
          const std::size_t k2 = std::uniform_int_distribution<std::size_t>(0, live.size() - 1)(rng);
          s.remove_variable(live[k2]);
          for (int l : links_of[live[k2]]) emptied.push_back(l);
          links_of.erase(live[k2]);
          live.erase(live.begin() + static_cast<std::ptrdiff_t>(k2));
        }
      }
      std::map<VariableId, double> before;
      for (VariableId v : live) {
        if (std::find(added.begin(), added.end(), v) == added.end()) before[v] = s.rate(v);
      }
      s.solve();
      expect_changes_listed(s, before, live, "seed " + std::to_string(seed) + " step " + std::to_string(step));
      expect_listed_in_id_order(links_of, added, emptied, s.solved_variables(), "seed " + std::to_string(seed) + " step " + std::to_string(step));
      ASSERT_TRUE(MaxMinSystem(s).kept_part_is_closed()) << "seed " << seed << " step " << step;
      MaxMinSystem full = s;
      full.solve_all();
      for (VariableId v : live) ASSERT_EQ(s.rate(v), full.rate(v)) << "seed " << seed << " step " << step;
      for (int l = 0; l < nlinks; ++l) {
        ASSERT_EQ(s.load(l), full.load(l)) << "seed " << seed << " step " << step;
        // Full when under 1e-9 of its capacity is left (max_min.hpp, saturated()).
        ASSERT_EQ(s.saturated(l), cap[l] - s.load(l) < cap[l] * 1e-9) << "seed " << seed << " step " << step << " link " << l;
      }
    }
  }
}

// A two-level tree (hosts under leaves, uplinks oversubscribed), as in the flow benchmark: most
// flows in flight are in one part, held by full uplinks, and one flow starts or ends per solve.
// Each fill then replays much of the one before it (max_min_replay.hpp, "Replay"), and starts
// from the part kept from the solve before (max_min_kept.hpp, "Kept parts"): the rates and loads
// must still equal a whole-component re-solve bit for bit, every changed rate be listed, and the
// kept part be what a search finds.
TEST(MaxMin, ReplayedFillsEqualWholeComponentsOnATree) {
  std::uint64_t replayed = 0, kept = 0;
  for (int seed = 0; seed < 12; ++seed) {
    std::mt19937 rng(seed);
    const int leaves = 4 + seed % 3, per_leaf = 6;
    const int hosts = leaves * per_leaf;
    MaxMinSystem s;
    if (seed % 3 == 2) s.keep_parts_from(8);
    s.list_edges(seed % 4 < 2);
    // host up, host down, leaf up, leaf down
    for (int h = 0; h < 2 * hosts; ++h) s.add_constraint(seed % 2 == 0 ? 25.0 : std::uniform_real_distribution<double>(20, 30)(rng));
    for (int l = 0; l < 2 * leaves; ++l) s.add_constraint(seed % 2 == 0 ? 50.0 : std::uniform_real_distribution<double>(40, 60)(rng));
    std::vector<VariableId> live;
    for (int step = 0; step < 400; ++step) {
      const bool add = live.size() < 20 || (live.size() < 150 && std::uniform_int_distribution<int>(0, 2)(rng) != 0);
      std::map<VariableId, double> before;
      for (VariableId v : live) before[v] = s.rate(v);
      if (add) {
        const int src = std::uniform_int_distribution<int>(0, hosts - 1)(rng);
        int dst = std::uniform_int_distribution<int>(0, hosts - 2)(rng);
        dst += dst >= src;
        const double bound = std::uniform_int_distribution<int>(0, 7)(rng) == 0 ? std::uniform_real_distribution<double>(0.05, 2)(rng) : kInf;
        const VariableId v = s.add_variable(bound);
        s.expand(v, src, 1);
        if (src / per_leaf != dst / per_leaf) {
          s.expand(v, 2 * hosts + src / per_leaf, 1);
          s.expand(v, 2 * hosts + leaves + dst / per_leaf, 1);
        }
        s.expand(v, hosts + dst, 1);
        live.push_back(v);
      } else {
        const std::size_t k = std::uniform_int_distribution<std::size_t>(0, live.size() - 1)(rng);
        s.remove_variable(live[k]);
        before.erase(live[k]);
        live.erase(live.begin() + static_cast<std::ptrdiff_t>(k));
      }
      s.solve();
      const std::string where = "seed " + std::to_string(seed) + " step " + std::to_string(step);
      expect_changes_listed(s, before, live, where);
      ASSERT_TRUE(MaxMinSystem(s).kept_part_is_closed()) << where;
      MaxMinSystem full = s;
      full.solve_all();
      for (VariableId v : live) ASSERT_EQ(s.rate(v), full.rate(v)) << where;
      for (ConstraintId c = 0; c < static_cast<ConstraintId>(s.constraint_count()); ++c) ASSERT_EQ(s.load(c), full.load(c)) << where;
    }
    replayed += s.replayed_steps();
    kept += s.kept_fills();
  }
  EXPECT_GT(replayed, 1000u) << "the fills replayed too little for this test to check the replay";
  EXPECT_GT(kept, 1000u) << "the fills started from a kept part too rarely for this test to check keeping";
}

// A variable alone on each of its constraints is solved in closed form (max_min.hpp, "Lone
// parts"): its rate must be the fill's bit for bit. The same variable is filled for real once a
// second variable shares a constraint on which it is not the bottleneck (a huge capacity): the
// first step still fixes it at the same level, by the same constraint or its bound. Awkward
// coefficients make the quotients round (3 / 0.9, 1.7 / (1/3) and 11 / 0.45 differ from the
// dividend times the rounded reciprocal).
TEST(MaxMin, LonePartsEqualTheirFill) {
  struct Case {
    double cap1, a1, cap2, a2, bound;
  };
  const Case cases[] = {
      {3, 0.9, 11, 0.45, kInf},             // the first constraint
      {11, 0.45, 1.7, 1.0 / 3.0, kInf},     // the second
      {3, 0.9, 1.7, 1.0 / 3.0, 2.5},        // the bound, below both
      {3, 0.9, 11, 0.45, 3 / 0.9},          // the bound equal to the smaller quotient (a tie)
      {5e9, 1.0, 2.5e10, 1.0, kInf},        // link figures: bytes/s and coefficient 1
  };
  for (const Case& k : cases) {
    double rates[2];
    for (int shared = 0; shared < 2; ++shared) {
      MaxMinSystem s;
      const ConstraintId c1 = s.add_constraint(k.cap1), c2 = s.add_constraint(k.cap2), big = s.add_constraint(1e300);
      const VariableId v = s.add_variable(k.bound);
      s.expand(v, c1, k.a1);
      s.expand(v, c2, k.a2);
      s.expand(v, big, 1);
      if (shared) s.expand(s.add_variable(kInf), big, 1);
      s.solve();
      rates[shared] = s.rate(v);
      EXPECT_EQ(s.load(c1), k.a1 * rates[shared]);
    }
    EXPECT_EQ(rates[0], rates[1]) << "caps " << k.cap1 << ", " << k.cap2 << ", bound " << k.bound;
    EXPECT_EQ(rates[0], std::min({k.bound, k.cap1 / k.a1, k.cap2 / k.a2}));
  }
}

// reset_variable(v) is remove_variable(v) and an add_variable() that gets v back: a variable
// that stands for several flows (the executor's rate groups) loses one and takes the others'
// coefficients again. Two systems, one reset and one removed and added back, solve alike bit for
// bit and list the same changes, with parts kept or not.
TEST(MaxMin, ResetVariableEqualsRemoveAndAddBack) {
  constexpr int kLinks = 24;
  int resets = 0;
  for (int seed = 0; seed < 20; ++seed) {
    std::mt19937 rng(seed);
    auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); };
    MaxMinSystem reset, readd;
    for (MaxMinSystem* s : {&reset, &readd}) {
      if (seed % 2 == 1) s->keep_parts_from(4);
      for (int l = 0; l < kLinks; ++l) s->add_constraint(l % 3 == 0 ? 50.0 : 20.0);
    }
    std::map<VariableId, std::vector<std::vector<int>>> flows_of;  // per variable, its flows' links
    std::map<VariableId, double> bound_of;
    auto any_variable = [&] { return std::next(flows_of.begin(), static_cast<long>(pick(flows_of.size())))->first; };
    auto expand = [&](VariableId v, const std::vector<int>& links) {
      for (MaxMinSystem* s : {&reset, &readd}) {
        for (int l : links) s->expand(v, l, 1);
      }
    };
    for (int step = 0; step < 300; ++step) {
      if (flows_of.size() < 8 || pick(3) == 0) {  // a flow, onto a variable or on a new one
        std::vector<int> links(1 + pick(3));
        for (int& l : links) l = static_cast<int>(pick(kLinks));
        VariableId v = flows_of.empty() || pick(2) == 0 ? -1 : any_variable();
        if (v < 0) {
          const double bound = pick(5) == 0 ? 4.0 : kInf;
          v = reset.add_variable(bound);
          ASSERT_EQ(readd.add_variable(bound), v);
          bound_of[v] = bound;
        }
        flows_of[v].push_back(links);
        expand(v, links);
      } else {  // a flow ends; a variable left without flows may stay, with none
        const VariableId v = any_variable();
        std::vector<std::vector<int>>& flows = flows_of[v];
        if (!flows.empty()) flows.erase(flows.begin() + static_cast<std::ptrdiff_t>(pick(flows.size())));
        if (flows.empty() && pick(2) == 0) {
          reset.remove_variable(v);
          readd.remove_variable(v);
          flows_of.erase(v);
        } else {
          reset.reset_variable(v);
          readd.remove_variable(v);
          ASSERT_EQ(readd.add_variable(bound_of[v]), v);  // this solver reuses the last id freed
          for (const std::vector<int>& links : flows) expand(v, links);
          ++resets;
        }
      }
      reset.solve();
      readd.solve();
      const std::string where = "seed " + std::to_string(seed) + " step " + std::to_string(step);
      ASSERT_EQ(reset.solved_variables(), readd.solved_variables()) << where;
      ASSERT_EQ(reset.solved_constraints(), readd.solved_constraints()) << where;
      ASSERT_TRUE(MaxMinSystem(reset).kept_part_is_closed()) << where;
      for (const auto& [v, flows] : flows_of) {
        ASSERT_EQ(reset.rate(v), readd.rate(v)) << where;
        ASSERT_EQ(reset.fixed_by(v), readd.fixed_by(v)) << where;
      }
    }
    EXPECT_EQ(reset.replayed_steps(), readd.replayed_steps());
    EXPECT_EQ(reset.kept_fills(), readd.kept_fills());
  }
  EXPECT_GT(resets, 1000) << "too few resets for this test to check them";
}

}  // namespace
}  // namespace placesim::engine
