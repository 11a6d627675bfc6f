// Event calendar throughput: the classic hold model. With N events pending, each step pops the
// earliest and schedules a new one a random delay later, so the queue size stays N. Reported as
// items_per_second (events/s), for our Calendar and a plain std::priority_queue in the same run.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <functional>
#include <queue>
#include <random>
#include <utility>
#include <vector>

#include "sim/engine/calendar.hpp"

namespace {

using placesim::TimePs;
using placesim::engine::Calendar;

constexpr TimePs kMaxDelayPs = 1'000'000;  // delays uniform in [0, 1 us]
constexpr std::size_t kDelayTable = 1 << 16;  // precomputed so the RNG is not what is timed

std::vector<TimePs> delays() {
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<TimePs> d(0, kMaxDelayPs);
  std::vector<TimePs> v(kDelayTable);
  for (TimePs& x : v) x = d(rng);
  return v;
}

void BM_Calendar(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const std::vector<TimePs> delay = delays();
  Calendar cal;
  std::size_t i = 0;
  for (std::size_t k = 0; k < n; ++k) cal.push(delay[i++ % kDelayTable], static_cast<std::uint32_t>(k));
  for (auto _ : state) {
    const Calendar::Event e = cal.pop();
    cal.push(e.time + delay[i++ % kDelayTable], e.id);
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_PriorityQueue(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const std::vector<TimePs> delay = delays();
  using Entry = std::pair<TimePs, std::uint64_t>;  // (time, seq): same ordering as the calendar
  std::vector<Entry> storage;
  storage.reserve(n + 1);
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> pq(std::greater<Entry>{},
                                                                         std::move(storage));
  std::uint64_t seq = 0;
  std::size_t i = 0;
  for (std::size_t k = 0; k < n; ++k) pq.emplace(delay[i++ % kDelayTable], seq++);
  for (auto _ : state) {
    const Entry e = pq.top();
    pq.pop();
    pq.emplace(e.first + delay[i++ % kDelayTable], seq++);
  }
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

BENCHMARK(BM_Calendar)->Arg(1'000)->Arg(100'000)->Arg(1'000'000);
BENCHMARK(BM_PriorityQueue)->Arg(1'000)->Arg(100'000)->Arg(1'000'000);

BENCHMARK_MAIN();
