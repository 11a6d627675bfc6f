// The insertion search of the list schedulers (scheduler/placers/timeline.hpp) against a brute
// force (gap_scan.hpp): the busy intervals in a sorted vector, scanned gap by gap from the first
// interval that ends after `ready`, as HEFT's insertion policy reads. The index must give the same start, to
// the bit, for every query of a long random schedule (thousands of intervals: many blocks, split
// wherever the tasks land), zero-length tasks and gaps within rounding of a task's length
// included.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "gap_scan.hpp"
#include "scheduler/placers/timeline.hpp"

namespace {

using placesim::scheduler::Timeline;

// `span`: ready times are drawn from [0, span * the last finish).
void check_random_schedule(std::uint32_t seed, bool insertion, double time_unit, double span = 1.05) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(0, 1);
  Timeline line;
  std::vector<std::pair<double, double>> busy;
  for (int i = 0; i < 3000; ++i) {
    const double last = busy.empty() ? 0.0 : busy.back().second;
    // Ready times mostly inside the busy span (where gaps are), durations from zero to a few
    // units, some of them exactly a multiple of 0.1 units so that gaps made of sums of such
    // lengths fit or miss by rounding alone.
    const double ready = unit(rng) * last * span;
    const int pick = static_cast<int>(unit(rng) * 10);
    const double dur = pick == 0 ? 0.0 : pick < 4 ? 0.1 * pick * time_unit : unit(rng) * 3 * time_unit;
    const double expected = placers_test::scan_insertion(busy, ready, dur, insertion);
    const double got = line.earliest_start(ready, dur, insertion);
    ASSERT_EQ(got, expected) << "query " << i << ": ready " << ready << ", dur " << dur;
    line.add(got, got + dur);
    busy.insert(std::upper_bound(busy.begin(), busy.end(), std::make_pair(got, got + dur)), {got, got + dur});
    ASSERT_EQ(line.available(), busy.back().second);
  }
}

TEST(Timeline, InsertionMatchesAScanOfEveryGap) {
  for (std::uint32_t seed = 1; seed <= 4; ++seed) check_random_schedule(seed, true, 1.0);
}

TEST(Timeline, TimesOfMicrosecondsAndThousandsOfSeconds) {
  check_random_schedule(5, true, 1e-6);
  check_random_schedule(6, true, 1e3);
}

TEST(Timeline, TasksReadyEarlyFillTheFirstGaps) {
  // Ready times in the first tenth: most tasks go into gaps near the start, so the first blocks
  // fill and split again and again while the later ones stay.
  for (std::uint32_t seed = 8; seed <= 9; ++seed) check_random_schedule(seed, true, 1.0, 0.1);
}

TEST(Timeline, WithoutInsertionATaskStartsAfterTheLast) { check_random_schedule(7, false, 1.0); }

TEST(Timeline, AGapThatFitsOnlyByRoundingIsFoundPastManyIntervals) {
  // before + dur is start as computed, yet start - before rounds below dur: a search that skips
  // every stretch of gaps shorter than dur would pass this one over. A hundred intervals back
  // to back come first, so the gap lies far from where `ready` falls.
  const double before = 100 + 0.1, dur = 0.1, start = before + dur;
  ASSERT_LT(start - before, dur);
  Timeline line;
  for (int k = 0; k < 100; ++k) line.add(k, k + 1);
  line.add(100, before);
  line.add(start, start + 1);
  EXPECT_EQ(line.earliest_start(0, dur, true), before);
  EXPECT_EQ(line.earliest_start(0, 1.5 * dur, true), start + 1);
}

TEST(Timeline, HandWorkedGaps) {
  // Busy [1, 2], [4, 5], [5, 9]: gaps [0, 1] (from ready), [2, 4], none between 5 and 5.
  Timeline line;
  line.add(4, 5);
  line.add(1, 2);
  line.add(5, 9);
  EXPECT_EQ(line.earliest_start(0, 1, true), 0);    // fits before [1, 2]
  EXPECT_EQ(line.earliest_start(0, 1.5, true), 2);  // not before 1; [2, 4] fits
  EXPECT_EQ(line.earliest_start(2.5, 1.5, true), 2.5);
  EXPECT_EQ(line.earliest_start(2.5, 2, true), 9);  // [2.5, 4] is too short: after the last
  EXPECT_EQ(line.earliest_start(12, 2, true), 12);  // after everything
  EXPECT_EQ(line.earliest_start(0, 1, false), 9);
  EXPECT_EQ(line.available(), 9);
}

}  // namespace
