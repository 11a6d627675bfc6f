// The progress line, worked by hand: the estimate of the time left is elapsed / done x items
// left, the bar fills done / total of its cells (rounded down), the slowest work comes first.
#include <gtest/gtest.h>

#include "sim/core/activity.hpp"
#include "sim/core/progress.hpp"
#include "sim/core/units.hpp"

namespace placesim {
namespace {

TEST(Progress, LineHasCountsElapsedEstimateAndTheSlowestWork) {
  // 6 of 24 points in 12 s: 2 s a point, 18 left -> 36 s.
  const std::vector<ActivityState> running = {{"point 3 milp-moirai", "gap 12.0%", 8.14}, {"point 7 heft", "", 0.5}};
  EXPECT_EQ(progress_line("sweep points", 6, 24, 12.0, running, 0),
            "6/24 sweep points, 0:12 elapsed, ETA 0:36; slowest: point 3 milp-moirai 8.1 s (gap 12.0%)");
  // 10 cells, 6/24 of them: 2.5 -> 2.
  EXPECT_EQ(progress_line("sweep points", 6, 24, 12.0, {}, 10), "[##--------] 6/24 sweep points, 0:12 elapsed, ETA 0:36");
  // Nothing done yet: no estimate; one thing running is "running", not "slowest".
  EXPECT_EQ(progress_line("runs", 0, 4, 75.0, {{"point 0 heft", "", 75.0}}, 0),
            "0/4 runs, 1:15 elapsed; running: point 0 heft 75.0 s");
  // An hour and more; everything done: no estimate.
  EXPECT_EQ(progress_line("runs", 4, 4, 3723.0, {}, 0), "4/4 runs, 1:02:03 elapsed");
}

TEST(Progress, ActivitiesNestAndRestore) {
  EXPECT_EQ(current_activity(), "");
  {
    const Activity outer("point 1 heft");
    {
      const Activity inner("point 1 heft: warm start");
      EXPECT_EQ(current_activity(), "point 1 heft: warm start");
      note_activity("gap 5%");
      ASSERT_EQ(activities().size(), 1u);
      EXPECT_EQ(activities()[0].detail, "gap 5%");
    }
    EXPECT_EQ(current_activity(), "point 1 heft");
  }
  EXPECT_EQ(current_activity(), "");
  EXPECT_TRUE(activities().empty());
}

// Tables give durations in the unit that reads best, to a fixed number of decimals.
TEST(Units, SecondsInTheirBestUnitWithFixedDecimals) {
  EXPECT_EQ(units::format_seconds(0.1294184, 4), "129.4184 ms");
  EXPECT_EQ(units::format_seconds(2.5, 4), "2.5000 s");
  EXPECT_EQ(units::format_seconds(42e-6, 4), "42.0000 us");
  EXPECT_EQ(units::format_seconds(0.0042), "4.2 ms");  // four significant digits without decimals
}

}  // namespace
}  // namespace placesim
