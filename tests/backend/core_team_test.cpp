// A team of cores (backend/cpu/core_team.hpp) and kernels run in parts: every part runs once,
// each on its own thread, and the parts together compute exactly what one piece does.
#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <tuple>
#include <set>
#include <thread>
#include <vector>

#include "backend/cpu/core_team.hpp"
#include "backend/cpu/kernels.hpp"
#include "backend/cpu/task_buffers.hpp"

namespace placesim::backend::cpu {
namespace {

TEST(CoreTeam, EveryPartOnceEachOnItsOwnThread) {
  CoreTeam team(-1, 3);
  ASSERT_EQ(team.size(), 3);
  for (int parts : {3, 2, 1, 3}) {  // the same team, kernel after kernel
    std::mutex mu;
    std::vector<int> seen;
    std::set<std::thread::id> threads;
    team.run([&](int part, int of) {
      std::lock_guard lock(mu);
      EXPECT_EQ(of, parts);
      seen.push_back(part);
      threads.insert(std::this_thread::get_id());
    }, parts);
    std::sort(seen.begin(), seen.end());
    std::vector<int> want(static_cast<size_t>(parts));
    for (int i = 0; i < parts; ++i) want[static_cast<size_t>(i)] = i;
    EXPECT_EQ(seen, want);
    EXPECT_EQ(threads.size(), static_cast<size_t>(parts));
  }
}

TEST(CoreTeam, TeamOfOneRunsOnTheCaller) {
  CoreTeam team(-1, 1);
  std::thread::id ran;
  team.run([&](int, int) { ran = std::this_thread::get_id(); });
  EXPECT_EQ(ran, std::this_thread::get_id());
}

// Buffers start at 1.0, so C = A * B holds k in every element and a stream writes 0.5 + 1.
void expect_all(const float* out, long n, float want) {
  for (long i = 0; i < n; ++i) ASSERT_EQ(out[i], want) << "element " << i;
}

TEST(KernelParts, GemmSplitByColumnsOrRowsCoversCOnce) {
  use_one_blas_thread();
  for (auto [m, n, k, parts] : {std::tuple{5L, 7L, 3L, 3}, {9L, 2L, 4L, 4}, {2L, 3L, 5L, 5}}) {
    Work w;
    w.kind = WorkKind::Gemm;
    w.m = m;
    w.n = n;
    w.k = k;
    TaskBuffers b(w);
    for (int p = 0; p < parts; ++p) b.run(w, p, parts);
    expect_all(b.output(), m * n, static_cast<float>(k));
  }
}

TEST(KernelParts, StreamSplitCoversEveryElement) {
  Work w;
  w.kind = WorkKind::Stream;
  w.bytes = 1000;  // two buffers of 500 bytes: 125 floats
  TaskBuffers b(w);
  for (int p = 0; p < 3; ++p) b.run(w, p, 3);
  expect_all(b.output(), 125, 1.5f);
}

}  // namespace
}  // namespace placesim::backend::cpu
