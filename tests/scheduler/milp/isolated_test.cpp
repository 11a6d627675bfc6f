// A search runs in a child process: a crash there is a result, not the end of placesim, and a
// search that does not stop is stopped.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "scheduler/milp/isolated.hpp"

namespace placesim::scheduler::milp {
namespace {

using namespace std::chrono_literals;

TEST(MilpIsolated, TheResultComesBackBitForBit) {
  Result in;
  in.status = Status::Feasible;
  in.nodes = 12;
  in.objective = 0.1 + 0.2;
  in.best_bound = -kInf;
  in.gap = kInf;
  in.message = "a message\nwith two lines";
  in.values = {1.0 / 3.0, -0.0, 5e-324, 1e308};
  const Result out = run_isolated([&] { return in; }, std::nullopt);
  EXPECT_EQ(out.status, in.status);
  EXPECT_EQ(out.nodes, in.nodes);
  EXPECT_EQ(out.objective, in.objective);
  EXPECT_EQ(out.best_bound, in.best_bound);
  EXPECT_EQ(out.gap, in.gap);
  EXPECT_EQ(out.message, in.message);
  EXPECT_EQ(out.values, in.values);
}

TEST(MilpIsolated, AnAbortIsAnErrorNamingTheSignal) {
  const Result r = run_isolated([]() -> Result { std::abort(); }, std::nullopt);
  EXPECT_EQ(r.status, Status::Error);
  EXPECT_NE(r.message.find("CBC died (signal 6"), std::string::npos) << r.message;
}

TEST(MilpIsolated, ASolveThatDoesNotStopIsKilledAtItsDeadline) {
  const auto start = std::chrono::steady_clock::now();
  const Result r = run_isolated(
      [] {
        std::this_thread::sleep_for(60s);
        return Result{};
      },
      start + 200ms);
  EXPECT_EQ(r.status, Status::NoSolution);
  EXPECT_NE(r.message.find("did not stop"), std::string::npos) << r.message;
  EXPECT_LT(std::chrono::steady_clock::now() - start, 10s);
}

}  // namespace
}  // namespace placesim::scheduler::milp
