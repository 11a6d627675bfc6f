// Files in and out. Output files are written whole or not at all: to PATH.tmp-<pid>, then
// renamed over PATH, so an interrupted or failed run never leaves a half-written file.
#pragma once

#include <functional>
#include <memory>
#include <ostream>
#include <string>

namespace placesim {

// The whole of an input file; InputError naming the path for a directory or an unreadable file.
std::string read_input_file(const std::string& path);

// Creates missing parent directories. Throws InputError naming the path when it cannot create
// the file (a bad path), OutputError when writing it failed (a full disk, the file size limit):
// either way the temporary file is removed and whatever was at `path` stays as it was.
void write_file_atomic(const std::string& path, const std::function<void(std::ostream&)>& write);
void write_file_atomic(const std::string& path, const std::string& text);

// write_file_atomic for a writer that cannot hand over one function (one that writes while a
// run goes): out() writes PATH.tmp-<pid>, commit() puts it in place with write_file_atomic's
// errors, and a file never committed is removed. A run killed while writing leaves its
// temporary file; the next AtomicFile for PATH removes it (remove_stale_temps).
class AtomicFile {
 public:
  explicit AtomicFile(const std::string& path);  // InputError naming path when it cannot be created
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  std::ostream& out();
  void commit();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// `s` with every character other than letters, digits, '-' and '.' replaced by '_': placer
// labels such as "round-robin{unit=op}" as parts of file names.
std::string file_safe_name(const std::string& s);

// The temporary name write_file_atomic uses for `path` (for writers that need a file name).
std::string temp_path_for(const std::string& path);
// Checks that `path` can be written this way before work starts: creates missing parent
// directories and the temporary file (then removes it); InputError naming the path and the
// reason (such as "Permission denied") otherwise, or when `path` is not a regular file.
void check_writable(const std::string& path);
// Renames `tmp` over `path`; removes `tmp` and throws InputError on failure.
void commit_temp_file(const std::string& tmp, const std::string& path);
// Removes the PATH.tmp-<pid> files a killed run left: the temporary names of processes no
// longer alive (a live one's, another run writing PATH now, stays).
void remove_stale_temps(const std::string& path);

}  // namespace placesim
