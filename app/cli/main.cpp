// placesim: simulate and compare placements of DL inference on heterogeneous hardware.
// Exit codes: 0 success, 2 bad input (with file:line:column), 1 internal failure or output that
// could not be written (a full disk: the files written before stay), 3 out of memory, 130 a
// sweep stopped by Ctrl-C (its results file whole, resumable).
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fmt/format.h>
#include <new>
#include <string>
#include <system_error>
#include <vector>

#include "app/cli/command.hpp"
#include "app/cli/run_to_file.hpp"
#include "sim/core/error.hpp"

using namespace placesim;

static void print_help(std::FILE* to) {
  std::string text =
      "placesim: a discrete-event simulator and design-space explorer for DL inference placement.\n\n"
      "usage: placesim COMMAND [options]   (placesim COMMAND --help for details)\n\ncommands:\n";
  size_t width = 0;
  for (const cli::Command& c : cli::commands()) width = std::max(width, c.usage.size());
  for (const cli::Command& c : cli::commands()) text += fmt::format("  {:<{}} {}\n", c.usage, width, c.summary);
  text +=
      "\nEvery command takes --json and then prints one JSON document on stdout; logs go to stderr.\n"
      "Bad input exits with code 2 and a message naming the file, line and column.\n";
  std::fputs(text.c_str(), to);
}

// Output that never reached stdout (a full disk, /dev/full) fails the command: a 0 would say the
// table or JSON was written. Buffered output meets its error at the flush.
static int check_stdout(int rc) {
  const bool earlier = std::ferror(stdout) != 0;  // a write already failed: its errno is gone
  errno = 0;
  if (std::fflush(stdout) == 0 && !earlier) return rc;
  const std::string why = !earlier && errno ? std::strerror(errno) : "a write to it failed";
  std::fprintf(stderr, "placesim: error: cannot write standard output: %s\n", why.c_str());
  return rc == 0 ? 1 : rc;
}

// Memory ran out: the sweep's files were closed on the way here (the lock removed, finished
// points written where memory allowed). Say so and end without the exit handlers, which may wait
// on threads (OpenBLAS's) that memory starved.
[[noreturn]] static void out_of_memory(const std::string& what) {
  std::fprintf(stderr,
               "placesim: error: out of memory%s%s; a results file keeps the sweep points finished before. Give "
               "placesim more memory (ulimit -v) or run fewer points at once (-j 1)\n",
               what.empty() ? "" : ": ", what.c_str());
  std::fflush(stdout);
  std::_Exit(3);
}

static int run(const std::vector<std::string>& args) {
  if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    print_help(args.empty() ? stderr : stdout);
    return args.empty() ? 2 : 0;
  }
  if (args[0] == "--version") {
    std::puts("placesim " PLACESIM_VERSION_STRING);
    return 0;
  }
  try {
    for (const cli::Command& c : cli::commands())
      if (c.name == args[0]) return c.main({args.begin() + 1, args.end()});
    throw InputError(fmt::format("unknown command '{}' (run placesim --help)", args[0]));
  } catch (const InputError& e) {
    std::fprintf(stderr, "placesim: error: %s\n", e.what());
    return 2;
  } catch (const OutputError& e) {  // a full disk, the file size limit: what was written before stays
    std::fprintf(stderr, "placesim: error: %s\n", e.what());
    return 1;
  } catch (const std::bad_alloc& e) {
    out_of_memory(dynamic_cast<const OutOfMemory*>(&e) ? e.what() : "");
  } catch (const std::system_error& e) {
    // A thread that could not be started (EAGAIN: no memory for its stack) is memory too.
    if (e.code() == std::errc::resource_unavailable_try_again) out_of_memory("cannot start a thread");
    std::fprintf(stderr, "placesim: internal error: %s\n", e.what());
    return 1;
  } catch (const cli::Interrupted& e) {
    std::fprintf(stderr, "\nplacesim: %s\n", e.what());
    return 130;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "placesim: internal error: %s\n", e.what());
    return 1;
  }
}

int main(int argc, char** argv) {
  // Past `ulimit -f` a write fails with EFBIG, which the writers report (OutputError), instead of
  // SIGXFSZ ending the process with its lock and temporary files left behind.
  std::signal(SIGXFSZ, SIG_IGN);
  cli::exit_follows_command();
  return check_stdout(run(std::vector<std::string>(argv + 1, argv + argc)));
}
