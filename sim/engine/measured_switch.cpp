#include "sim/engine/measured_switch.hpp"

#include <algorithm>

namespace placesim::engine {

// A window is kWindow uses on; the use after it is judged by the window, as is the first use
// after a stretch off (which opens a window).
bool MeasuredSwitch::use() {
  ++uses_;
  if (!on_) {
    if (uses_ <= off_len_) return false;
    open_window();
    return true;
  }
  if (uses_ <= kWindow) return true;
  const bool pays = static_cast<double>(gained_) > gain_per_cost_ * static_cast<double>(cost_);
  if (pays) {
    ++paid_;
    next_off_ = kWindow;
    open_window();
    return true;
  }
  ++unpaid_;
  on_ = false;
  uses_ = 1;  // this use is the stretch's first
  off_len_ = next_off_;
  next_off_ = std::min(kGrowth * next_off_, kLongestOff);
  return false;
}

void MeasuredSwitch::open_window() {
  on_ = true;
  uses_ = 1;
  gained_ = cost_ = 0;
}

}  // namespace placesim::engine
