// Whether a shortcut that costs bookkeeping to save work is used, decided from what it did in
// the run so far: a measured cost model in place of a size at which it is assumed to pay. Two
// use it: shared rates (rate_groups.hpp: a start that joins a group saves a solver variable, a
// re-sorted member costs a solve again) and the kept part (max_min_kept.hpp: a fill loaded from
// it saves a search, keeping a part costs one and checks after every change).
//
// The rule. Each use of the shortcut (a start, a large part filled) is counted in windows of
// kWindow uses. While it is on, its owner notes what it gained and what it cost, in counts; the
// window pays while
//
//     gained > gain_per_cost * cost,
//
// gain_per_cost being what one unit of cost is worth in units of gain (each owner fits its own
// and says how). A window that pays keeps the shortcut on for the next; one that does not turns
// it off (off costs nothing: its owner does no bookkeeping) for a stretch of uses that grows
// kGrowth-fold with each window in a row that did not pay (from one window to 64), after which
// the next window uses it again to measure anew: loads change over a run (the mixed tree at 30k
// flows loses on sharing for its first few hundred starts, then wins 5x). Windows of 128 and
// stretches growing 4-fold keep what the windows that do not pay cost sharing on the mixed tree
// at 10k flows to 0.6% (256 and 2-fold: 2.8%; medians of 15 runs each), and change nothing
// measurable where the shortcut pays. The decision depends on counts only, so a run is the same
// on every machine and every time.
#pragma once

#include <cstddef>

namespace placesim::engine {

class MeasuredSwitch {
 public:
  static constexpr std::size_t kWindow = 128;
  static constexpr std::size_t kGrowth = 4;
  static constexpr std::size_t kLongestOff = 64 * kWindow;

  explicit MeasuredSwitch(double gain_per_cost) : gain_per_cost_(gain_per_cost) {}

  // A use of the shortcut: whether it is on for it.
  bool use();
  // What the shortcut gained and cost, counted only while it is on (what happens off, such as a
  // group formed before being re-sorted, is not the window's).
  void note_gain(std::size_t n) { gained_ += on_ ? n : 0; }
  void note_cost(std::size_t n) { cost_ += on_ ? n : 0; }
  bool on() const { return on_; }
  // Windows that paid and that did not, since the start of the run (for tests and benchmarks).
  std::size_t windows_paid() const { return paid_; }
  std::size_t windows_unpaid() const { return unpaid_; }

 private:
  void open_window();

  double gain_per_cost_;
  bool on_ = true;
  std::size_t uses_ = 0;  // in the window (on) or in the stretch off
  std::size_t gained_ = 0;
  std::size_t cost_ = 0;
  std::size_t off_len_ = 0;         // the stretch off now
  std::size_t next_off_ = kWindow;  // the next one's
  std::size_t paid_ = 0, unpaid_ = 0;
};

}  // namespace placesim::engine
