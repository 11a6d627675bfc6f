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
#include <sys/resource.h>
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

// Where the heap began: the lowest "[heap]" mapping of /proc/self/maps (0 when none).
std::uintptr_t heap_start() {
  std::ifstream maps("/proc/self/maps");
  std::uintptr_t lowest = 0;
  for (std::string line; std::getline(maps, line);) {
    if (line.find("[heap]") == std::string::npos) continue;
    std::uintptr_t begin = 0;
    std::istringstream(line) >> std::hex >> begin;
    if (lowest == 0 || begin < lowest) lowest = begin;
  }
  return lowest;
}

long minor_faults() {
  rusage r{};
  getrusage(RUSAGE_SELF, &r);
  return r.ru_minflt;
}

// The heap is taken and advised before anything lives in it, and its first, partial 2 MiB region
// (4 KiB pages since libstdc++'s start-up) is left behind: 8 MiB of fresh small blocks, touched,
// cost a few faults of 2 MiB each, where 4 KiB pages would take 2,048; and only blocks that reuse
// memory freed before (a handful) lie in the first region. Each part fails without its piece of
// HeapSetup (sim/core/huge_pages.cpp): no early growth, or no head kept.
TEST(HugePages, TheHeapIsAdvisedBeforeItsFirstBlocks) {
  if (const std::string why = untestable(); !why.empty()) GTEST_SKIP() << why;
  const std::uintptr_t start = heap_start();
  ASSERT_NE(start, 0u) << "no [heap] in /proc/self/maps";
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  const std::uintptr_t first_boundary = (start + kHuge - 1) & ~(kHuge - 1);
  constexpr std::size_t kBlock = 1024, kBlocks = (std::size_t{8} << 20) / kBlock;
  std::vector<char*> blocks(kBlocks);
  const long before = minor_faults();
  for (char*& b : blocks) {
    b = static_cast<char*>(::operator new(kBlock));
    b[0] = 1;
    b[kBlock - 1] = 1;
  }
  const long faults = minor_faults() - before;
  std::size_t in_first = 0;
  for (char* b : blocks) in_first += reinterpret_cast<std::uintptr_t>(b) < first_boundary;
  EXPECT_LT(faults, 64) << "faults touching 8 MiB of 1 KiB blocks (4 KiB pages would take 2,048)";
  EXPECT_LE(in_first, 16u) << "blocks in the heap's first, partial 2 MiB region";
  for (char* b : blocks) ::operator delete(b);
}

}  // namespace
