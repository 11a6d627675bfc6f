// Bytes per element and names of the numeric formats.
#include <gtest/gtest.h>

#include "models/dtype.hpp"
#include "sim/core/error.hpp"

namespace placesim::models {
namespace {

TEST(DType, BytesAndNames) {
  EXPECT_EQ(bytes_per_element(DType::FP32), 4.0);
  EXPECT_EQ(bytes_per_element(DType::FP16), 2.0);
  EXPECT_EQ(bytes_per_element(DType::BF16), 2.0);
  EXPECT_EQ(bytes_per_element(DType::INT8), 1.0);
  EXPECT_EQ(bytes_per_element(DType::INT4), 0.5);
  for (DType t : {DType::FP32, DType::FP16, DType::BF16, DType::INT8, DType::INT4})
    EXPECT_EQ(parse_dtype(to_string(t)), t);
  EXPECT_THROW(parse_dtype("FP16"), InputError);
}

}  // namespace
}  // namespace placesim::models
