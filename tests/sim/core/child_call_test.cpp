// Work run in a child process (sim/core/child_call.hpp): its answer, its input error, and a
// crash or a hang turned into an input error naming the file, the parent unharmed.
#include <gtest/gtest.h>

#include <csignal>
#include <thread>

#include "sim/core/child_call.hpp"
#include "sim/core/error.hpp"

namespace placesim {
namespace {

using namespace std::chrono_literals;

std::string message_of(const std::function<std::string()>& work, std::chrono::milliseconds limit = 5000ms) {
  try {
    call_in_child(work, "f.h5", limit);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(CallInChild, ReturnsTheAnswerByteForByte) {
  std::string bytes(200000, 'x');  // more than a pipe holds at once, and every byte value
  for (int i = 0; i < 256; ++i) bytes[static_cast<std::size_t>(i) * 7] = static_cast<char>(i);
  EXPECT_EQ(call_in_child([&] { return bytes; }, "f.h5", 5000ms), bytes);
}

TEST(CallInChild, AnInputErrorComesBackAsItWas) {
  EXPECT_EQ(message_of([]() -> std::string { throw InputError(SourceLoc{"f.h5", 3, 4}, "bad row"); }),
            "f.h5:3:4: bad row");
}

TEST(CallInChild, ACrashIsAnInputErrorSayingTheFileIsDamaged) {
  const std::string m = message_of([]() -> std::string {
    std::raise(SIGSEGV);
    return "";
  });
#ifdef PLACESIM_ASAN  // AddressSanitizer's own SIGSEGV handler reports and exits: no signal
  EXPECT_NE(m.find("f.h5: reading it ended without an answer: the file is damaged"), std::string::npos) << m;
#else
  EXPECT_NE(m.find("f.h5: reading it crashed (Segmentation fault): the file is damaged"), std::string::npos) << m;
#endif
}

// A loop is ended once it has used the limit's CPU time; a child blocked for good, using none,
// once ten times the limit has passed.
TEST(CallInChild, AHangIsEndedAtTheLimit) {
  auto start = std::chrono::steady_clock::now();
  std::string m = message_of(
      []() -> std::string {
        volatile unsigned long long k = 0;
        for (;;) k = k + 1;
      },
      300ms);
  EXPECT_NE(m.find("f.h5: reading it used 0.3 s of CPU without ending"), std::string::npos) << m;
  EXPECT_LT(std::chrono::steady_clock::now() - start, 3s);
  start = std::chrono::steady_clock::now();
  m = message_of(
      []() -> std::string {
        for (;;) std::this_thread::sleep_for(1s);
      },
      100ms);
  EXPECT_NE(m.find("f.h5: reading it did not end within 1 s"), std::string::npos) << m;
  EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
  EXPECT_GE(std::chrono::steady_clock::now() - start, 1s);
}

}  // namespace
}  // namespace placesim
