// sim/core: located errors from YAML reading, unit formatting, picosecond rounding, and
// whole-or-nothing file writing.
#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>

#include "tests/error_of.hpp"

#include "sim/core/file_io.hpp"
#include "sim/core/time.hpp"
#include "sim/core/units.hpp"
#include "sim/core/yaml_doc.hpp"

namespace {

using namespace placesim;

using test::error_of;

TEST(Yaml, ErrorsCarryFileLineColumn) {
  const Yaml doc = Yaml::load_string("a: 1\nb:\n  c: fast\n  d: 12GB/s\n", "f.yaml");
  EXPECT_EQ(error_of([&] { doc.at("b").at("c").number(); }), "f.yaml:3:6: expected a number, got 'fast'");
  EXPECT_EQ(doc.at("b").at("d").bandwidth(), 12e9);
  EXPECT_EQ(error_of([&] { doc.at("b").at("c").bandwidth(); }).rfind("f.yaml:3:6: ", 0), 0u);
  EXPECT_EQ(error_of([&] { doc.at("zz"); }), "f.yaml:1:1: missing key 'zz'");
  EXPECT_EQ(error_of([&] { doc.allow_keys({"a"}); }), "f.yaml:2:1: unknown key 'b' (expected one of: a)");
  EXPECT_EQ(error_of([] { Yaml::load_string("a: [1, 2\n", "g.yaml"); }).rfind("g.yaml:2:1: malformed", 0), 0u);
}

TEST(Yaml, AssignmentRebindsInsteadOfOverwriting) {
  Yaml a = Yaml::load_string("x: 1", "a");
  const Yaml keep = a;
  a = Yaml::load_string("y: 2", "b");
  EXPECT_TRUE(keep.has("x"));  // yaml-cpp's own operator= would have overwritten `keep` too
  EXPECT_TRUE(a.has("y"));
}

TEST(Time, RoundsUpToThePicosecond) {
  EXPECT_EQ(ceil_ps(1e-12), 1);
  EXPECT_EQ(ceil_ps(0.1), 100'000'000'000);
  EXPECT_EQ(ceil_ps(1.5e-12), 2);
  EXPECT_EQ(ceil_ps(1e300), kTimeNever);
}

TEST(Units, FormatsForPeople) {
  EXPECT_EQ(units::format_bytes(32.0 * (1ull << 30)), "32.00 GiB");
  EXPECT_EQ(units::format_seconds(0.0042), "4.2 ms");
}

TEST(FileIo, WritesWholeOrNothing) {
  const auto dir = std::filesystem::temp_directory_path() / "placesim-core-fileio";
  std::filesystem::remove_all(dir);
  const std::string path = (dir / "sub" / "out.txt").string();
  write_file_atomic(path, "hello\n");
  EXPECT_TRUE(std::filesystem::exists(path));
  EXPECT_THROW(write_file_atomic(path, [](std::ostream& o) {
                 o << "half";
                 throw InputError("writer failed");
               }),
               InputError);
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "hello");  // the old file is untouched
  EXPECT_FALSE(std::filesystem::exists(temp_path_for(path)));
  EXPECT_THROW(write_file_atomic("/proc/no-such-dir/x", "x"), InputError);
}

}  // namespace
