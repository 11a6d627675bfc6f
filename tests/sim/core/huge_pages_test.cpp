// Every placesim program's operator new asks for transparent huge pages for large blocks
// (sim/core/huge_pages.cpp). The kernel says which mappings may get them: /proc/self/smaps,
// "THPeligible" per mapping. Under THP mode "madvise" (Debian's default) a block from plain
// malloc is not eligible and one from operator new is.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <new>
#include <sstream>
#include <string>
#include <vector>

namespace {

// The kernel's THP mode, the bracketed word of /sys/kernel/mm/transparent_hugepage/enabled
// ("always", "madvise", "never"); "" when the kernel has no THP.
std::string thp_mode() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto open = all.find('['), close = all.find(']');
  return open == std::string::npos || close == std::string::npos ? "" : all.substr(open + 1, close - open - 1);
}

// THPeligible of the mapping that holds p: 1 or 0, -1 when not found.
int thp_eligible(const void* p) {
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  std::ifstream smaps("/proc/self/smaps");
  bool inside = false;
  for (std::string line; std::getline(smaps, line);) {
    std::uintptr_t begin = 0, end = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> begin >> dash >> end && dash == '-') {
      inside = begin <= at && at < end;
    } else if (inside && line.rfind("THPeligible:", 0) == 0) {
      return std::stoi(line.substr(12));
    }
  }
  return -1;
}

// Why advice cannot be seen in this build or on this kernel; "" when it can.
std::string untestable() {
#ifndef PLACESIM_HUGE_PAGES
  return "a sanitizer or fuzz build: its programs keep the sanitizers' operator new (cmake/placesim_helpers.cmake)";
#endif
  const std::string mode = thp_mode();
  if (mode != "madvise") return "THP mode is '" + mode + "', not 'madvise': advice changes nothing here";
  return "";
}

TEST(HugePages, OperatorNewAdvisesLargeBlocksAndMallocDoesNot) {
  if (const std::string why = untestable(); !why.empty()) GTEST_SKIP() << why;
  constexpr std::size_t kBytes = std::size_t{64} << 20;
  // Called as functions, which the compiler may not elide as it may a new-expression.
  char* advised = static_cast<char*>(::operator new(kBytes));
  char* plain = static_cast<char*>(std::malloc(kBytes));
  ASSERT_NE(plain, nullptr);
  EXPECT_EQ(thp_eligible(advised + kBytes / 2), 1);
  EXPECT_EQ(thp_eligible(plain + kBytes / 2), 0);
  ::operator delete(advised);
  std::free(plain);
}

// Small blocks come from glibc's heap, which operator new advises as it grows: once small
// blocks fill 48 MiB, most of them lie in eligible memory (a growth's first 2 MiB may not).
TEST(HugePages, TheHeapOfSmallBlocksIsAdvisedAsItGrows) {
  if (const std::string why = untestable(); !why.empty()) GTEST_SKIP() << why;
  constexpr std::size_t kBlock = 1024, kBlocks = (std::size_t{48} << 20) / kBlock;
  std::vector<char*> blocks;
  blocks.reserve(kBlocks);
  for (std::size_t i = 0; i < kBlocks; ++i) blocks.push_back(static_cast<char*>(::operator new(kBlock)));
  int eligible = 0, asked = 0;
  for (std::size_t i = kBlocks / 2; i < kBlocks; i += kBlocks / 64, ++asked) eligible += thp_eligible(blocks[i]) == 1;
  EXPECT_GE(eligible * 4, asked * 3) << eligible << " of " << asked << " blocks in eligible memory";
  for (char* b : blocks) ::operator delete(b);
}

}  // namespace
