// The status words results files, JSON and tables carry, and the old word an earlier file holds.
#include <gtest/gtest.h>

#include "scheduler/run_status.hpp"
#include "sim/core/error.hpp"

namespace placesim::scheduler {
namespace {

TEST(RunStatusWords, EachReadsBackAsItself) {
  for (RunStatus s : {RunStatus::Ok, RunStatus::Infeasible, RunStatus::Limit, RunStatus::Error, RunStatus::Refused,
                      RunStatus::Interrupted})
    EXPECT_EQ(parse_run_status(to_string(s)), s) << to_string(s);
}

// A node limit is not a time-out (issue: `timeout` shown for a node limit): the word names both.
TEST(RunStatusWords, ALimitHitIsLimitAndOldFilesTimeoutReadsAsIt) {
  EXPECT_STREQ(to_string(RunStatus::Limit), "limit");
  EXPECT_EQ(parse_run_status("timeout"), RunStatus::Limit);
  EXPECT_THROW(parse_run_status("time-out"), InputError);
}

}  // namespace
}  // namespace placesim::scheduler
