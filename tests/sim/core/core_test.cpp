// sim/core: located errors from YAML reading, unit formatting, picosecond rounding, and
// whole-or-nothing file writing, one writer per output.
#include <filesystem>
#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <unistd.h>

#include "tests/error_of.hpp"

#include "sim/core/file_io.hpp"
#include "sim/core/json_doc.hpp"
#include "sim/core/name_index.hpp"
#include "sim/core/output_lock.hpp"
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

// A location's file name is one shared copy per distinct name (file_name.hpp): a graph's
// half a million locations copy a pointer, not a path.
TEST(FileName, OneCopyPerNameSharedByEveryLocation) {
  const FileName a("dir/g.json"), b(std::string("dir/") + "g.json");
  EXPECT_EQ(&a.str(), &b.str());
  EXPECT_NE(&a.str(), &FileName("dir/h.json").str());
  EXPECT_TRUE(FileName().empty());
  EXPECT_TRUE(FileName("").empty());
  EXPECT_EQ((SourceLoc{"dir/g.json", 3, 4}.str()), "dir/g.json:3:4");
  EXPECT_EQ(SourceLoc{}.str(), "");
  const Json doc = Json::load_string(R"({"a": 1, "b": [2]})", "dir/g.json");
  EXPECT_EQ(&doc.at("a").loc().file.str(), &a.str());
  EXPECT_EQ(&doc.at("b").items()[0].loc().file.str(), &a.str());
  EXPECT_EQ(doc.at("b").items()[0].loc().str(), "dir/g.json:1:16");
}

// Asking ahead (NameIndex::first_candidate) names only an index that is there: -1 for a slot
// that is empty or holds another hash, which a reader must not take for an index.
TEST(NameIndex, AFirstCandidateIsAnIndexOrNone) {
  const std::vector<std::string> names = {"a", "b.c", "layers.12.attn.q_proj", "d@gpu0"};
  NameIndex index;
  const auto name_of = [&](std::uint32_t i) -> std::string_view { return names[i]; };
  for (std::uint32_t i = 0; i < names.size(); ++i) EXPECT_EQ(index.insert(names[i], i, name_of), -1);
  for (std::uint32_t i = 0; i < names.size(); ++i) {
    const std::int64_t c = index.first_candidate(NameIndex::hash(names[i]));
    EXPECT_TRUE(c == -1 || c == i) << names[i];  // -1: its first slot went to another name
    index.ask_slot(NameIndex::hash(names[i]));   // changes nothing
    EXPECT_EQ(index.find(names[i], name_of), i);
  }
  // Absent names: most land on one of the twelve empty slots of sixteen.
  int empty_slots_met = 0;
  for (int k = 0; k < 64; ++k) {
    const std::string absent = "absent" + std::to_string(k);
    const std::int64_t c = index.first_candidate(NameIndex::hash(absent));
    EXPECT_TRUE(c >= -1 && c < static_cast<std::int64_t>(names.size())) << absent;
    empty_slots_met += c == -1;
    EXPECT_EQ(index.find(absent, name_of), -1);
  }
  EXPECT_GT(empty_slots_met, 0);
  EXPECT_EQ(NameIndex().first_candidate(NameIndex::hash("a")), -1);
}

TEST(Time, RoundsUpToThePicosecond) {
  EXPECT_EQ(ceil_ps(1e-12), 1);
  EXPECT_EQ(ceil_ps(0.1), 100'000'000'000);
  EXPECT_EQ(ceil_ps(1.5e-12), 2);
  EXPECT_EQ(ceil_ps(1e300), kTimeNever);
}

TEST(Time, SumsStopAtNeverInsteadOfWrapping) {
  EXPECT_EQ(add_ps(2, 3), 5);
  EXPECT_EQ(add_ps(kTimeNever - 5, 4), kTimeNever - 1);
  EXPECT_EQ(add_ps(kTimeNever - 5, 5), kTimeNever);
  EXPECT_EQ(add_ps(kTimeNever - 5, 6), kTimeNever);  // would be negative if it wrapped
  EXPECT_EQ(add_ps(kTimeNever, kTimeNever), kTimeNever);
  EXPECT_EQ(add_ps(0, kTimeNever), kTimeNever);
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

TEST(FileIo, ReplacesOnlyRegularFilesAndSaysWhyItCannotWrite) {
  const auto dir = std::filesystem::temp_directory_path() / "placesim-core-special";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "a-directory");
  // A directory (and a symlink to a special file) stands for any non-regular file: never replaced.
  std::filesystem::create_symlink("/dev/null", dir / "null-link");
  for (const char* name : {"a-directory", "null-link"}) {
    const std::string path = (dir / name).string();
    try {
      write_file_atomic(path, "x");
      ADD_FAILURE() << "replaced " << path;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("is not a regular file"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(std::filesystem::exists(temp_path_for(path)));
  }
  EXPECT_TRUE(std::filesystem::is_directory(dir / "a-directory"));
  EXPECT_TRUE(std::filesystem::is_symlink(dir / "null-link"));
  EXPECT_THROW(write_file_atomic("", "x"), InputError);
  // A rename that fails reports the operating system's reason, not "Success".
  const std::string tmp = (dir / "t").string();
  write_file_atomic(tmp, "x");
  try {
    commit_temp_file(tmp, (dir / "no-such-dir" / "out").string());
    ADD_FAILURE() << "renamed into a missing directory";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).find("Success"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("No such file"), std::string::npos) << e.what();
  }
}

TEST(Yaml, TimesAndBandwidthsStayInTheClocksRange) {
  EXPECT_DOUBLE_EQ(Yaml::load_string("t: 5us", "r.yaml").at("t").duration(), 5e-6);
  EXPECT_THROW(Yaml::load_string("t: 1e7", "r.yaml").at("t").duration(), InputError);  // past 1e6 s
  EXPECT_THROW(Yaml::load_string("b: 1e-320", "r.yaml").at("b").positive_bandwidth(), InputError);
  EXPECT_DOUBLE_EQ(Yaml::load_string("b: 16GB/s", "r.yaml").at("b").positive_bandwidth(), 16e9);
}

TEST(Yaml, InputsAreUtf8) {
  // "é" (2 bytes), "€" (3), "😀" (4) are fine; a lone continuation byte, a truncated sequence, an
  // overlong "/" and a surrogate are errors at their line and column.
  EXPECT_NO_THROW(Yaml::load_string("name: caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\n", "u.yaml"));
  for (const char* bad : {"a: 1\nname: x\x80y\n", "a: 1\nname: x\xC3", "a: 1\nname: x\xC0\xAF\n",
                          "a: 1\nname: x\xED\xA0\x80\n"}) {
    try {
      Yaml::load_string(bad, "u.yaml");
      ADD_FAILURE() << "accepted " << bad;
    } catch (const InputError& e) {
      EXPECT_EQ(e.loc().line, 2) << e.what();
      EXPECT_EQ(e.loc().column, 8) << e.what();
      EXPECT_NE(std::string(e.what()).find("is not UTF-8"), std::string::npos) << e.what();
    }
  }
}

TEST(Yaml, AKeyGivenTwiceIsAnErrorAtTheSecond) {
  try {
    Yaml::load_string("a: 1\nb: {c: 2,\n c: 3}\n", "d.yaml");
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.loc().line, 3);
    EXPECT_NE(std::string(e.what()).find("key 'c' is given twice (first at line 2"), std::string::npos) << e.what();
  }
  // JSON too, and an alias is the anchor's node, not a second key.
  EXPECT_THROW(Yaml::load_string("{\"x\": 1, \"x\": 2}", "d.json"), InputError);
  EXPECT_NO_THROW(Yaml::load_string("a: &m {k: 1}\nb: *m\nc: [*m, *m]\n", "d.yaml"));
}

}  // namespace

TEST(OutputLock, RefusesASecondWriterUntilTheFirstLetsGoAndLeavesNoFile) {
  const auto dir = std::filesystem::temp_directory_path() / "placesim-core-lock";
  std::filesystem::remove_all(dir);
  const std::string path = (dir / "sub" / "r.h5").string();
  {
    const OutputLock first(path);  // creates the missing directory
    // flock belongs to the open file, so a second open in this process conflicts as another
    // process's would.
    const std::string e = error_of([&] { OutputLock second(path); });
    EXPECT_NE(e.find(path + ": another placesim (pid " + std::to_string(::getpid()) + ") is writing this file"),
              std::string::npos)
        << e;
  }
  EXPECT_FALSE(std::filesystem::exists(path + ".lock"));
  { const OutputLock again(path); }
  EXPECT_TRUE(std::filesystem::is_empty(dir / "sub"));
}
