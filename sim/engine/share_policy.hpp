// Whether starting activities share rates (rate_groups.hpp, "Shared rates"), decided from what
// sharing did in the run so far: a measured cost model in place of a count of activities.
//
// What sharing gains and costs. A start that joins a group saves the solver a variable for as
// long as the member lives; a member the solve shows held by a constraint outside its group's
// key is re-sorted: taken apart, keyed again, and solved again in another round of the instant.
// Both scale with the activities in flight (a solve's part), so what decides is their ratio:
// sharing pays while
//
//     joins > kResortPerJoin * members re-sorted
//
// over a window of kWindow starts. kResortPerJoin is fitted to bench_flows'
// flows_sharing_on_off, the engine with shared rates always on against never, on the two sets
// where they differ most in opposite directions (docs/engine-scale.md, "The cost model"): a
// re-sorted member costs about what 1.9 joins save. Per window of 256 starts the sets sharing
// loses on (the mixed tree at 10k flows, the uniform one at 10k) show joins / re-sorted 0.9-1.3,
// the ones it wins on (both trees at 30k) 1.8 to over 100.
//
// While sharing pays, every start is keyed. A window where it did not turns it off; starts then
// go alone (no key is built: off costs nothing) for a stretch of starts that grows kGrowth-fold
// with each window in a row that did not pay (from one window to 64), after which the next
// window keys starts again to measure anew: loads change over a run (the mixed tree at 30k flows
// loses for its first few hundred starts, then wins 5x). Windows of 128 starts and stretches
// growing 4-fold keep what the windows that do not pay cost on the mixed tree at 10k flows to
// 0.6% (256 and 2-fold: 2.8%; medians of 15 runs each), and change nothing measurable where
// sharing pays. The decision depends on counts only, so a run is the same on every machine and
// every time.
#pragma once

#include <cstddef>

namespace placesim::engine {

class SharePolicy {
 public:
  static constexpr std::size_t kWindow = 128;
  static constexpr std::size_t kGrowth = 4;
  static constexpr double kResortPerJoin = 1.9;
  static constexpr std::size_t kLongestOff = 64 * kWindow;

  // A start (with SimOptions::share_rates): whether it is keyed, so that it may join.
  bool share_start();
  // A start keyed by share_start() joined a group; a solve re-sorted `members` members.
  void note_join() { joins_ += on_; }
  void note_resorted(std::size_t members) { resorted_ += on_ ? members : 0; }
  // Whether sharing is on now: members a re-sort takes apart may join again only then.
  bool on() const { return on_; }
  // Windows that paid and that did not, since the start of the run (for tests and benchmarks).
  std::size_t windows_paid() const { return paid_; }
  std::size_t windows_unpaid() const { return unpaid_; }

 private:
  void open_window();

  bool on_ = true;
  std::size_t starts_ = 0;  // in the window (on) or in the stretch off
  std::size_t joins_ = 0;
  std::size_t resorted_ = 0;
  std::size_t off_len_ = 0;         // the stretch off now
  std::size_t next_off_ = kWindow;  // the next one's
  std::size_t paid_ = 0, unpaid_ = 0;
};

}  // namespace placesim::engine
