// Bad input to the ScheInfer solver is an InputError that says what was expected.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/error_of.hpp"
#include "random_blocks.hpp"

namespace {

using namespace scheinfer_test;
using placesim::test::error_of;

si::Hardware table_i_a() {
  si::Hardware hw;
  hw.gpu = {1.0e-7, 3.2e-12};
  hw.cpu = {7.4e-7, 1.6e-11};
  hw.c2g = {3.0e-6, 2.6e-11};
  hw.launch = 4.4e-5;
  return hw;
}

const si::Block mlp = dense(1, 4096, 11008, 2);

TEST(ScheinferErrors, RatesOutsideTheUnitIntervalOrNotSummingToOne) {
  const si::Hardware hw = table_i_a();
  for (const si::Rates& r : {si::Rates{1.5, -0.5, 0}, si::Rates{0.5, 0.2, 0.2}, si::Rates{0.5, 0.5, 1e-8},
                             si::Rates{std::nan(""), 0, 1}}) {
    const std::string expected = "expected each in [0, 1] and summing to 1 (within 1e-9)";
    EXPECT_NE(error_of([&] { si::block_time(hw, mlp, r); }).find(expected), std::string::npos);
    EXPECT_NE(error_of([&] { si::prompt_block_time(hw, mlp, r, 0, 8); }).find(expected), std::string::npos);
    EXPECT_NE(error_of([&] { si::solve_tokens(hw, mlp, r, 8); }).find(expected), std::string::npos);
  }
  // Within 1e-9 of 1 is a sum of 1.
  EXPECT_EQ(error_of([&] { si::block_time(hw, mlp, {0.5, 0.5, 5e-10}); }), "");
}

TEST(ScheinferErrors, RggOutsideTheUnitInterval) {
  EXPECT_EQ(error_of([] { si::solve_cg(table_i_a(), mlp, 1.5); }),
            "scheinfer solve_cg: r_GG is 1.5; expected it in [0, 1]");
  EXPECT_EQ(error_of([] { si::solve_cg(table_i_a(), mlp, -0.1); }),
            "scheinfer solve_cg: r_GG is -0.1; expected it in [0, 1]");
}

TEST(ScheinferErrors, NegativeBudgetOrNoRggStep) {
  const std::vector<si::Block> layers{mlp, mlp};
  EXPECT_EQ(error_of([&] { si::assign_gg(table_i_a(), layers, -1, 10); }),
            "scheinfer assign_gg: the budget is -1 bytes; expected >= 0");
  EXPECT_EQ(error_of([&] { si::assign_gg(table_i_a(), layers, 1e9, 0); }),
            "scheinfer assign_gg: n_G is 0; expected at least 1 r_GG step");
  EXPECT_EQ(error_of([&] { si::assign_gg(table_i_a(), {mlp, si::Block{}}, 1e9, 10); }),
            "scheinfer assign_gg: layer 1 has no weight bytes; expected every layer to have some");
}

TEST(ScheinferErrors, TokensOutOfRange) {
  const si::Rates r{0.5, 0.25, 0.25};
  EXPECT_EQ(error_of([&] { si::solve_tokens(table_i_a(), mlp, r, -1); }),
            "scheinfer solve_tokens: T is -1; expected at least 1 prompt token");
  EXPECT_EQ(error_of([&] { si::prompt_block_time(table_i_a(), mlp, r, 0, 0); }),
            "scheinfer prompt_block_time: T is 0; expected at least 1 prompt token");
  EXPECT_EQ(error_of([&] { si::prompt_block_time(table_i_a(), mlp, r, 9, 8); }),
            "scheinfer prompt_block_time: n_g is 9; expected it in [0, T = 8]");
  EXPECT_EQ(error_of([&] { si::prompt_block_time(table_i_a(), mlp, r, -1, 8); }),
            "scheinfer prompt_block_time: n_g is -1; expected it in [0, T = 8]");
}

// The edge-point argument needs every alpha, beta and t_Launch >= 0, and a GEMM's work and bytes.
TEST(ScheinferErrors, NegativeFitsOrGemms) {
  si::Hardware hw = table_i_a();
  hw.cpu.alpha = -1e-6;
  EXPECT_EQ(error_of([&] { si::solve_cg(hw, mlp, 0); }),
            "scheinfer solve_cg: the CPU GEMM alpha is -1e-06; expected finite and >= 0");
  hw = table_i_a();
  hw.launch = INFINITY;
  EXPECT_EQ(error_of([&] { si::block_time(hw, mlp, {}); }),
            "scheinfer block_time: t_Launch is inf; expected finite and >= 0");
  const si::Block bad{{{-1, 2}}};
  EXPECT_EQ(error_of([&] { si::block_time(table_i_a(), bad, {}); }),
            "scheinfer block_time: a GEMM's work is -1; expected finite and >= 0");
}

}  // namespace
