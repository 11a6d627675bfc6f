// Lists of uses that many tasks hold alike, kept once per graph (sim/engine/shared_uses.hpp),
// and the borrowed lists that read them (ShortList::borrow): a task reads its graph's copy, a
// change to it never reaches that copy, and a graph copied, moved or assigned runs as before.
#include <gtest/gtest.h>

#include <initializer_list>
#include <utility>
#include <vector>

#include "sim/engine/executor.hpp"
#include "tests/sim/engine/engine_test_util.hpp"

namespace placesim::engine {
namespace {

using test::add;
using test::kS;

TEST(ShortListBorrowed, ReadsTheBlockAndCopiesItOnTheFirstChange) {
  const std::vector<Use> block{{0, 1.0}, {1, 2.0}, {2, 3.0}};
  UseList l = UseList::borrow(block.data(), 3);
  const UseList& read = l;
  EXPECT_TRUE(l.borrowed());
  EXPECT_EQ(read.data(), block.data());
  ASSERT_EQ(l.size(), 3u);
  EXPECT_EQ(read[2].amount, 3.0);

  UseList copy = l;  // a copy owns its elements
  EXPECT_FALSE(copy.borrowed());
  EXPECT_NE(static_cast<const UseList&>(copy).data(), block.data());

  UseList moved = std::move(copy);
  l.push_back({3, 4.0});  // copies out, then appends
  EXPECT_FALSE(l.borrowed());
  ASSERT_EQ(l.size(), 4u);
  EXPECT_EQ(read[0].amount, 1.0);
  EXPECT_EQ(read[3].amount, 4.0);
  UseList other = UseList::borrow(block.data(), 3);
  other[0].amount = 9.0;  // non-const access copies out first
  EXPECT_EQ(block[0].amount, 1.0);
  EXPECT_EQ(static_cast<const UseList&>(other)[0].amount, 9.0);
  other.erase(other.begin(), other.begin() + 1);
  EXPECT_EQ(other.size(), 2u);
  EXPECT_EQ(block.size(), 3u);
  EXPECT_EQ(moved.size(), 3u);
  // At most the inline count is copied inline: nothing borrowed.
  const UseList one = UseList::borrow(block.data(), 1);
  EXPECT_FALSE(one.borrowed());
  EXPECT_EQ(one[0].resource, 0);
}

// Three transfers of 1 GB over one three-link route, one of 2 GB over it, one of 1 GB over its
// last link alone, each on a queue of its own; every link 1 GB/s.
struct Graph {
  TaskGraph g;
  std::vector<TaskId> t;
};

Graph route_graph() {
  Graph x;
  for (int l = 0; l < 3; ++l) x.g.add_resource(test::numbered("l", l), 1e9);
  const UseList route{{0, 1e9}, {1, 1e9}, {2, 1e9}};
  for (int i = 0; i < 3; ++i) {
    const QueueId q = x.g.add_queue(test::numbered("q", i));
    x.t.push_back(add(x.g, test::numbered("same", i), q, route, {}, 0, TaskKind::Transfer));
  }
  x.t.push_back(add(x.g, "other-bytes", x.g.add_queue("other"), UseList{{0, 2e9}, {1, 2e9}, {2, 2e9}}, {}, 0,
                    TaskKind::Transfer));
  x.t.push_back(add(x.g, "one-link", x.g.add_queue("one"), UseList{{2, 1e9}}, {}, 0, TaskKind::Transfer));
  return x;
}

const Use* first_use(const TaskGraph& g, TaskId t) { return g.tasks[t].uses.data(); }

TEST(SharedUses, TasksOfOneListReadOneCopy) {
  const Graph x = route_graph();
  const TaskGraph& g = x.g;
  EXPECT_TRUE(g.tasks[x.t[0]].uses.borrowed());
  EXPECT_EQ(first_use(g, x.t[0]), first_use(g, x.t[1]));
  EXPECT_EQ(first_use(g, x.t[0]), first_use(g, x.t[2]));
  EXPECT_NE(first_use(g, x.t[0]), first_use(g, x.t[3]));
  EXPECT_FALSE(g.tasks[x.t[4]].uses.borrowed());  // held inline
  EXPECT_EQ(g.tasks[x.t[3]].uses[1].amount, 2e9);
}

TEST(SharedUses, CopiedMovedAndAssignedGraphsRunAsTheOriginal) {
  Graph x = route_graph();
  // All five cross l2 at once: 1/5 GB/s each (l0 and l1 carry four, 0.8 GB/s). The four of
  // 1 GB end at 5 s; "other-bytes" has 1 GB left, alone at 1 GB/s: ends at 6 s.
  const Trace want = simulate(x.g);
  for (int i : {0, 1, 2, 4}) EXPECT_EQ(want.tasks[x.t[i]].end, 5 * kS);
  EXPECT_EQ(want.tasks[x.t[3]].end, 6 * kS);

  const TaskGraph copied = x.g;  // tasks own copies
  EXPECT_FALSE(copied.tasks[x.t[0]].uses.borrowed());
  const Use* before = first_use(x.g, x.t[0]);
  TaskGraph moved = std::move(x.g);  // the blocks move without moving
  EXPECT_EQ(first_use(moved, x.t[0]), before);
  TaskGraph assigned = route_graph().g;
  assigned = moved;
  Graph y = route_graph();
  TaskGraph move_assigned;
  move_assigned = std::move(y.g);
  for (const TaskGraph* g : std::initializer_list<const TaskGraph*>{&copied, &moved, &assigned, &move_assigned}) {
    const Trace got = simulate(*g);
    for (TaskId t : x.t) EXPECT_EQ(got.tasks[t].end, want.tasks[t].end);
  }
  // A task moved from one graph into another gets a copy of the second's own.
  TaskGraph into;
  for (int l = 0; l < 3; ++l) into.add_resource(test::numbered("l", l), 1e9);
  Task taken = std::move(moved.tasks[x.t[0]]);
  taken.queue = into.add_queue("q");
  const TaskId id = into.add_task("taken", std::move(taken));
  moved = TaskGraph{};
  EXPECT_EQ(to_seconds(simulate(into).tasks[id].end), 1.0);
}

}  // namespace
}  // namespace placesim::engine
