// Typed errors. Bad input (a file the user wrote) is an InputError carrying where it was found;
// the command line prints it on one line and exits with code 2. A broken invariant is a bug and
// uses assertions (PLACESIM_ASSERT), never InputError.
#pragma once

#include <new>
#include <stdexcept>
#include <string>

#include "sim/core/file_name.hpp"

namespace placesim {

// Where in a user file something was found. line/column are 1-based; 0 means "unknown".
struct SourceLoc {
  FileName file;
  int line = 0;
  int column = 0;

  std::string str() const;  // "file:line:column", "file:line", "file" or "" as known
};

class InputError : public std::runtime_error {
 public:
  InputError(SourceLoc loc, const std::string& what);
  explicit InputError(const std::string& what) : InputError(SourceLoc{}, what) {}
  const SourceLoc& loc() const { return loc_; }
  const std::string& detail() const { return detail_; }

 private:
  SourceLoc loc_;
  std::string detail_;
};

// Output that could not be written once work had begun (a full disk, the file size limit, an I/O
// error), not the user's input: the command line prints it and exits with code 1. What was
// written before stays (file_io.hpp: a failed write never replaces or removes a file).
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Memory ran out where placesim can say what it was doing (a module that could not be mapped);
// any std::bad_alloc is handled alike: the command line says so and exits with code 3, the
// finished sweep points staying in the results file.
class OutOfMemory : public std::bad_alloc {
 public:
  explicit OutOfMemory(std::string what) : what_(std::move(what)) {}
  const char* what() const noexcept override { return what_.c_str(); }

 private:
  std::string what_;
};

// `s` with its control bytes (a NUL, an escape) shown as \xNN; a line break and a tab kept where
// keep_lines. Every InputError's message goes through it.
std::string show_controls(const std::string& s, bool keep_lines = false);

[[noreturn]] void assertion_failed(const char* expr, const char* file, int line, const std::string& msg);

}  // namespace placesim

// Invariant checks stay on in Release: a simulator that silently continues past a broken
// invariant prints wrong numbers.
#define PLACESIM_ASSERT(expr, msg)                                                      \
  do {                                                                                  \
    if (!(expr)) ::placesim::assertion_failed(#expr, __FILE__, __LINE__, (msg));        \
  } while (0)
