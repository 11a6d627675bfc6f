#include "app/cli/plot_script.hpp"

#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

extern char** environ;

namespace placesim::cli {

namespace fs = std::filesystem;

std::string find_plot_script() {
  std::error_code ec;
  const fs::path exe_dir = fs::read_symlink("/proc/self/exe", ec).parent_path();
  std::vector<fs::path> places;
  if (!ec) {
    places.push_back(exe_dir / "share/placesim/plot");
    places.push_back(exe_dir / "../share/placesim/plot");
  }
  places.push_back(fs::path(PLACESIM_SOURCE_DIR) / "scripts/plot");
  std::string looked;
  for (const fs::path& p : places) {
    if (fs::is_regular_file(p / "__main__.py", ec)) return p.lexically_normal().string();
    looked += (looked.empty() ? "" : ", ") + p.lexically_normal().string();
  }
  throw std::runtime_error("cannot find the plot script (scripts/plot/__main__.py); looked in " + looked);
}

int run_plot_script(const std::string& script, const std::vector<std::string>& args) {
  // -B: no __pycache__ beside the script, in the source tree or the build tree.
  std::vector<std::string> argv_s{"/usr/bin/python3", "-B", script};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (const int err = posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ); err != 0)
    throw std::runtime_error(std::string("cannot run /usr/bin/python3: ") + std::strerror(err));
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) throw std::runtime_error(std::string("waiting for the plot script: ") + std::strerror(errno));
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

}  // namespace placesim::cli
