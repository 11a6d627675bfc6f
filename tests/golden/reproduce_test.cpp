// The ladders in results/reproduce/ are remade byte for byte by the command on their first line
// (the quick ones here; SortingHat's and AsymGroup's take minutes and are run by hand). The
// command is read from the file itself, with the built binary for build/placesim and a temp
// folder for /tmp and for the output.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "tests/support/run_cli.hpp"

using placesim::testing::read_all;
using placesim::testing::run_command;
using placesim::testing::temp_dir;

namespace {

void expect_remade(const std::string& paper) {
  const std::string source = PLACESIM_SOURCE_DIR;
  const std::string file = "results/reproduce/" + paper + ".md";
  const std::string committed = read_all(source + "/" + file);
  ASSERT_EQ(committed.rfind('`', 0), 0u) << file << " does not start with its command";
  std::string command = committed.substr(1, committed.find('`', 1) - 1);
  const std::string dir = temp_dir("reproduce-" + paper);
  command = std::regex_replace(command, std::regex("/tmp/"), dir + "/");
  command = std::regex_replace(command, std::regex("> " + file), "> " + dir + "/out.md");
  command = std::regex_replace(command, std::regex("build/placesim"), PLACESIM_BINARY);
  const auto r = run_command("cd " + source + " && (" + command + ")");
  ASSERT_EQ(r.code, 0) << command << "\n" << r.err;
  EXPECT_EQ(read_all(dir + "/out.md"), committed) << command;
}

TEST(Reproduce, ChrionLadderIsRemadeByItsCommand) { expect_remade("chrion"); }
TEST(Reproduce, MoiraiLadderIsRemadeByItsCommand) { expect_remade("moirai"); }
TEST(Reproduce, ScheinferLadderIsRemadeByItsCommand) { expect_remade("scheinfer"); }

}  // namespace
