// The measured switch (measured_switch.hpp), with sharing's weight (a re-sorted member is worth
// 1.9 joins): windows of kWindow uses judged by what they gained against what they cost,
// stretches off that grow kGrowth-fold from one window to kLongestOff, a window that pays
// resetting them. The expected sequences are counted by hand from the header's rule.
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "sim/engine/measured_switch.hpp"

namespace placesim::engine {
namespace {

constexpr std::size_t W = MeasuredSwitch::kWindow;

// Runs `starts` starts; in each keyed one, `joins_per` joins and `resorted_per` re-sorted members
// are noted. Returns how many were keyed.
std::size_t run(MeasuredSwitch& p, std::size_t starts, std::size_t joins_per, std::size_t resorted_per) {
  std::size_t keyed = 0;
  for (std::size_t i = 0; i < starts; ++i) {
    if (!p.use()) continue;
    ++keyed;
    for (std::size_t j = 0; j < joins_per; ++j) p.note_gain(1);
    p.note_cost(resorted_per);
  }
  return keyed;
}

TEST(MeasuredSwitch, WindowsThatPayKeepEveryStartKeyed) {
  MeasuredSwitch p{1.9};
  // 2 joins per re-sorted member: 2 > 1.9.
  EXPECT_EQ(run(p, 10 * W + 1, 2, 1), 10 * W + 1);
  EXPECT_TRUE(p.on());
  EXPECT_EQ(p.windows_paid(), 10u);
  EXPECT_EQ(p.windows_unpaid(), 0u);
}

TEST(MeasuredSwitch, AWindowWithoutJoinsTurnsSharingOff) {
  MeasuredSwitch p{1.9};
  EXPECT_EQ(run(p, W, 0, 0), W);
  EXPECT_TRUE(p.on());
  EXPECT_FALSE(p.use());  // the window is judged: 0 joins do not pay
  EXPECT_FALSE(p.on());
  EXPECT_EQ(p.windows_unpaid(), 1u);
}

// Windows that never pay (as many joins as re-sorted members, 1 < 1.9): the k-th stretch off is
// W * 4^(k-1) starts, up to kLongestOff = 64 W, each followed by a window of W keyed starts.
TEST(MeasuredSwitch, StretchesOffGrowUpToTheLongest) {
  MeasuredSwitch p{1.9};
  std::vector<bool> expected;
  for (std::size_t i = 0; i < W; ++i) expected.push_back(true);
  static_assert(MeasuredSwitch::kGrowth == 4 && MeasuredSwitch::kLongestOff == 64 * W);
  for (std::size_t off = W, k = 0; k < 6; ++k, off = std::min(4 * off, 64 * W)) {
    for (std::size_t i = 0; i < off; ++i) expected.push_back(false);
    for (std::size_t i = 0; i < W; ++i) expected.push_back(true);
  }
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const bool keyed = p.use();
    ASSERT_EQ(keyed, expected[i]) << "start " << i;
    if (keyed) {
      p.note_gain(1);
      p.note_cost(1);
    }
  }
  EXPECT_EQ(p.windows_unpaid(), 6u);
  EXPECT_EQ(p.windows_paid(), 0u);
}

// Off, re-sorts and joins (of groups formed before) are not the window's: a window opened after
// a stretch off counts only its own.
TEST(MeasuredSwitch, WhatHappensOffIsNotCounted) {
  MeasuredSwitch p{1.9};
  run(p, W, 0, 0);
  ASSERT_FALSE(p.use());
  for (int i = 0; i < 1000; ++i) p.note_cost(5);  // residual groups re-sorted while off
  run(p, W - 1, 0, 0);                                // the rest of the stretch off
  EXPECT_EQ(run(p, W, 1, 0), W);                      // a window: W joins, 0 re-sorted
  EXPECT_TRUE(p.use());                       // it paid
  EXPECT_EQ(p.windows_paid(), 1u);
}

// A window that pays after stretches off resets the next stretch to one window.
TEST(MeasuredSwitch, AWindowThatPaysResetsTheStretch) {
  MeasuredSwitch p{1.9};
  run(p, W + 1, 0, 0);            // window 1 unpaid; off W (the judged start is the first)
  run(p, W - 1 + W + 1, 0, 0);    // the stretch, window 2 unpaid; off 4 W
  run(p, 4 * W - 1, 0, 0);        // that stretch
  EXPECT_EQ(run(p, W, 3, 1), W);  // window 3 pays (3 > 1.9)
  EXPECT_TRUE(p.use());
  EXPECT_EQ(run(p, W - 1, 0, 0), W - 1);  // window 4, unpaid
  EXPECT_FALSE(p.use());
  // Off for one window again, not 16 W.
  EXPECT_EQ(run(p, W - 1, 0, 0), 0u);
  EXPECT_TRUE(p.use());
}

}  // namespace
}  // namespace placesim::engine
