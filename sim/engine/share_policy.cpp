#include "sim/engine/share_policy.hpp"

#include <algorithm>

namespace placesim::engine {

// A window is kWindow keyed starts; the start after it is judged by the window, as is the first
// start after a stretch off (which opens a window).
bool SharePolicy::share_start() {
  ++starts_;
  if (!on_) {
    if (starts_ <= off_len_) return false;
    open_window();
    return true;
  }
  if (starts_ <= kWindow) return true;
  const bool pays = static_cast<double>(joins_) > kResortPerJoin * static_cast<double>(resorted_);
  if (pays) {
    ++paid_;
    next_off_ = kWindow;
    open_window();
    return true;
  }
  ++unpaid_;
  on_ = false;
  starts_ = 1;  // this start is the stretch's first
  off_len_ = next_off_;
  next_off_ = std::min(kGrowth * next_off_, kLongestOff);
  return false;
}

void SharePolicy::open_window() {
  on_ = true;
  starts_ = 1;
  joins_ = resorted_ = 0;
}

}  // namespace placesim::engine
