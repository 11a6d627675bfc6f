#include "sim/core/stop_request.hpp"

namespace placesim {
namespace {

std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free, "request_stop runs in a signal handler");

}  // namespace

void request_stop() { g_stop.store(true, std::memory_order_relaxed); }
bool stop_requested() { return g_stop.load(std::memory_order_relaxed); }
void clear_stop_request() { g_stop.store(false, std::memory_order_relaxed); }
const std::atomic<bool>& stop_flag() { return g_stop; }

}  // namespace placesim
