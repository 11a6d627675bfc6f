// --dump-model: LP and MPS files that CBC reads back into the same model, with the same optimum.
#include <gtest/gtest.h>

#include <filesystem>
#include <vector>

#include "scheduler/milp/milp.hpp"
#include "sim/core/error.hpp"

namespace placesim::scheduler::milp {
namespace {

// Every kind of variable and row, with a fractional coefficient and an infinite bound.
// min -x - 2y - 3z + w  s.t.  x + y + z <= 2.5,  1 <= y - w <= 3,  x + z == 1,
// x continuous in [0, 1], y integer in [0, 4], z binary, w continuous >= 0 (no upper bound).
// y - w <= 3 and x + y + z <= 2.5 with x + z = 1 give y <= 1.5, so y = 1 (integer); then
// y - w >= 1 gives w = 0, and z = 1, x = 0 beats x = 1, z = 0 (cost -3 < -1).
// Optimum: x = 0, y = 1, z = 1, w = 0, objective -5.
Model mixed_model() {
  Model m;
  const VarId x = m.add_continuous("x", 0.0, 1.0, -1.0);
  const VarId y = m.add_integer("y", 0.0, 4.0, -2.0);
  const VarId z = m.add_binary("z", -3.0);
  const VarId w = m.add_continuous("w", 0.0, kInf, 1.0);
  m.add_le("cap", {{x, 1.0}, {y, 1.0}, {z, 1.0}}, 2.5);
  m.add_row("range", {{y, 1.0}, {w, -1.0}}, 1.0, 3.0);
  m.add_eq("pick", {{x, 1.0}, {z, 1.0}}, 1.0);
  return m;
}

class MilpDump : public ::testing::TestWithParam<ModelFormat> {};

TEST_P(MilpDump, WritesAFileCbcReadsBack) {
  const Model m = mixed_model();
  const Result direct = solve(m);
  ASSERT_EQ(direct.status, Status::Optimal) << direct.message;
  EXPECT_NEAR(direct.objective, -5.0, 1e-9);

  const auto path = std::filesystem::temp_directory_path() /
                    (GetParam() == ModelFormat::Lp ? "placesim_milp_dump.lp" : "placesim_milp_dump.mps");
  write_model(m, path, GetParam());
  const Model back = read_model(path);
  std::filesystem::remove(path);

  ASSERT_EQ(back.num_vars(), m.num_vars());
  for (const Variable& v : m.vars()) {
    const auto id = back.find_var(v.name);
    ASSERT_TRUE(id.has_value()) << v.name;
    EXPECT_EQ(back.var(*id).is_integer(), v.is_integer()) << v.name;
    EXPECT_EQ(back.var(*id).lower, v.lower) << v.name;
    EXPECT_EQ(back.var(*id).upper, v.upper) << v.name;
    EXPECT_EQ(back.var(*id).objective, v.objective) << v.name;
  }
  // MPS keeps the range row; the LP format has none and writes "range" (<= 3) and
  // "range_low" (>= 1).
  std::vector<Row> expected = m.rows();
  if (GetParam() == ModelFormat::Lp) {
    expected[1].lower = -kInf;
    expected.push_back(Row{"range_low", m.rows()[1].terms, 1.0, kInf});
  }
  ASSERT_EQ(back.num_rows(), static_cast<int>(expected.size()));
  for (const Row& r : expected) {
    const auto id = back.find_row(r.name);
    ASSERT_TRUE(id.has_value()) << r.name;
    EXPECT_EQ(back.row(*id).lower, r.lower) << r.name;
    EXPECT_EQ(back.row(*id).upper, r.upper) << r.name;
    ASSERT_EQ(back.row(*id).terms.size(), r.terms.size()) << r.name;
    for (std::size_t t = 0; t < r.terms.size(); ++t) {
      EXPECT_EQ(back.var(back.row(*id).terms[t].var).name, m.var(r.terms[t].var).name) << r.name;
      EXPECT_EQ(back.row(*id).terms[t].coef, r.terms[t].coef) << r.name;
    }
  }
  const Result reread = solve(back);
  ASSERT_EQ(reread.status, Status::Optimal) << reread.message;
  EXPECT_NEAR(reread.objective, direct.objective, 1e-9);
}

INSTANTIATE_TEST_SUITE_P(Formats, MilpDump, ::testing::Values(ModelFormat::Lp, ModelFormat::Mps));

TEST(MilpDumpErrors, UnwritableAndUnknownFilesAreInputErrors) {
  EXPECT_THROW(write_model(mixed_model(), "/nonexistent-dir/m.lp", ModelFormat::Lp), InputError);
  EXPECT_THROW(read_model("/nonexistent-dir/m.mps"), InputError);
  EXPECT_THROW(read_model("model.txt"), InputError);
}

}  // namespace
}  // namespace placesim::scheduler::milp
