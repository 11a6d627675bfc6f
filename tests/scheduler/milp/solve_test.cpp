// Small LPs and MIPs whose optima are worked out by hand below, and the statuses of infeasible
// and unbounded models.
#include <gtest/gtest.h>

#include "scheduler/milp/milp.hpp"

namespace placesim::scheduler::milp {
namespace {

constexpr double kTol = 1e-6;

// max 3x + 5y  s.t.  x <= 4,  2y <= 12,  3x + 2y <= 18,  x, y >= 0   (minimise the negation).
// The feasible polygon has vertices (0,0) (4,0) (4,3) (2,6) (0,6) with 3x + 5y = 0, 12, 27, 36,
// 30: the optimum is (2, 6), objective -36. At (2, 6) the rows 2y <= 12 and 3x + 2y <= 18 are
// tight, x <= 4 is not.
TEST(MilpSolve, LpSolvedByHand) {
  Model m;
  const VarId x = m.add_continuous("x", 0.0, kInf, -3.0);
  const VarId y = m.add_continuous("y", 0.0, kInf, -5.0);
  m.add_le("plant1", {{x, 1.0}}, 4.0);
  m.add_le("plant2", {{y, 2.0}}, 12.0);
  m.add_le("plant3", {{x, 3.0}, {y, 2.0}}, 18.0);
  const Result r = solve(m);
  ASSERT_EQ(r.status, Status::Optimal) << r.message;
  EXPECT_NEAR(r.objective, -36.0, kTol);
  EXPECT_NEAR(r.value(x), 2.0, kTol);
  EXPECT_NEAR(r.value(y), 6.0, kTol);
  EXPECT_NEAR(r.best_bound, -36.0, kTol);
  EXPECT_EQ(r.gap, 0.0);
}

// Equality and range rows: x + y == 10 and 2 <= x - y <= 4. With d = x - y, x = (10 + d) / 2 and
// y = (10 - d) / 2, so
//   min 2x + 3y = 25 - d/2  takes d = 4 (the range's upper end): x = 7, y = 3, objective 23;
//   min 3x + 2y = 25 + d/2  takes d = 2 (the range's lower end): x = 6, y = 4, objective 26.
TEST(MilpSolve, EqualityAndRangeRows) {
  for (const bool upper_end : {true, false}) {
    Model m;
    const VarId x = m.add_continuous("x", 0.0, kInf, upper_end ? 2.0 : 3.0);
    const VarId y = m.add_continuous("y", 0.0, kInf, upper_end ? 3.0 : 2.0);
    m.add_eq("sum", {{x, 1.0}, {y, 1.0}}, 10.0);
    m.add_row("diff", {{x, 1.0}, {y, -1.0}}, 2.0, 4.0);
    const Result r = solve(m);
    ASSERT_EQ(r.status, Status::Optimal) << r.message;
    EXPECT_NEAR(r.objective, upper_end ? 23.0 : 26.0, kTol);
    EXPECT_NEAR(r.value(x), upper_end ? 7.0 : 6.0, kTol);
    EXPECT_NEAR(r.value(y), upper_end ? 3.0 : 4.0, kTol);
  }
}

// max 5x + 4y  s.t.  6x + 4y <= 24,  x + 2y <= 6,  x, y >= 0 integer.
// The LP optimum is (3, 1.5) with 21. Integer points on the boundary: (4, 0) -> 20 (6*4 = 24),
// (3, 1) -> 19, (2, 2) -> 18, (0, 3) -> 12; (4, 1) and (3, 2) break 6x + 4y <= 24. So the MIP
// optimum is (4, 0) with 20, below the LP bound of 21: branching (or cuts) must close the gap.
TEST(MilpSolve, IntegerProgramSolvedByHand) {
  Model m;
  const VarId x = m.add_integer("x", 0.0, kInf, -5.0);
  const VarId y = m.add_integer("y", 0.0, kInf, -4.0);
  m.add_le("c1", {{x, 6.0}, {y, 4.0}}, 24.0);
  m.add_le("c2", {{x, 1.0}, {y, 2.0}}, 6.0);
  const Result r = solve(m);
  ASSERT_EQ(r.status, Status::Optimal) << r.message;
  EXPECT_NEAR(r.objective, -20.0, kTol);
  EXPECT_NEAR(r.value(x), 4.0, kTol);
  EXPECT_NEAR(r.value(y), 0.0, kTol);
}

// x + y >= 5 with x, y in [0, 2]: at most 4, so no point is feasible.
TEST(MilpSolve, InfeasibleLp) {
  Model m;
  const VarId x = m.add_continuous("x", 0.0, 2.0, 1.0);
  const VarId y = m.add_continuous("y", 0.0, 2.0, 1.0);
  m.add_ge("need", {{x, 1.0}, {y, 1.0}}, 5.0);
  const Result r = solve(m);
  EXPECT_EQ(r.status, Status::Infeasible) << r.message;
  EXPECT_FALSE(r.has_solution());
}

// 2x + 4y == 1 with x, y integer: the left side is even, so no integer point exists, although
// the LP relaxation (x = 0.5) is feasible.
TEST(MilpSolve, IntegerInfeasibleButLpFeasible) {
  Model m;
  const VarId x = m.add_integer("x", -10.0, 10.0, 1.0);
  const VarId y = m.add_integer("y", -10.0, 10.0, 1.0);
  m.add_eq("odd", {{x, 2.0}, {y, 4.0}}, 1.0);
  const Result r = solve(m);
  EXPECT_EQ(r.status, Status::Infeasible) << r.message;
  EXPECT_FALSE(r.has_solution());
}

// min -x - y with x - y <= 1, x, y >= 0: (t + 1, t) is feasible for every t >= 0 and its
// objective -2t - 1 decreases without bound. The same with y integer.
TEST(MilpSolve, Unbounded) {
  for (const bool integer : {false, true}) {
    Model m;
    const VarId x = m.add_continuous("x", 0.0, kInf, -1.0);
    const VarId y = integer ? m.add_integer("y", 0.0, kInf, -1.0) : m.add_continuous("y", 0.0, kInf, -1.0);
    m.add_le("c", {{x, 1.0}, {y, -1.0}}, 1.0);
    const Result r = solve(m);
    EXPECT_EQ(r.status, Status::Unbounded) << "integer=" << integer << " " << r.message;
  }
}

// A model without rows: every variable sits at the bound its cost prefers.
TEST(MilpSolve, NoRows) {
  Model m;
  const VarId x = m.add_integer("x", -2.0, 5.0, 1.0);
  const VarId y = m.add_continuous("y", 0.0, 1.5, -2.0);
  const Result r = solve(m);
  ASSERT_EQ(r.status, Status::Optimal) << r.message;
  EXPECT_NEAR(r.value(x), -2.0, kTol);
  EXPECT_NEAR(r.value(y), 1.5, kTol);
  EXPECT_NEAR(r.objective, -5.0, kTol);
}

}  // namespace
}  // namespace placesim::scheduler::milp
