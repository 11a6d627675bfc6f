// What each thread is working on ("point 3 milp-moirai"), for the progress display, which names
// the slowest work under way, and for log lines from deep inside that work (a MILP solver's log
// under -v), which say whose they are. A thread's label is its own (thread-local), so reading it
// never waits; the process-wide list is only for the display.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace placesim {

// While alive, the calling thread works on `label`; nested scopes replace it and restore it.
class Activity {
 public:
  explicit Activity(std::string label);
  ~Activity();
  Activity(const Activity&) = delete;
  Activity& operator=(const Activity&) = delete;

 private:
  std::string outer_;
  std::chrono::steady_clock::time_point outer_since_;
};

// This thread's label, "" when none (safe in a forked child: no lock).
const std::string& current_activity();
// A detail of this thread's work, shown beside its label (a MILP's incumbent, bound and gap);
// cleared when the activity ends.
void note_activity(const std::string& detail);

struct ActivityState {
  std::string label, detail;
  double seconds = 0;  // since it started
};
// Every thread's activity under way, the longest-running first.
std::vector<ActivityState> activities();

}  // namespace placesim
