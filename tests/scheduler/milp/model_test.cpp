// Model builder: repeated terms merge, zero terms drop, names are looked up, bounds are kept.
#include <gtest/gtest.h>

#include "scheduler/milp/model.hpp"

namespace placesim::scheduler::milp {
namespace {

TEST(MilpModel, MergesRepeatedTermsAndDropsZeros) {
  Model m;
  const VarId x = m.add_continuous("x", 0.0, 10.0);
  const VarId y = m.add_integer("y", -3.0, 3.0, 2.0);
  const VarId z = m.add_binary("z");
  // 1x + 2y - 1x + 0z + 0.5y = 2.5y
  const RowId r = m.add_le("r", {{x, 1.0}, {y, 2.0}, {x, -1.0}, {z, 0.0}, {y, 0.5}}, 4.0);
  ASSERT_EQ(m.row(r).terms.size(), 1u);
  EXPECT_EQ(m.row(r).terms[0].var, y);
  EXPECT_DOUBLE_EQ(m.row(r).terms[0].coef, 2.5);
  EXPECT_EQ(m.row(r).lower, -kInf);
  EXPECT_EQ(m.row(r).upper, 4.0);
  EXPECT_EQ(m.num_integer(), 2);
  EXPECT_EQ(m.var(z).upper, 1.0);
  EXPECT_EQ(m.find_var("y"), y);
  EXPECT_EQ(m.find_row("r"), r);
  EXPECT_FALSE(m.find_var("w").has_value());
}

TEST(MilpModel, ObjectiveValueSumsCoefficientTimesValue) {
  Model m;
  const VarId x = m.add_continuous("x", 0.0, kInf, 3.0);
  m.add_continuous("y", 0.0, kInf, -1.0);
  m.set_objective(x, 4.0);
  EXPECT_DOUBLE_EQ(m.objective_value({2.0, 5.0}), 4.0 * 2.0 - 5.0);
}

// x in [0, 2] integer, y >= 0; row x + y <= 3 (bound 3).
//   (1, 1): feasible -> 0.   (1.25, 1): 0.25 off an integer.   (2, 7): row over by 6, / 3 = 2.
TEST(MilpModel, MaxViolationNamesTheWorstOffender) {
  Model m;
  const VarId x = m.add_integer("x", 0.0, 2.0);
  const VarId y = m.add_continuous("y", 0.0, kInf);
  m.add_le("row", {{x, 1.0}, {y, 1.0}}, 3.0);
  EXPECT_EQ(m.max_violation({1.0, 1.0}).amount, 0.0);
  EXPECT_EQ(m.max_violation({1.0, 1.0}).where, "");
  EXPECT_DOUBLE_EQ(m.max_violation({1.25, 1.0}).amount, 0.25);
  EXPECT_EQ(m.max_violation({1.25, 1.0}).where, "x");
  EXPECT_DOUBLE_EQ(m.max_violation({2.0, 7.0}).amount, 2.0);
  EXPECT_EQ(m.max_violation({2.0, 7.0}).where, "row");
}

TEST(MilpModelDeathTest, RejectsNamesAnLpFileCannotHold) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  Model m;
  m.add_continuous("x_1.a(2)", 0.0, 1.0);
  EXPECT_DEATH(m.add_continuous("x_1.a(2)", 0.0, 1.0), "defined twice");
  EXPECT_DEATH(m.add_continuous("has space", 0.0, 1.0), "not a valid LP name");
  EXPECT_DEATH(m.add_continuous("1x", 0.0, 1.0), "not a valid LP name");
  EXPECT_DEATH(m.add_continuous("x[1,2]", 0.0, 1.0), "not a valid LP name");
  EXPECT_DEATH(m.add_continuous("End", 0.0, 1.0), "not a valid LP name");
  EXPECT_DEATH(m.add_continuous("y", 2.0, 1.0), "bounds");
}

}  // namespace
}  // namespace placesim::scheduler::milp
