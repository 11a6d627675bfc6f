// sim/core/id_rows.hpp: ids grouped under keys by a counting sort, each row ascending, and no
// rows at all when no id is listed.
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "sim/core/id_rows.hpp"

namespace {

using placesim::IdRows;

std::vector<std::int32_t> as_vector(std::span<const std::int32_t> s) { return {s.begin(), s.end()}; }

TEST(IdRows, RowsHoldTheirIdsAscendingAndEmptyKeysNone) {
  // (key, id) pairs in ascending id, keys out of order; key 1 and key 4 get none.
  const std::vector<std::pair<std::size_t, std::int32_t>> pairs = {{3, 0}, {0, 1}, {3, 2}, {2, 3}, {0, 4}, {3, 4}};
  const IdRows rows = IdRows::build(5, [&](const auto& emit) {
    for (auto [key, id] : pairs) emit(key, id);
  });
  EXPECT_EQ(as_vector(rows.row(0)), (std::vector<std::int32_t>{1, 4}));
  EXPECT_TRUE(rows.row(1).empty());
  EXPECT_EQ(as_vector(rows.row(2)), (std::vector<std::int32_t>{3}));
  EXPECT_EQ(as_vector(rows.row(3)), (std::vector<std::int32_t>{0, 2, 4}));
  EXPECT_TRUE(rows.row(4).empty());
}

TEST(IdRows, NoPairsAllocateNothing) {
  const IdRows rows = IdRows::build(1000000, [](const auto&) {});
  EXPECT_TRUE(rows.start.empty());
  EXPECT_TRUE(rows.ids.empty());
  EXPECT_TRUE(rows.row(999999).empty());
}

}  // namespace
