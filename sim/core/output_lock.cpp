#include "sim/core/output_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>

#include "sim/core/error.hpp"

namespace placesim {

namespace fs = std::filesystem;

namespace {

// The pid a holder wrote into the lock file ("" when it has not yet, or it is unreadable).
std::string holder_pid(int fd) {
  char buf[32] = {};
  const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
  std::string pid = n > 0 ? std::string(buf, static_cast<size_t>(n)) : "";
  if (pid.find_first_not_of("0123456789") != std::string::npos) return "";
  return pid;
}

}  // namespace

OutputLock::OutputLock(const std::string& path) : lock_path_(path + ".lock") {
  std::error_code ec;
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty()) fs::create_directories(parent, ec);
  // The holder removes the lock file as it lets go, so the file locked here may have been
  // removed (or replaced) between open and flock: try again until the locked file is the one
  // the path names.
  while (true) {
    const int fd = ::open(lock_path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0)
      throw InputError(SourceLoc{path}, std::string("cannot write file: ") + std::strerror(errno));
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      const std::string pid = holder_pid(fd);
      ::close(fd);
      if (err != EWOULDBLOCK)
        throw InputError(SourceLoc{path}, fmt::format("cannot lock {}: {}", lock_path_, std::strerror(err)));
      throw InputError(SourceLoc{path},
                       fmt::format("another placesim{} is writing this file; wait for it to end, or name another "
                                   "file with -o",
                                   pid.empty() ? "" : " (pid " + pid + ")"));
    }
    struct stat held {}, named {};
    if (::fstat(fd, &held) == 0 && ::stat(lock_path_.c_str(), &named) == 0 && held.st_ino == named.st_ino &&
        held.st_dev == named.st_dev) {
      // A holder removes the file as it lets go: one that names a pid was left by a process that
      // ended without (killed); its lock went with it, and this one takes the file over.
      if (const std::string left = holder_pid(fd); !left.empty())
        std::fprintf(stderr, "placesim: note: %s was left by process %s, which ended without removing it; taken over\n",
                     lock_path_.c_str(), left.c_str());
      const std::string pid = std::to_string(::getpid());
      // The pid is only for the message a second writer gets; the lock holds without it.
      [[maybe_unused]] const bool wrote = ::ftruncate(fd, 0) == 0 && ::pwrite(fd, pid.data(), pid.size(), 0) >= 0;
      fd_ = fd;
      return;
    }
    ::close(fd);
  }
}

OutputLock::~OutputLock() {
  if (fd_ < 0) return;
  ::unlink(lock_path_.c_str());  // before letting go: a waiter then finds the path gone and retries
  ::close(fd_);
}

}  // namespace placesim
