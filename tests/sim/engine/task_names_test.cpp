// Task names kept front-coded by their graph (TaskGraph::name, NameReader): every name comes
// back as it was given, across the entries that restart the sharing, for names that share
// nothing, all, or more than a one-byte length can say.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/sim/engine/engine_test_util.hpp"

namespace placesim::engine {
namespace {

std::vector<std::string> names_given() {
  std::vector<std::string> v;
  for (int s = 0; s < 3; ++s)
    for (int r = 0; r < 15; ++r) v.push_back("ar.s" + std::to_string(s) + ".c0." + std::to_string(r) + ">" + std::to_string(r + 1));
  v.push_back("");                      // empty
  v.push_back("ar.s2.c0.14>15");        // the one before it again, after an empty one
  v.push_back("ar.s2.c0.14>15");        // all of it shared
  v.push_back("ar");                    // a prefix of the one before
  v.push_back(std::string(300, 'x'));   // lengths past 127: two bytes each
  v.push_back(std::string(300, 'x') + "y");
  v.push_back(std::string(200, 'x'));
  v.push_back("zz");
  return v;
}

TaskGraph graph_of(const std::vector<std::string>& names) {
  TaskGraph g;
  const QueueId q = g.add_queue("q");
  for (const std::string& n : names) test::add(g, n, q, {});
  return g;
}

TEST(TaskNames, EachComesBackAsGivenByIdAndInOrder) {
  const std::vector<std::string> names = names_given();
  const TaskGraph g = graph_of(names);
  NameReader reader(g);
  for (std::size_t t = 0; t < names.size(); ++t) {
    EXPECT_EQ(g.name(static_cast<TaskId>(t)), names[t]) << t;
    EXPECT_EQ(reader.next(), names[t]) << t;
  }
  EXPECT_EQ(g.find_task("ar.s1.c0.3>4"), 15 + 3);
  EXPECT_EQ(g.find_task("ar.s2.c0.14>15"), 2 * 15 + 14);  // the first of that name
  EXPECT_EQ(g.find_task(std::string(300, 'x') + "y"), static_cast<TaskId>(names.size() - 3));
  EXPECT_EQ(g.find_task("ar.s1.c0.3>"), -1);
}

TEST(TaskNames, ACopiedOrMovedGraphKeepsThem) {
  const std::vector<std::string> names = names_given();
  TaskGraph g = graph_of(names);
  const TaskGraph copy = g;
  const TaskGraph moved = std::move(g);
  for (std::size_t t = 0; t < names.size(); ++t) {
    EXPECT_EQ(copy.name(static_cast<TaskId>(t)), names[t]);
    EXPECT_EQ(moved.name(static_cast<TaskId>(t)), names[t]);
  }
}

// A ring's transfer names share all but their members' ids with the one before: a few bytes an
// entry, not tens (engine-scale docs: about 9 bytes a task on a 1024-rank ring in all).
TEST(TaskNames, NamesAlikeTakeAFewBytesEach) {
  std::vector<std::string> names;
  for (int r = 1000; r < 1100; ++r) names.push_back("coll.s12.c0." + std::to_string(r) + ">" + std::to_string(r + 1));
  const TaskGraph g = graph_of(names);
  std::size_t given = 0;
  for (const std::string& n : names) given += n.size();
  EXPECT_LT(g.names_bytes(), given / 2);
}

}  // namespace
}  // namespace placesim::engine
