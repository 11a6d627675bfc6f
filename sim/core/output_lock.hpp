// One writer per output file. A sweep rewrites its results file for minutes or hours; a second
// placesim given the same -o would rename its own file over the first's at every point, and
// the last to finish would silently win. The first to start holds an advisory lock on PATH.lock
// (flock: released by the kernel whatever way the process ends) and the second is refused.
#pragma once

#include <string>

namespace placesim {

class OutputLock {
 public:
  // Takes the lock for `path`, or throws InputError naming `path` and the holder's pid when
  // another process holds it. Creates missing parent directories. A lock file a killed process
  // left behind holds no lock: it is taken over, with a note on stderr naming that process.
  explicit OutputLock(const std::string& path);
  ~OutputLock();
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

 private:
  std::string lock_path_;
  int fd_ = -1;
};

}  // namespace placesim
