// The name of an input file (or of the command-line option standing in for one), as error
// locations carry it: one shared copy of each distinct name for the whole process.
//
// Every node and edge of a graph keeps where it was read (SourceLoc), so that a problem found
// after reading still names its line. With the name held by value that was a heap copy of the
// path per node and per edge: half a million allocations for a 100k-op graph (allocating and
// freeing were 6% of loading it and its plan). Held as one interned string, a location is
// copied like an int.
// Names are never freed; a process meets a handful of distinct ones (a sweep, a few thousand).
#pragma once

#include <string>
#include <string_view>

namespace placesim {

class FileName {
 public:
  FileName() = default;  // the empty name
  // Implicit, as a std::string was: SourceLoc{path, line, column} reads as it always did.
  FileName(std::string_view name);  // NOLINT(google-explicit-constructor)
  FileName(const std::string& name) : FileName(std::string_view(name)) {}  // NOLINT
  FileName(const char* name) : FileName(std::string_view(name)) {}         // NOLINT

  const std::string& str() const { return *name_; }
  operator const std::string&() const { return *name_; }  // NOLINT(google-explicit-constructor)
  bool empty() const { return name_->empty(); }

  friend bool operator==(const FileName& a, std::string_view b) { return *a.name_ == b; }

 private:
  static const std::string kEmpty;
  const std::string* name_ = &kEmpty;
};

}  // namespace placesim
