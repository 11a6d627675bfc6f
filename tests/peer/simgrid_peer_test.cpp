// placesim's engine against SimGrid 3.32 (CM02, pure max-min settings) on seeded random flow
// sets: every flow's completion instant must agree within kAgreement relative. A first set, the
// execution contract's worked example 6, checks the harness itself against the hand-worked answer.
// Each set runs twice in placesim: as it comes (the sets are too small to share rates) and with
// flows sharing a rate from the first one in flight (rate_groups.hpp, "Shared rates").
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>

#include "tests/peer/flow_sets.hpp"
#include "tests/peer/simgrid_flows.hpp"

namespace placesim::peer {
namespace {

// Both compute the same max-min rates in double; they differ in rounding only: placesim rounds
// each event instant up to the picosecond (flow_sets.cpp keeps that under 1e-6), SimGrid keeps
// a double clock (its precision cut-offs tightened, simgrid_flows.cpp).
constexpr double kAgreement = 1e-6;
constexpr std::uint64_t kRandomSets = 200;

// Example 6: L0 25 GB/s, L1 10 GB/s; A 1 GB over L0, B 1 GB over L0 then L1, both at 0.
// L1 holds B to 10 GB/s, A takes the other 15 GB/s of L0: A ends at 1/15 s, B at 0.1 s.
FlowSet example6() {
  FlowSet s;
  s.link_bw = {25e9, 10e9};
  s.flows.push_back(Flow{{Hop{0, true}}, 1'000'000'000, 0});
  s.flows.push_back(Flow{{Hop{0, true}, Hop{1, true}}, 1'000'000'000, 0});
  return s;
}

TEST(SimGridPeer, RandomFlowSetsEndWhenSimGridSays) {
  std::vector<FlowSet> sets{example6()};
  for (std::uint64_t seed = 1; seed <= kRandomSets; ++seed) sets.push_back(random_flow_set(seed));
  const auto peer = simgrid_completion_times(sets);
  if (!peer) {
    GTEST_SKIP() << "SimGrid was not found when placesim was configured (install libsimgrid-dev, "
                    "listed in scripts/packages.txt, and re-run cmake)";
  }
  ASSERT_EQ(peer->size(), sets.size());
  EXPECT_NEAR((*peer)[0][0], 1.0 / 15, 1.0 / 15 * kAgreement);
  EXPECT_NEAR((*peer)[0][1], 0.1, 0.1 * kAgreement);
  // Every flow is checked; the report names the worst and the first few that disagree.
  std::size_t flows = 0, disagree = 0;
  double worst = 0;
  std::ostringstream report;
  report.precision(12);
  engine::SimOptions apart, shared;
  apart.share_rates = false;
  shared.share_rates = true;
  for (std::size_t k = 0; k < sets.size(); ++k) {
    for (const engine::SimOptions* opts : {&apart, &shared}) {
      const std::vector<double> ours = placesim_completion_times(sets[k], *opts);
      const std::vector<double>& theirs = (*peer)[k];
      ASSERT_EQ(ours.size(), theirs.size());
      for (std::size_t i = 0; i < ours.size(); ++i, ++flows) {
        const double gap = std::abs(ours[i] - theirs[i]) / theirs[i];
        worst = std::max(worst, gap);
        if (gap <= kAgreement) continue;
        if (++disagree <= 5) {
          report << "set " << k << " flow " << i << (opts == &shared ? " (rates shared)" : "") << ": placesim "
                 << ours[i] << " s, SimGrid " << theirs[i] << " s\n";
        }
      }
    }
  }
  EXPECT_EQ(disagree, 0u) << "of " << flows << " flows; worst relative gap " << worst << "\n" << report.str();
  std::cout << "compared " << flows << " flows in " << sets.size() << " sets; worst relative gap " << worst << "\n";
}

}  // namespace
}  // namespace placesim::peer
