#include "sim/core/activity.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <thread>

namespace placesim {
namespace {

using Clock = std::chrono::steady_clock;

struct Entry {
  std::string label, detail;
  Clock::time_point since;
};

std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}
std::map<std::thread::id, Entry>& registry() {
  static std::map<std::thread::id, Entry> r;
  return r;
}
thread_local std::string t_label;
thread_local Clock::time_point t_since;

void publish() {
  std::lock_guard<std::mutex> lock(registry_mutex());
  if (t_label.empty()) {
    registry().erase(std::this_thread::get_id());
  } else {
    registry()[std::this_thread::get_id()] = Entry{t_label, "", t_since};
  }
}

}  // namespace

Activity::Activity(std::string label) : outer_(std::move(t_label)), outer_since_(t_since) {
  t_label = std::move(label);
  t_since = Clock::now();
  publish();
}

Activity::~Activity() {
  t_label = std::move(outer_);
  t_since = outer_since_;
  publish();
}

const std::string& current_activity() { return t_label; }

void note_activity(const std::string& detail) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  auto it = registry().find(std::this_thread::get_id());
  if (it != registry().end()) it->second.detail = detail;
}

std::vector<ActivityState> activities() {
  std::vector<ActivityState> out;
  const Clock::time_point now = Clock::now();
  {
    std::lock_guard<std::mutex> lock(registry_mutex());
    for (auto& [id, e] : registry())
      out.push_back({e.label, e.detail, std::chrono::duration<double>(now - e.since).count()});
  }
  std::stable_sort(out.begin(), out.end(), [](const ActivityState& a, const ActivityState& b) { return a.seconds > b.seconds; });
  return out;
}

}  // namespace placesim
