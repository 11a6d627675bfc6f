// Event calendar: (time, insertion sequence) order, events moved and removed by id, and time
// never going back.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>
#include <vector>

#include "sim/engine/calendar.hpp"

namespace placesim::engine {
namespace {

TEST(Calendar, OrdersByTimeThenInsertion) {
  Calendar c;
  c.push(30, 0);
  c.push(10, 1);
  c.push(30, 2);
  c.push(10, 3);
  c.push(20, 4);
  std::vector<std::uint32_t> got;
  std::vector<TimePs> times;
  while (!c.empty()) {
    const Calendar::Event e = c.pop();
    got.push_back(e.id);
    times.push_back(e.time);
  }
  EXPECT_EQ(got, (std::vector<std::uint32_t>{1, 3, 4, 0, 2}));
  EXPECT_EQ(times, (std::vector<TimePs>{10, 10, 20, 30, 30}));
  EXPECT_EQ(c.now(), 30);
}

// Peeking at the next time does not advance now(): an event can still be scheduled before it.
TEST(Calendar, PushBeforeThePeekedTop) {
  Calendar c;
  c.push(100, 0);
  EXPECT_EQ(c.top_time(), 100);
  c.push(50, 1);
  EXPECT_EQ(c.top_time(), 50);
  EXPECT_EQ(c.now(), 0);
  EXPECT_EQ(c.pop().id, 1u);
  c.push(70, 2);
  EXPECT_EQ(c.top_time(), 70);
  EXPECT_EQ(c.pop().id, 2u);
  EXPECT_EQ(c.pop().id, 0u);
  EXPECT_TRUE(c.empty());
}

// Random hold model against a sorted reference of (time, push number, id), ids reused once
// popped or removed; events are also moved (a new push number) and removed by id. A tiny
// sequence limit forces many renumberings, which must keep the order.
TEST(Calendar, MatchesSortedReferenceWithMovesAndRemovals) {
  for (std::uint64_t limit : {Calendar::kSeqLimit, std::uint64_t{300}}) {
    Calendar c(limit);
    std::mt19937_64 rng(7);
    std::vector<std::tuple<TimePs, std::uint64_t, std::uint32_t>> ref;  // (time, push no, id)
    std::vector<std::uint32_t> free_ids;
    std::uint32_t next_id = 0;
    std::uint64_t pushes = 0;
    TimePs now = 0;
    auto push = [&](TimePs t) {
      std::uint32_t id = next_id;
      if (!free_ids.empty()) {
        id = free_ids.back();
        free_ids.pop_back();
      } else {
        ++next_id;
      }
      c.push(t, id);
      ref.emplace_back(t, pushes++, id);
    };
    auto pop_and_check = [&] {
      const auto m = std::min_element(ref.begin(), ref.end());
      const Calendar::Event e = c.pop();
      ASSERT_EQ(e.time, std::get<0>(*m));
      ASSERT_EQ(e.id, std::get<2>(*m));
      ASSERT_FALSE(c.pending(e.id));
      now = e.time;
      free_ids.push_back(e.id);
      ref.erase(m);
    };
    for (int i = 0; i < 200; ++i) push(static_cast<TimePs>(rng() % 50));
    for (int i = 0; i < 20000; ++i) {
      pop_and_check();
      push(now + static_cast<TimePs>(rng() % 4));  // many equal times
      if (i % 3 == 0) push(now + static_cast<TimePs>(rng() % 50));
      if (i % 2 == 0) (void)c.top_time();  // a cached minimum that a removal may take away
      if (i % 5 == 0 && !ref.empty()) {  // move one: removed then pushed again, or move()
        auto& r = ref[rng() % ref.size()];
        const std::uint32_t id = std::get<2>(r);
        ASSERT_TRUE(c.pending(id));
        ASSERT_EQ(c.time_of(id), std::get<0>(r));
        // Near its old time (likely the same bucket, moved in place) or anywhere ahead.
        const TimePs t = i % 2 == 0 ? std::max(now, std::get<0>(r) + static_cast<TimePs>(rng() % 3) - 1)
                                    : now + static_cast<TimePs>(rng() % 30);
        r = {t, pushes++, id};
        if (i % 3 == 0) {
          c.erase(id);
          c.push(t, id);
        } else {
          c.move(t, id);
        }
      }
      if (i % 7 == 0 && !ref.empty()) {  // remove one
        const auto it = ref.begin() + static_cast<std::ptrdiff_t>(rng() % ref.size());
        c.erase(std::get<2>(*it));
        free_ids.push_back(std::get<2>(*it));
        ref.erase(it);
      }
      if (ref.size() > 250) {
        while (ref.size() > 150) pop_and_check();
      }
      ASSERT_EQ(c.size(), ref.size());
    }
  }
}

TEST(CalendarDeathTest, TimeNeverGoesBack) {
  Calendar c;
  c.push(100, 0);
  EXPECT_EQ(c.pop().time, 100);
  c.push(100, 1);  // the same instant is fine
  EXPECT_DEATH(c.push(99, 2), "time would go back");
}

}  // namespace
}  // namespace placesim::engine
