// The parts `placesim compare` is built from, on their own: speed-up statistics, Markdown
// tables, and merging several results files.
#include <gtest/gtest.h>

#include "sim/core/error.hpp"
#include "app/explore/compare_files.hpp"
#include "app/explore/speedup_stats.hpp"
#include "app/explore/text_table.hpp"

namespace placesim::explore {
namespace {

TEST(SpeedupStats, GeomeanMinMaxByHand) {
  const SpeedupStats s = speedup_stats({2.0, 8.0, 0.5});
  EXPECT_NEAR(*s.geomean, 2.0, 1e-15);  // (2 * 8 * 0.5)^(1/3) = 8^(1/3)
  EXPECT_EQ(*s.min, 0.5);
  EXPECT_EQ(*s.max, 8.0);
  EXPECT_EQ(s.points, 3);
  const SpeedupStats none = speedup_stats({});
  EXPECT_FALSE(none.geomean || none.min || none.max);
  EXPECT_EQ(none.points, 0);
}

TEST(TextTable, MarkdownEscapesPipesAndAlignsNumbersRight) {
  EXPECT_EQ(render_table({{"placer", "x"}, {"a|b", "1"}}, TableStyle::Markdown),
            "| placer | x |\n| --- | ---: |\n| a\\|b | 1 |\n");
  EXPECT_EQ(render_table({{"p", "x"}, {"ab", "1"}, {"all", "22"}}, TableStyle::Text, true),
            "p     x\n-------\nab    1\n-------\nall  22\n");
}

// A head wider than 24 characters and than its column's figures is broken after ',' and '{'
// onto lines no wider than that, the last on the head's last line; short heads stay one line.
TEST(TextTable, ALongHeadIsBrokenOverLines) {
  const std::string label = "milp-sortinghat{node_limit=10,time_limit=600,submodel_limit=600}";
  EXPECT_EQ(render_table({{"point", "heft", label}, {"a=1", "1.0 ms", "2.0 ms"}}, TableStyle::Text),
            "                  milp-sortinghat{\n"
            "                    node_limit=10,\n"
            "                   time_limit=600,\n"
            "point    heft  submodel_limit=600}\n"
            "----------------------------------\n"
            "a=1    1.0 ms               2.0 ms\n");
  // Figures as wide as the head leave it whole.
  EXPECT_EQ(render_table({{"p", "placer{k=1,j=2}"}, {"a", "1.00000000000000 ms"}}, TableStyle::Text),
            "p      placer{k=1,j=2}\n----------------------\na  1.00000000000000 ms\n");
}

RunResult run(int point, std::string placer, double makespan) {
  RunResult r;
  r.point_index = point;
  r.point = {{"a", std::to_string(point)}};
  r.placer = std::move(placer);
  r.makespan_s = makespan;
  return r;
}

// A results file of one numeric axis "a" with baseline "base".
RunSet run_set(std::string scenario, std::vector<RunResult> runs) {
  RunSet s;
  s.scenario = std::move(scenario);
  s.baseline = "base";
  s.axes = {"a"};
  s.axis_numeric = {true};
  s.runs = std::move(runs);
  return s;
}

TEST(MergeResults, PointsGainAScenarioAxisNamedByScenarioOrPath) {
  const RunSet x = run_set("x", {run(0, "base", 1), run(1, "base", 2)});
  RunSet y = run_set("y", {run(0, "base", 3), run(0, "other", 4)});
  const RunSet m = merge_results({{"x.h5", x}, {"y.h5", y}}, "");
  EXPECT_EQ(m.scenario, "x, y");
  EXPECT_EQ(m.baseline, "base");
  EXPECT_EQ(m.axes, (std::vector<std::string>{"scenario", "a"}));
  EXPECT_EQ(m.axis_numeric, (std::vector<bool>{false, true}));
  ASSERT_EQ(m.runs.size(), 4u);
  EXPECT_EQ(m.runs[2].point_index, 2);  // after x's two points
  EXPECT_EQ(m.runs[3].point_index, 2);
  EXPECT_EQ(m.runs[2].point, (std::vector<std::pair<std::string, std::string>>{{"scenario", "y"}, {"a", "0"}}));
  // Two runs of one scenario are told apart by their paths.
  const RunSet twice = merge_results({{"one.h5", x}, {"two.h5", x}}, "");
  EXPECT_EQ(twice.scenario, "one.h5, two.h5");
  // One file stays as it is.
  EXPECT_EQ(merge_results({{"x.h5", x}}, "").axes, x.axes);
  y.baseline = "other";
  EXPECT_THROW(merge_results({{"x.h5", x}, {"y.h5", y}}, ""), InputError);
  EXPECT_EQ(merge_results({{"x.h5", x}, {"y.h5", y}}, "other").baseline, "other");
}

}  // namespace
}  // namespace placesim::explore
