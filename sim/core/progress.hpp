// A long command's progress on stderr: items done of a total, time elapsed, an estimate of the
// time left (elapsed / done x items left), and the slowest work under way (activity.hpp) with
// its detail. On a terminal it is one line redrawn in place, with a bar; otherwise, and under
// -v (whose log lines would tear a bar), a plain line every 10 s. Work that ends before the
// first line is due prints nothing, so short runs and tests see no progress at all.
#pragma once

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "sim/core/activity.hpp"

namespace placesim {

class Progress {
 public:
  // unit: "sweep points"; total 0: not known ahead (no bar, no estimate).
  Progress(std::string unit, int total);
  ~Progress();  // stops the display; a last line when any was shown
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  // Items finished so far; `total` >= 0 replaces the total (a resumed sweep counts only the
  // points it runs, known once its results file is read).
  void done(int items, int total = -1);

 private:
  void show(bool last);
  void loop();

  std::string unit_;
  int total_ = 0, done_ = 0;
  bool terminal_ = false, shown_ = false, stop_ = false;
  double started_ = 0;  // steady clock, seconds
  std::mutex mu_;
  std::condition_variable wake_;
  std::thread thread_;
};

// One progress line (without the bar): "7/24 sweep points, 0:12 elapsed, ETA 0:29; slowest:
// point 3 milp-moirai 8.1 s (gap 12%)". With `bar_width` > 0 and a total, a bar of that many
// cells leads it.
std::string progress_line(const std::string& unit, int done, int total, double elapsed_s,
                          const std::vector<ActivityState>& running, int bar_width);

}  // namespace placesim
