// Work that may crash or hang on what it is given, run in a child process so that it cannot take
// placesim down: HDF5 reading a damaged file (a corrupt global heap makes H5HG_read fault, a
// corrupt B-tree can loop). The child's answer comes back as bytes through a pipe.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <string_view>

namespace placesim {

// Runs `work` in a forked child and returns what it returned. An InputError it throws is thrown
// here with its message (located at `where`); a crash, another exception, or a child that uses
// `limit` of CPU time, or waits ten times `limit` without ending (the child is then killed),
// throws InputError at `where` saying which. CPU time, not wall time, so that a machine busy with
// other work (a test suite beside a sanitizer build) does not make a sound file look like a
// looping one. Only for work that writes nothing the parent needs but its answer: the child's
// memory is its own.
std::string call_in_child(const std::function<std::string()>& work, const std::string& where,
                          std::chrono::milliseconds limit);

// All of `bytes` to `fd` (a child's report pipe), retried when a signal interrupts a write;
// false when a write failed (the reader then sees a short report).
bool write_all(int fd, std::string_view bytes);

}  // namespace placesim
