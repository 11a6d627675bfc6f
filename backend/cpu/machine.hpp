// This machine as hwloc sees it: its processing units (PUs), its memory, and pinning a thread
// to one PU. A real executor pins each queue's worker so the OS never migrates it mid-run and
// two queues planned on two cores really run on two cores.
#pragma once

#include <memory>

namespace placesim::backend {

class Machine {
 public:
  Machine();  // loads the hwloc topology; std::runtime_error when hwloc fails
  ~Machine();
  Machine(const Machine&) = delete;
  Machine& operator=(const Machine&) = delete;

  int pus() const;              // processing units the process may use
  double memory_bytes() const;  // total memory of the machine
  // Data caches (bytes; 0 when hwloc reports none): the largest one that serves a single PU
  // (a core's own, such as its L2), and the largest of all (the last level, often shared).
  double private_cache_bytes() const;
  double last_level_cache_bytes() const;
  // Binds the calling thread to PU `pu` (logical index, taken modulo pus()). Returns false when
  // the OS refuses (some containers do); the run goes on unpinned.
  bool pin_this_thread(int pu) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// One Machine per process, loaded on first use (hwloc topology loading is slow).
const Machine& this_machine();

}  // namespace placesim::backend
