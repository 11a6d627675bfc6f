// Trace file names: one per placer of a scenario, never two alike (a second would overwrite the
// first's trace).
#include <gtest/gtest.h>
#include <set>

#include "app/explore/runner.hpp"

namespace placesim::explore {
namespace {

std::vector<scheduler::PlacerSpec> labelled(const std::vector<std::string>& labels) {
  std::vector<scheduler::PlacerSpec> out;
  for (const std::string& l : labels) out.push_back(scheduler::PlacerSpec{l, l, nullptr, {}, {}});
  return out;
}

TEST(TraceName, IsTheLabelMadeSafeForAFileName) {
  const auto placers = labelled({"heft", "round-robin{unit=op}"});
  EXPECT_EQ(trace_name(placers, 0), "heft");
  EXPECT_EQ(trace_name(placers, 1), "round-robin_unit_op_");
}

TEST(TraceName, LabelsThatMakeOneFileNameAreToldApartByTheirPlace) {
  // "{x=1}" and "{x_1}" differ as labels and are alike once '=', '{' and '}' become '_'.
  const auto placers = labelled({"a{x=1}", "heft", "a{x_1}"});
  std::set<std::string> names;
  for (size_t k = 0; k < placers.size(); ++k) names.insert(trace_name(placers, k));
  EXPECT_EQ(names, (std::set<std::string>{"a_x_1_-1", "heft", "a_x_1_-3"}));
}

}  // namespace
}  // namespace placesim::explore
