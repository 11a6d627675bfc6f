// Event calendar: (time, insertion sequence) order and time never going back.
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
    got.push_back(e.payload);
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
  EXPECT_EQ(c.pop().payload, 1u);
  c.push(70, 2);
  EXPECT_EQ(c.top_time(), 70);
  EXPECT_EQ(c.pop().payload, 2u);
  EXPECT_EQ(c.pop().payload, 0u);
  EXPECT_TRUE(c.empty());
}

// Random hold model against a sorted reference of (time, push number); a tiny sequence limit
// forces many renumberings, which must keep the order.
TEST(Calendar, MatchesSortedReferenceAcrossRenumbering) {
  for (std::uint64_t limit : {Calendar::kSeqLimit, std::uint64_t{300}}) {
    Calendar c(limit);
    std::mt19937_64 rng(7);
    std::vector<std::tuple<TimePs, std::uint64_t, std::uint32_t>> ref;  // (time, push no, payload)
    std::uint64_t pushes = 0;
    TimePs now = 0;
    auto push = [&](TimePs t) {
      const auto payload = static_cast<std::uint32_t>(rng());
      c.push(t, payload);
      ref.emplace_back(t, pushes++, payload);
    };
    for (int i = 0; i < 200; ++i) push(static_cast<TimePs>(rng() % 50));
    for (int i = 0; i < 20000; ++i) {
      const auto it = std::min_element(ref.begin(), ref.end());
      const Calendar::Event e = c.pop();
      ASSERT_EQ(e.time, std::get<0>(*it));
      ASSERT_EQ(e.payload, std::get<2>(*it));
      now = e.time;
      ref.erase(it);
      push(now + static_cast<TimePs>(rng() % 4));  // many equal times
      if (i % 3 == 0) push(now + static_cast<TimePs>(rng() % 50));
      if (ref.size() > 250) {
        while (ref.size() > 150) {
          const auto m = std::min_element(ref.begin(), ref.end());
          const Calendar::Event popped = c.pop();
          ASSERT_EQ(popped.payload, std::get<2>(*m));
          now = popped.time;
          ref.erase(m);
        }
      }
    }
    EXPECT_EQ(c.size(), ref.size());
  }
}

// compact() drops exactly the events its predicate rejects and keeps the others in (time,
// insertion) order, also between a top_time() and the next pop, against a sorted reference.
TEST(Calendar, CompactKeepsTheRestInOrder) {
  Calendar c;
  std::mt19937_64 rng(11);
  std::vector<std::tuple<TimePs, std::uint64_t, std::uint32_t>> ref;
  std::uint64_t pushes = 0;
  TimePs now = 0;
  for (int round = 0; round < 200; ++round) {
    for (int i = 0; i < 50; ++i) {
      const TimePs t = now + static_cast<TimePs>(rng() % 40);
      const auto payload = static_cast<std::uint32_t>(rng());
      c.push(t, payload);
      ref.emplace_back(t, pushes++, payload);
    }
    if (round % 2) (void)c.top_time();
    c.compact([](Calendar::Event e) { return e.payload % 3 != 0; });
    std::erase_if(ref, [](const auto& r) { return std::get<2>(r) % 3 == 0; });
    ASSERT_EQ(c.size(), ref.size());
    std::sort(ref.begin(), ref.end());
    for (int i = 0; i < 30 && !ref.empty(); ++i) {
      const Calendar::Event e = c.pop();
      ASSERT_EQ(e.time, std::get<0>(ref.front()));
      ASSERT_EQ(e.payload, std::get<2>(ref.front()));
      now = e.time;
      ref.erase(ref.begin());
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
