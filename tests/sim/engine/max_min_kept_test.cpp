// When the solver keeps its last large part (max_min_kept.hpp, "When keeping pays"): a part that
// lives long is kept and every fill is loaded from it; parts that each change replaces are
// searched instead once a window shows keeping them saved nothing; a part its fill cuts in two is
// kept whole. Either way the rates are those of a whole fill.
#include <gtest/gtest.h>

#include <cstddef>
#include <functional>
#include <limits>
#include <vector>

#include "sim/engine/max_min.hpp"

namespace placesim::engine {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::size_t kFlows = 70;  // a part of 70 is large: kept from 64 variables

// Links of capacity 1, each with kFlows flows on it alone: one part per link.
struct Links {
  MaxMinSystem s;
  std::vector<ConstraintId> links;
  std::vector<std::vector<VariableId>> flows;

  explicit Links(int n) {
    for (int l = 0; l < n; ++l) {
      links.push_back(s.add_constraint(1.0));
      flows.emplace_back();
      for (std::size_t k = 0; k < kFlows; ++k) add_flow(l);
    }
    s.solve();
  }
  void add_flow(int l) {
    flows[l].push_back(s.add_variable(kInf));
    s.expand(flows[l].back(), links[l], 1.0);
  }
  // One flow of link l ends and another starts: a change to its part.
  void churn(int l) {
    s.remove_variable(flows[l].front());
    flows[l].erase(flows[l].begin());
    add_flow(l);
    s.solve();
  }
  // Each flow gets 1 / kFlows, as a fill of everything from scratch says.
  void expect_whole_fill() {
    MaxMinSystem full(s);
    full.solve_all();
    for (const auto& on_link : flows) {
      for (VariableId v : on_link) {
        ASSERT_EQ(s.rate(v), full.rate(v));
        ASSERT_DOUBLE_EQ(s.rate(v), 1.0 / kFlows);
      }
    }
  }
};

// One part changed again and again: kept once, every later fill loaded from it (1 load, 0 keeps
// a fill: each window pays).
TEST(KeptPart, ALongLivedPartIsKeptAndLoaded) {
  Links net(1);
  const std::uint64_t before = net.s.kept_fills();
  const std::size_t changes = 3 * MeasuredSwitch::kWindow;
  for (std::size_t i = 0; i < changes; ++i) net.churn(0);
  EXPECT_EQ(net.s.kept_fills() - before, changes);
  EXPECT_TRUE(net.s.keeping().on());
  EXPECT_GE(net.s.keeping().windows_paid(), 2u);
  EXPECT_EQ(net.s.keeping().windows_unpaid(), 0u);
  net.expect_whole_fill();
}

// Three parts changed in turn: each change's part is not the kept one, so it is searched and
// kept in its place (1 keep, 0 loads a fill). The first window does not pay; for the stretch
// off that follows (one window), nothing is kept or loaded.
TEST(KeptPart, PartsReplacedAtEveryChangeStopBeingKept) {
  Links net(3);
  const std::size_t window = MeasuredSwitch::kWindow;
  for (std::size_t i = 0; i <= window; ++i) net.churn(static_cast<int>(i % 3));
  EXPECT_EQ(net.s.kept_fills(), 0u);
  EXPECT_FALSE(net.s.keeping().on());
  EXPECT_EQ(net.s.keeping().windows_unpaid(), 1u);
  EXPECT_TRUE(MaxMinSystem(net.s).kept_part_is_closed());  // none kept: trivially
  // Off: the same part changed twice in a row is searched both times.
  net.churn(0);
  net.churn(0);
  EXPECT_EQ(net.s.kept_fills(), 0u);
  net.expect_whole_fill();
}

// The same churn with parts kept from 64 variables whatever it costs (as tests of the kept part
// ask): never off, and the second change in a row to one part is loaded from it.
TEST(KeptPart, KeepingAskedForIsNeverTurnedOff) {
  Links net(3);
  net.s.keep_parts_from(64);
  for (std::size_t i = 0; i <= 2 * MeasuredSwitch::kWindow; ++i) net.churn(static_cast<int>(i % 3));
  EXPECT_EQ(net.s.kept_fills(), 0u);
  net.churn(0);
  net.churn(0);
  EXPECT_EQ(net.s.kept_fills(), 1u);
  EXPECT_EQ(net.s.keeping().windows_unpaid(), 0u);
  net.expect_whole_fill();
}

// A part that its own fill cuts in two stays kept whole ("A union of parts"): flows f on link A
// (capacity 1), flows g on links D (capacity 5) and B (capacity 10), and one flow x on A and B.
// Added together they are one part, A, B and D without slack; the fill saturates A (1/71 each),
// then D (5/70 each), and leaves B with slack, which cuts x and the f from the g. Changes on
// either side are then filled from the kept part, with the rates of whole fills.
TEST(KeptPart, APartCutByItsFillIsKeptWhole) {
  MaxMinSystem s;
  s.keep_parts_from(64);
  const ConstraintId a = s.add_constraint(1.0), b = s.add_constraint(10.0), d = s.add_constraint(5.0);
  std::vector<VariableId> f, g;
  auto add_f = [&] {
    f.push_back(s.add_variable(kInf));
    s.expand(f.back(), a, 1.0);
  };
  auto add_g = [&] {
    g.push_back(s.add_variable(kInf));
    s.expand(g.back(), d, 1.0);
    s.expand(g.back(), b, 1.0);
  };
  for (std::size_t k = 0; k < kFlows; ++k) {
    add_f();
    add_g();
  }
  const VariableId x = s.add_variable(kInf);
  s.expand(x, a, 1.0);
  s.expand(x, b, 1.0);
  s.solve();
  ASSERT_TRUE(s.saturated(a) && s.saturated(d) && !s.saturated(b));
  EXPECT_EQ(s.kept_fills(), 0u);
  auto expect_whole_fill = [&] {
    EXPECT_TRUE(MaxMinSystem(s).kept_part_is_closed());
    MaxMinSystem full(s);
    full.solve_all();
    for (const std::vector<VariableId>* flows : {&f, &g}) {
      for (VariableId v : *flows) ASSERT_EQ(s.rate(v), full.rate(v));
    }
    ASSERT_EQ(s.rate(x), full.rate(x));
  };
  // The first of `flows` ends and another starts (`add`), then a solve.
  auto churn = [&](std::vector<VariableId>& flows, const std::function<void()>& add) {
    s.remove_variable(flows.front());
    flows.erase(flows.begin());
    add();
    s.solve();
  };
  // A's side, filled from the kept part.
  churn(f, add_f);
  EXPECT_EQ(s.kept_fills(), 1u);
  expect_whole_fill();
  EXPECT_DOUBLE_EQ(s.rate(x), 1.0 / 71);
  // The same on D's side.
  churn(g, add_g);
  EXPECT_EQ(s.kept_fills(), 2u);
  expect_whole_fill();
  EXPECT_DOUBLE_EQ(s.rate(g.front()), 5.0 / 70);
}

}  // namespace
}  // namespace placesim::engine
