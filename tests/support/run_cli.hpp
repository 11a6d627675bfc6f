// Runs the built `placesim` binary from a test and captures its exit code, stdout and stderr.
#pragma once

#include <array>
#include <fcntl.h>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace placesim::testing {

struct CliResult {
  int code = -1;
  std::string out, err;
};

inline std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A fresh directory under the system temp dir, removed by the caller if wanted.
// Writes `text` to dir/name and returns that path.
inline std::string write_file(const std::string& dir, const std::string& name, const std::string& text) {
  const std::string path = dir + "/" + name;
  std::ofstream(path) << text;
  return path;
}

inline std::string temp_dir(const std::string& tag) {
  auto d = std::filesystem::temp_directory_path() / ("placesim-" + tag + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d.string();
}

// Runs `cmd` with /bin/sh, capturing its exit code, stdout and stderr.
inline CliResult run_command(const std::string& cmd) {
  static int n = 0;
  const std::string dir = temp_dir("cli");
  const std::string out = dir + "/out" + std::to_string(n), err = dir + "/err" + std::to_string(n++);
  const std::string line = cmd + " >" + out + " 2>" + err;
  const int status = std::system(line.c_str());
  CliResult r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_all(out);
  r.err = read_all(err);
  return r;
}

// The built `placesim` started with `args` (no shell) in `dir` (default: this one), stdout to
// /dev/null, stderr into the file `err`; its pid, for a test to signal and wait for.
inline pid_t spawn_placesim(const std::vector<std::string>& args, const std::string& err, const std::string& dir = "") {
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (!dir.empty() && ::chdir(dir.c_str()) != 0) ::_exit(127);
    const int fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, STDERR_FILENO);
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, STDOUT_FILENO);
    std::vector<char*> argv{const_cast<char*>(PLACESIM_BINARY)};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(PLACESIM_BINARY, argv.data());
    ::_exit(127);
  }
  return pid;
}

// `args` is appended to the binary's path as shell words (the tests quote what they pass).
inline CliResult run_cli(const std::string& args) { return run_command(std::string(PLACESIM_BINARY) + " " + args); }

// A results file as canonical JSON read with h5py (tests/support/results_h5_dump.py): exit code
// 0 and the text when h5py opens and reads it.
inline CliResult dump_results_h5(const std::string& path) {
  return run_command("/usr/bin/python3 " PLACESIM_SOURCE_DIR "/tests/support/results_h5_dump.py '" + path + "'");
}

}  // namespace placesim::testing
