// Bad input to scheduler/placers/tensor_parallel/asymgroup_cost.hpp: an InputError naming what is wrong.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <optional>
#include <string>

#include "scheduler/placers/tensor_parallel/asymgroup_cost.hpp"
#include "sim/core/error.hpp"

namespace {

namespace ag = placesim::scheduler::asymgroup;

ag::SearchOptions options(int k, ag::Grouping groups, std::optional<int> max_moves) {
  ag::SearchOptions o;
  o.k = k;
  o.groups = std::move(groups);
  o.max_moves = max_moves;
  return o;
}

void expect_error(const std::function<void()>& f, const std::string& says) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one saying: " << says;
  } catch (const placesim::InputError& e) {
    EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
  }
}

TEST(AsymgroupErrors, BadInputIsAnInputErrorSayingWhy) {
  const ag::Capabilities c{1, 2, 2};
  expect_error([] { ag::search_groups({}, 1); }, "asymgroup: no nodes");
  expect_error([] { ag::even_groups({1, 0}, 1); }, "node 1 has capability 0; capabilities must be finite and > 0");
  expect_error([] { ag::search_groups({1, -2}, 1); }, "node 1 has capability -2");
  expect_error([] { ag::search_groups({NAN}, 1); }, "node 0 has capability nan");
  expect_error([&] { ag::even_groups(c, 0); }, "k = 0 groups for 3 nodes; k must be in 1..3");
  expect_error([&] { ag::even_groups(c, 4); }, "k = 4 groups for 3 nodes; k must be in 1..3");
  expect_error([&] { ag::search_groups(c, 1, options(4, {}, {})); }, "k = 4 groups for 3 nodes; k must be in 1..3 (0: every k)");
  expect_error([&] { ag::search_groups(c, 1, options(-1, {}, {})); }, "k = -1 groups");
  expect_error([&] { ag::asym_volume(c, {}, 1); }, "asymgroup: no groups");
  expect_error([&] { ag::asym_volume(c, {{0, 1, 2}, {}}, 1); }, "group 1 is empty");
  expect_error([&] { ag::asym_volume(c, {{0, 1}, {2, 3}}, 1); }, "group 1 lists node 3, but the nodes are 0..2");
  expect_error([&] { ag::asym_volume(c, {{0, 1}, {-1, 2}}, 1); }, "group 1 lists node -1");
  expect_error([&] { ag::asym_volume(c, {{0, 1}, {1, 2}}, 1); }, "node 1 is listed twice (groups 0 and 1)");
  expect_error([&] { ag::asym_volume(c, {{0, 0, 1, 2}}, 1); }, "node 0 is listed twice (groups 0 and 0)");
  expect_error([&] { ag::asym_volume(c, {{0}, {2}}, 1); }, "node 1 is in no group");
  expect_error([&] { ag::search_groups(c, 1, options(2, {{0}, {1, 2}}, {})); },
               "asymgroup: give k (2) or the groups, not both");
  expect_error([&] { ag::search_groups(c, 1, options(0, {{0}, {1}}, {})); }, "node 2 is in no group");
  expect_error([&] { ag::search_groups(c, 1, options(0, {}, -1)); }, "asymgroup: max_moves is -1; it must be >= 0");
  expect_error([&] { ag::search_groups(c, -1); }, "asymgroup: the volume B is -1; it must be finite and >= 0");
  expect_error([&] { ag::asym_volume(c, {{0, 1, 2}}, INFINITY); }, "the volume B is inf");

  expect_error([] { ag::symmetric_2d_volume(8, 3, 1); }, "autoddl-2d: k = 3 does not divide G = 8 GPUs");
  expect_error([] { ag::symmetric_2d_volume(8, 0, 1); }, "autoddl-2d: k = 0 does not divide G = 8 GPUs");
  expect_error([] { ag::symmetric_2d_volume(8, 16, 1); }, "autoddl-2d: k = 16 does not divide G = 8 GPUs");
  expect_error([] { ag::best_symmetric_2d(0, 1); }, "autoddl-2d: 0 GPUs; it needs at least one");
  expect_error([] { ag::best_symmetric_2d(4, -1); }, "autoddl-2d: the volume B is -1");
  expect_error([] { ag::megatron_all_reduce_volume(0, 1); }, "megatron-tp: 0 GPUs; it needs at least one");
  expect_error([] { ag::megatron_all_reduce_volume(2, NAN); }, "megatron-tp: the volume B is nan");
}

}  // namespace
